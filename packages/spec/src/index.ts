export { vouchDurable, type Durable, type DurableInput, type DurablePrimitive } from './durable.js';
export {
  key,
  assertStorableIdentifier,
  InvalidKeyError,
  MAX_KEY_LENGTH,
  NOT_DURABLE_KEY_PART,
  type DeterministicKey,
  type DurableKeyParts,
  type InvalidKeyReason,
  type LongKeyPart,
  type NotDurableKeyPart,
} from './key.js';
export type { RunContext, RunOrigin, RunOriginKind } from './run.js';
export { CONTRADICTIONS, type Contradiction, type PolicyContradictions } from './contradictions.js';
export {
  DEFAULT_MAX_ATTEMPTS,
  declarePolicy,
  policyOf,
  ToolPolicyError,
  type Idempotency,
  type KeyedToolPolicy,
  type NaturallyIdempotentPolicy,
  type NotRepeatablePolicy,
  type PolicyDeclaration,
  type PolicyShape,
  type Retry,
  type SideEffects,
  type ToolPolicy,
} from './policy.js';
export {
  defineTool,
  type AnyKeyedTool,
  type AnyTool,
  type ExecuteContext,
  type ExecuteContextFor,
  type KeyArguments,
  type KeyedExecuteContext,
  type KeyedTool,
  type PolicyFor,
  type Tool,
  type ToolDeclaration,
  type UnkeyedTool,
} from './tool.js';
export { validateInput, InputValidationError } from './validate.js';
// Runtime: runner, retry decisions, durable runs, errors, fingerprints.
export { createRunner, DEFAULT_LOCK_MS, DEFAULT_TTL_MS, type CallOptions, type CallOutcome, type CallResult, type ResultOf, type Runner, type RunnerOptions, type UnrecordedOutcome } from './runner.js';
export { decideRetry, type CallFailure, type RetryAction, type RetryDecision } from './retry.js';
export { callWithPolicy, retryByPolicy, type RetryLoopOptions, type RetryReport } from './loop/retryLoop.js';
export { describeFailure, type DescribeFailureOptions, type FailureToDescribe } from './loop/failureText.js';
// Guarded calls: tools with a declared policy but no key of their own, run through the runner.
export { callKey } from './loop/callKey.js';
export { currentCall, guardedRecord, GuardedCallError, runGuarded, type GuardedCall, type GuardedCallContext, type GuardedOutcome } from './loop/guard.js';
export { openRun, DEFAULT_RUN_TTL_MS, type OpenedRun, type OpenRunOptions } from './runs.js';
export {
  AttemptsExhaustedError,
  CONCURRENT_RETRY_AFTER_MS,
  ConcurrentCallError,
  LeaseLostError,
  DurabilityConfigError,
  IndeterminateOutcomeError,
  InputNotFingerprintableError,
  InvalidIdentifierError,
  isRetrysafeError,
  KeyReuseError,
  RetrysafeError,
  StoreUnavailableError,
  UnserializableResultError,
  type DurabilityConfigReason,
  type IdentifierField,
  type RetrysafeErrorCode,
  type StoreOperation,
} from './errors.js';
export { fingerprint, findNonJson, recordFingerprint } from './fingerprint.js';
export { describeRecord, type ReconcileAnswer, type ReconcileContext, type RecordDescription, type RecordState } from './runtime/reconcile.js';
// What a store is to its user; writing one takes `@retrysafe/spec/stores/protocol`.
export type { AttemptError, DedupRecord, DedupStatus, DedupStore, RecordId, StoreInfo } from './stores/types.js';
// Telemetry: the span attribute and metric names (docs/runtime.md, Telemetry).
export type { TelemetryOptions } from './telemetry/otel.js';
export * from './telemetry/names.js';
