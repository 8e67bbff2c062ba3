import { type } from 'arktype';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  CONTRADICTIONS,
  defineTool,
  InputValidationError,
  InvalidKeyError,
  key,
  ToolPolicyError,
  validateInput,
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
