import { describe, expectTypeOf, test } from 'vitest';
import {
  type LeaseLostError,
  isRetrysafeError,
  type AttemptsExhaustedError,
  type ConcurrentCallError,
  type InputNotFingerprintableError,
  type InputValidationError,
  type GuardedCallError,
  type InvalidKeyError,
  type KeyReuseError,
  type RetrysafeError,
  type RetrysafeErrorCode,
  type StoreUnavailableError,
  type ToolPolicyError,
  type UnserializableResultError,
  type InvalidIdentifierError,
  type DurabilityConfigError,
  type IndeterminateOutcomeError,
} from '../src/index.js';
import type { AnswerLostError, McpRequestError, McpToolError } from '../src/adapters/mcp.js';

type Every =
  | ConcurrentCallError
  | KeyReuseError
  | AttemptsExhaustedError
  | StoreUnavailableError
  | UnserializableResultError
  | InputNotFingerprintableError
  | InputValidationError
  | ToolPolicyError
  | InvalidKeyError
  | GuardedCallError
  | AnswerLostError
  | McpToolError
  | McpRequestError
  | LeaseLostError
  | InvalidIdentifierError
  | DurabilityConfigError
  | IndeterminateOutcomeError;

describe('error codes', () => {
  test('each error has its own literal code', () => {
    expectTypeOf<ConcurrentCallError['code']>().toEqualTypeOf<'concurrent_call'>();
    expectTypeOf<KeyReuseError['code']>().toEqualTypeOf<'key_reuse'>();
    expectTypeOf<AttemptsExhaustedError['code']>().toEqualTypeOf<'attempts_exhausted'>();
    expectTypeOf<StoreUnavailableError['code']>().toEqualTypeOf<'store_unavailable'>();
    expectTypeOf<UnserializableResultError['code']>().toEqualTypeOf<'unserializable_result'>();
    expectTypeOf<InputNotFingerprintableError['code']>().toEqualTypeOf<'input_not_fingerprintable'>();
    expectTypeOf<InputValidationError['code']>().toEqualTypeOf<'input_validation'>();
    expectTypeOf<ToolPolicyError['code']>().toEqualTypeOf<'tool_policy'>();
    expectTypeOf<InvalidKeyError['code']>().toEqualTypeOf<'invalid_key'>();
    expectTypeOf<GuardedCallError['code']>().toEqualTypeOf<'guarded_call'>();
    expectTypeOf<AnswerLostError['code']>().toEqualTypeOf<'answer_lost'>();
    expectTypeOf<McpToolError['code']>().toEqualTypeOf<'mcp_tool'>();
    expectTypeOf<McpRequestError['code']>().toEqualTypeOf<'mcp_request'>();
    expectTypeOf<LeaseLostError['code']>().toEqualTypeOf<'lease_lost'>();
    expectTypeOf<InvalidIdentifierError['code']>().toEqualTypeOf<'invalid_identifier'>();
    expectTypeOf<DurabilityConfigError['code']>().toEqualTypeOf<'durability_config'>();
    expectTypeOf<IndeterminateOutcomeError['code']>().toEqualTypeOf<'indeterminate_outcome'>();
  });

  test('the exported union is exactly the codes of the errors', () => {
    expectTypeOf<Every['code']>().toEqualTypeOf<RetrysafeErrorCode>();
    expectTypeOf<RetrysafeError['code']>().toEqualTypeOf<RetrysafeErrorCode>();
    expectTypeOf<Every>().toExtend<RetrysafeError>();
  });

  test('a code outside the union does not type-check', () => {
    // @ts-expect-error -- not a code
    const code: RetrysafeErrorCode = 'concurrent';
    expectTypeOf(code).toEqualTypeOf<RetrysafeErrorCode>();
  });

  test('isRetrysafeError narrows, and a switch on code narrows to the error', () => {
    const caught: unknown = undefined;
    if (isRetrysafeError(caught)) {
      expectTypeOf(caught).toEqualTypeOf<RetrysafeError>();
      expectTypeOf(caught.code).toEqualTypeOf<RetrysafeErrorCode>();
    }
    const known = caught as Every;
    if (known.code === 'concurrent_call') expectTypeOf(known).toEqualTypeOf<ConcurrentCallError>();
  });
});
