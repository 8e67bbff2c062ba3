import { tool as langchainTool } from '@langchain/core/tools';
import { tool as openAiAgentsTool } from '@openai/agents';
import { tool as aiSdkTool } from 'ai';
import { type } from 'arktype';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  CONTRADICTIONS,
  declarePolicy,
  defineTool,
  InputValidationError,
  InvalidKeyError,
  key,
  MAX_KEY_LENGTH,
  policyOf,
  ToolPolicyError,
  validateInput,
  vouchDurable,
  type AnyTool,
} from '../src/index.js';
import { runContextForTests } from '../src/testing-types.js';

const run = runContextForTests('run-1');
const refunds: string[] = [];

const issueRefund = defineTool({
  name: 'issue_refund',
  description: 'Refund part of an order',
  sideEffects: 'money_out',
  idempotent: 'with_key',
  retry: 'safe_with_same_key',
  maxAttempts: 1,
  input: z.object({ orderId: z.string(), amountCents: z.number().int().positive() }),
  key: ({ run, input }) => key`${run.id}:${input.orderId}:refund`,
  execute: async ({ orderId, amountCents }, { key }) => {
    refunds.push(key);
    return { refundId: `re_${orderId}`, amountCents };
  },
});

const searchOrders = defineTool({
  name: 'search_orders',
  sideEffects: 'none',
  idempotent: true,
  retry: 'safe',
  input: z.object({ query: z.string() }),
  execute: ({ query }) => [query],
});

// Plain JavaScript callers get no compile-time check; this is how they reach defineTool.
const defineUntyped = defineTool as unknown as (declaration: Record<string, unknown>) => AnyTool;
const declareUntyped = declarePolicy as unknown as (tool: object, policy: Record<string, unknown>) => object;

describe('tool.policy', () => {
  it('is the seed shape, snake_case', () => {
    expect(issueRefund.policy).toEqual({
      side_effects: 'money_out',
      idempotent: 'with_key',
      retry: 'safe_with_same_key',
      max_attempts: 1,
    });
  });

  it('is JSON-serialisable and round-trips unchanged', () => {
    expect(JSON.parse(JSON.stringify(issueRefund.policy))).toEqual(issueRefund.policy);
    expect(JSON.stringify(searchOrders.policy)).toBe(
      '{"side_effects":"none","idempotent":true,"retry":"safe","max_attempts":3}',
    );
  });

  it('defaults max_attempts to 3 for retryable tools and 1 for retry: never', () => {
    expect(searchOrders.policy.max_attempts).toBe(3);
    const sendEmail = defineTool({
      name: 'send_email',
      sideEffects: 'message_out',
      idempotent: false,
      retry: 'never',
      input: z.object({ to: z.string() }),
      execute: async () => ({ sent: true }),
    });
    expect(sendEmail.policy).toEqual({ side_effects: 'message_out', idempotent: false, retry: 'never', max_attempts: 1 });
  });

  it('is frozen, and so is the tool', () => {
    expect(Object.isFrozen(issueRefund.policy)).toBe(true);
    expect(Object.isFrozen(issueRefund)).toBe(true);
  });

  it('leaves the tool a plain object with the documented keys', () => {
    expect(Object.keys(issueRefund).sort()).toEqual(['deriveKey', 'description', 'execute', 'input', 'name', 'policy']);
    expect(Object.keys(searchOrders).sort()).toEqual(['description', 'execute', 'input', 'name', 'policy']);
  });
});

describe('deriveKey and execute', () => {
  it('derives the same key on every attempt of the same work', () => {
    const input = { orderId: 'o-1', amountCents: 500 };
    expect(issueRefund.deriveKey(input, run)).toBe('run-1:o-1:refund');
    expect(issueRefund.deriveKey(input, run)).toBe(issueRefund.deriveKey({ ...input }, runContextForTests('run-1')));
  });

  it('passes ctx.key through to execute', async () => {
    const input = { orderId: 'o-2', amountCents: 100 };
    const result = await issueRefund.execute(input, { run, key: issueRefund.deriveKey(input, run) });
    expect(result).toEqual({ refundId: 're_o-2', amountCents: 100 });
    expect(refunds.at(-1)).toBe('run-1:o-2:refund');
  });

  it('always returns a promise, also for a synchronous execute', async () => {
    const pending = searchOrders.execute({ query: 'q' }, { run });
    expect(pending).toBeInstanceOf(Promise);
    await expect(pending).resolves.toEqual(['q']);
  });

  it('refuses to run a with_key tool without a key', async () => {
    const execute = issueRefund.execute as (input: unknown, context: unknown) => Promise<unknown>;
    await expect(execute({ orderId: 'o', amountCents: 1 }, { run })).rejects.toThrow(/needs context\.key/);
  });

  it('checks the key a plain-JavaScript key function returns', () => {
    const tool = defineUntyped({
      name: 'create_ticket',
      sideEffects: 'internal_write',
      idempotent: 'with_key',
      retry: 'safe_with_same_key',
      input: z.object({ title: z.string() }),
      key: () => '',
      execute: async () => undefined,
    });
    expect(() => tool.deriveKey?.({ title: 't' }, run)).toThrow(InvalidKeyError);
  });
});

describe('validateInput', () => {
  const cases = [
    ['zod', z.object({ orderId: z.string(), amountCents: z.number() })],
    ['valibot', v.object({ orderId: v.string(), amountCents: v.number() })],
    ['arktype', type({ orderId: 'string', amountCents: 'number' })],
  ] as const;

  for (const [library, schema] of cases) {
    describe(library, () => {
      const tool = defineTool({
        name: 'issue_refund',
        sideEffects: 'money_out',
        idempotent: 'with_key',
        retry: 'safe_with_same_key',
        input: schema,
        key: ({ run, input }) => key`${run.id}:${input.orderId}:refund`,
        execute: async () => undefined,
      });

      it('returns the validated input', async () => {
        await expect(validateInput(tool, { orderId: 'o-1', amountCents: 5 })).resolves.toEqual({
          orderId: 'o-1',
          amountCents: 5,
        });
      });

      it('throws InputValidationError listing every issue with its path', async () => {
        const error = await validateInput(tool, { orderId: 7 }).catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(InputValidationError);
        const { message, issues, tool: toolName } = error as InputValidationError;
        expect(toolName).toBe('issue_refund');
        expect(issues.length).toBeGreaterThanOrEqual(2);
        expect(message).toMatch(/^Invalid input for tool "issue_refund" \(\d+ issues\):/);
        expect(message).toMatch(/\n {2}- orderId: /);
        expect(message).toMatch(/\n {2}- amountCents: /);
      });
    });
  }

  it('returns the schema output, transforms applied', async () => {
    const tool = defineTool({
      name: 'search_orders',
      sideEffects: 'none',
      idempotent: true,
      retry: 'safe',
      input: z.object({ limit: z.string().transform(Number) }),
      execute: async ({ limit }) => limit,
    });
    await expect(validateInput(tool, { limit: '10' })).resolves.toEqual({ limit: 10 });
  });

  it('formats array indices in issue paths', async () => {
    const tool = defineTool({
      name: 'bulk_refund',
      sideEffects: 'money_out',
      idempotent: false,
      retry: 'never',
      input: z.object({ lines: z.array(z.object({ sku: z.string() })) }),
      execute: async () => undefined,
    });
    await expect(validateInput(tool, { lines: [{ sku: 'a' }, { sku: 1 }] })).rejects.toThrow(/- lines\[1\]\.sku: /);
  });
});

describe('defineTool at runtime (plain JavaScript)', () => {
  const base = {
    name: 'send_email',
    input: z.object({ to: z.string() }),
    execute: async () => undefined,
  };
  const contradictions: [string, Record<string, unknown>, string][] = [
    ['with_key without key', { sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key' }, CONTRADICTIONS.keyRequired],
    ['false with retry safe', { sideEffects: 'message_out', idempotent: false, retry: 'safe', maxAttempts: 3 }, CONTRADICTIONS.notRepeatableRetried],
    ['with_key with retry safe', { sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe', key: () => 'k' }, CONTRADICTIONS.keyedRetrySafe],
    ['none with false', { sideEffects: 'none', idempotent: false, retry: 'never' }, CONTRADICTIONS.noSideEffectsNotRepeatable],
    ['key on true', { sideEffects: 'none', idempotent: true, retry: 'safe', key: () => 'k' }, CONTRADICTIONS.keyOnNaturallyIdempotent],
    ['key on false', { sideEffects: 'money_out', idempotent: false, retry: 'never', key: () => 'k' }, CONTRADICTIONS.keyOnNotRepeatable],
    ['safe_with_same_key on true', { sideEffects: 'none', idempotent: true, retry: 'safe_with_same_key' }, CONTRADICTIONS.sameKeyWithoutKey],
    ['never with 3 attempts', { sideEffects: 'money_out', idempotent: false, retry: 'never', maxAttempts: 3 }, CONTRADICTIONS.neverRetriedMaxAttempts],
    ['0 attempts', { sideEffects: 'none', idempotent: true, retry: 'safe', maxAttempts: 0 }, CONTRADICTIONS.maxAttemptsNotPositiveInteger],
  ];

  for (const [label, fields, message] of contradictions) {
    it(`throws ToolPolicyError for ${label}`, () => {
      expect(() => defineUntyped({ ...base, ...fields })).toThrow(ToolPolicyError);
      expect(() => defineUntyped({ ...base, ...fields })).toThrow(message);
    });
  }

  it('names the tool and the value for a value outside the vocabulary', () => {
    expect(() => defineUntyped({ ...base, sideEffects: 'external', idempotent: false, retry: 'never' })).toThrow(
      `Retry policy of tool "send_email": side effects must be one of 'none', 'internal_write', 'external_write', 'money_out', 'message_out'; got 'external'.`,
    );
  });

  it('rejects an input that is not a Standard Schema', () => {
    expect(() =>
      defineUntyped({ ...base, input: { to: 'string' }, sideEffects: 'none', idempotent: true, retry: 'safe' }),
    ).toThrow(/input must be a Standard Schema v1/);
  });
});

describe('declarePolicy and policyOf', () => {
  it('policyOf reads a defineTool policy', () => {
    expect(policyOf(issueRefund)).toBe(issueRefund.policy);
  });

  it('attaches a policy to an AI SDK tool without changing its keys', () => {
    const lookup = aiSdkTool({
      description: 'Look up an order',
      inputSchema: z.object({ orderId: z.string() }),
      execute: async ({ orderId }) => ({ orderId }),
    });
    const keysBefore = Object.keys(lookup);
    expect(declarePolicy(lookup, { side_effects: 'none', idempotent: true, retry: 'safe' })).toBe(lookup);
    expect(Object.keys(lookup)).toEqual(keysBefore);
    expect(policyOf(lookup)).toEqual({ side_effects: 'none', idempotent: true, retry: 'safe', max_attempts: 3 });
  });

  it('works for OpenAI Agents tools', () => {
    const refund = openAiAgentsTool({
      name: 'issue_refund',
      description: 'Refund',
      parameters: z.object({ orderId: z.string() }),
      execute: async () => 'ok',
    });
    declarePolicy(refund, { side_effects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', max_attempts: 1 });
    expect(policyOf(refund)?.max_attempts).toBe(1);
  });

  it("reads a LangChain tool's metadata.retrysafe, and declarePolicy works there too", () => {
    const fromMetadata = langchainTool(async () => 'ok', {
      name: 'send_email',
      description: 'Send',
      schema: z.object({ to: z.string() }),
      metadata: { retrysafe: { side_effects: 'message_out', idempotent: false, retry: 'never' } },
    });
    expect(policyOf(fromMetadata)).toEqual({ side_effects: 'message_out', idempotent: false, retry: 'never', max_attempts: 1 });
    const declared = declarePolicy(
      langchainTool(async () => 'ok', { name: 'get_order', description: 'Get', schema: z.object({ id: z.string() }) }),
      { side_effects: 'none', idempotent: true, retry: 'safe' },
    );
    expect(policyOf(declared)?.retry).toBe('safe');
  });

  it('rejects a contradictory LangChain metadata policy', () => {
    const contradictory = langchainTool(async () => 'ok', {
      name: 'send_email',
      description: 'Send',
      schema: z.object({ to: z.string() }),
      metadata: { retrysafe: { side_effects: 'message_out', idempotent: false, retry: 'safe' } },
    });
    expect(() => policyOf(contradictory)).toThrow(CONTRADICTIONS.notRepeatableRetried);
  });

  it('works on frozen objects (kept aside in a WeakMap)', () => {
    const frozen = Object.freeze({ name: 'get_order' });
    declarePolicy(frozen, { side_effects: 'none', idempotent: true, retry: 'safe' });
    expect(policyOf(frozen)?.idempotent).toBe(true);
  });

  it('returns undefined for a tool without a policy', () => {
    expect(policyOf({ name: 'x' })).toBeUndefined();
    expect(policyOf(undefined)).toBeUndefined();
  });

  it('validates at runtime for plain JavaScript', () => {
    expect(() =>
      declareUntyped({ name: 'send_email' }, { side_effects: 'message_out', idempotent: false, retry: 'safe' }),
    ).toThrow(`Retry policy of tool "send_email": ${CONTRADICTIONS.notRepeatableRetried}.`);
    expect(() => declareUntyped({ name: 'x' }, { side_effects: 'none', idempotent: 'yes', retry: 'safe' })).toThrow(
      ToolPolicyError,
    );
  });

  it('accepts the same policy twice but not a different one', () => {
    const target = { name: 'get_order' };
    declarePolicy(target, { side_effects: 'none', idempotent: true, retry: 'safe' });
    expect(() => declarePolicy(target, { side_effects: 'none', idempotent: true, retry: 'safe' })).not.toThrow();
    expect(() => declarePolicy(target, { side_effects: 'none', idempotent: true, retry: 'never' })).toThrow(
      /already declares/,
    );
    expect(() => declarePolicy(issueRefund, { side_effects: 'none', idempotent: true, retry: 'safe' })).toThrow(
      /already declares/,
    );
  });
});

describe('key`...` at runtime', () => {
  it('joins literal text and parts', () => {
    expect(key`${run.id}:${vouchDurable('o-1')}:${vouchDurable(3)}:refund`).toBe('run-1:o-1:3:refund');
  });

  it('rejects an empty key', () => {
    const empty = vouchDurable('');
    expect(() => key`${empty}`).toThrow(InvalidKeyError);
    expect(() => key``).toThrow(/Idempotency key is empty/);
  });

  it(`accepts ${MAX_KEY_LENGTH} characters and rejects ${MAX_KEY_LENGTH + 1} (Stripe's limit)`, () => {
    expect(key`${vouchDurable('a'.repeat(MAX_KEY_LENGTH))}`).toHaveLength(255);
    const error = (() => {
      try {
        key`${vouchDurable('a'.repeat(MAX_KEY_LENGTH + 1))}`;
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(InvalidKeyError);
    expect(error).toMatchObject({ name: 'InvalidKeyError', reason: 'too_long' });
    expect((error as Error).message).toMatch(/256 characters long; the limit is 255/);
  });

  it('rejects parts that are not strings or finite numbers (plain JavaScript)', () => {
    const untypedKey = key as unknown as (literals: TemplateStringsArray, ...parts: unknown[]) => string;
    expect(() => untypedKey`${{ id: 1 }}`).toThrow(/part 1 is an object/);
    expect(() => untypedKey`a:${Number.NaN}`).toThrow(InvalidKeyError);
    expect(() => untypedKey`a:${undefined}`).toThrow(/part 1 is undefined/);
  });

  it('vouchDurable rejects non-primitives at runtime', () => {
    const untypedVouch = vouchDurable as unknown as (value: unknown) => unknown;
    expect(() => untypedVouch(new Date())).toThrow(TypeError);
    expect(untypedVouch('row-1')).toBe('row-1');
  });
});
