// Every contradictory declaration is a compile error on the offending property. The error text
// names the contradiction (`Contradiction<"...">`); tests/type-messages.test.ts checks the texts.
import { describe, test } from 'vitest';
import { z } from 'zod';
import { defineTool, key, type DeterministicKey } from '../src/index.js';

const input = z.object({ orderId: z.string(), amountCents: z.number() });
declare const downstream: { refund(orderId: string, options: { idempotencyKey: DeterministicKey }): Promise<void> };

describe('contradictory declarations', () => {
  test("(1) idempotent: 'with_key' without a key", () => {
    defineTool({
      name: 'issue_refund',
      sideEffects: 'money_out',
      // @ts-expect-error -- Contradiction: keyRequired
      idempotent: 'with_key',
      retry: 'safe_with_same_key',
      input,
      execute: async ({ orderId }, { key }) => downstream.refund(orderId, { idempotencyKey: key }),
    });
  });

  test("(2) idempotent: false with retry: 'safe' or 'safe_with_same_key'", () => {
    defineTool({
      name: 'increment_balance',
      sideEffects: 'internal_write',
      idempotent: false,
      // @ts-expect-error -- Contradiction: notRepeatableRetried
      retry: 'safe',
      input,
      execute: async () => undefined,
    });
    defineTool({
      name: 'append_note',
      sideEffects: 'internal_write',
      idempotent: false,
      // @ts-expect-error -- Contradiction: notRepeatableRetried
      retry: 'safe_with_same_key',
      input,
      execute: async () => undefined,
    });
  });

  test("(3) retry: 'safe' on a with_key tool", () => {
    defineTool({
      name: 'issue_refund',
      sideEffects: 'money_out',
      idempotent: 'with_key',
      // @ts-expect-error -- Contradiction: keyedRetrySafe
      retry: 'safe',
      input,
      key: ({ run, input }) => key`${run.id}:${input.orderId}:refund`,
      execute: async () => undefined,
    });
  });

  test("(4) sideEffects: 'none' with idempotent: false", () => {
    defineTool({
      name: 'get_order',
      sideEffects: 'none',
      // @ts-expect-error -- Contradiction: noSideEffectsNotRepeatable
      idempotent: false,
      retry: 'never',
      input,
      execute: async () => undefined,
    });
  });

  test('(5) a key on a naturally idempotent tool', () => {
    defineTool({
      name: 'set_status',
      sideEffects: 'internal_write',
      idempotent: true,
      retry: 'safe',
      input,
      // @ts-expect-error -- Contradiction: keyOnNaturallyIdempotent
      key: ({ run, input }) => key`${run.id}:${input.orderId}:status`,
      execute: async () => undefined,
    });
  });

  test('(5) a key on a not safely repeatable tool', () => {
    defineTool({
      name: 'send_sms',
      sideEffects: 'message_out',
      idempotent: false,
      retry: 'never',
      input,
      // @ts-expect-error -- Contradiction: keyOnNotRepeatable
      key: ({ run, input }) => key`${run.id}:${input.orderId}:sms`,
      execute: async () => undefined,
    });
  });

  test("(6) retry: 'safe_with_same_key' on a naturally idempotent tool", () => {
    defineTool({
      name: 'search_orders',
      sideEffects: 'none',
      idempotent: true,
      // @ts-expect-error -- Contradiction: sameKeyWithoutKey
      retry: 'safe_with_same_key',
      input,
      execute: async () => undefined,
    });
  });

  test("(7) maxAttempts other than 1 with retry: 'never'", () => {
    defineTool({
      name: 'send_email',
      sideEffects: 'message_out',
      idempotent: false,
      retry: 'never',
      // @ts-expect-error -- Contradiction: neverRetriedMaxAttempts
      maxAttempts: 3,
      input,
      execute: async () => undefined,
    });
  });

  test('(8) maxAttempts that is not a positive integer', () => {
    defineTool({
      name: 'search_orders',
      sideEffects: 'none',
      idempotent: true,
      retry: 'safe',
      // @ts-expect-error -- Contradiction: maxAttemptsNotPositiveInteger
      maxAttempts: 0,
      input,
      execute: async () => undefined,
    });
    defineTool({
      name: 'search_orders',
      sideEffects: 'none',
      idempotent: true,
      retry: 'safe',
      // @ts-expect-error -- Contradiction: maxAttemptsNotPositiveInteger
      maxAttempts: 2.5,
      input,
      execute: async () => undefined,
    });
  });
});

describe('keys and execute that ignore the types', () => {
  test('a key function that returns a plain string', () => {
    defineTool({
      name: 'issue_refund',
      sideEffects: 'money_out',
      idempotent: 'with_key',
      retry: 'safe_with_same_key',
      input,
      // @ts-expect-error -- a template string is not a DeterministicKey
      key: ({ run, input }) => `${run.id}:${input.orderId}:refund`,
      execute: async () => undefined,
    });
  });

  test('a key built from a non-durable value', () => {
    defineTool({
      name: 'issue_refund',
      sideEffects: 'money_out',
      idempotent: 'with_key',
      retry: 'safe_with_same_key',
      input,
      // @ts-expect-error -- NotDurableKeyPart: Date.now() differs on the retry
      key: ({ run }) => key`${run.id}:${Date.now()}:refund`,
      execute: async () => undefined,
    });
  });

  test('execute annotated with an input type the schema does not produce', () => {
    defineTool({
      name: 'issue_refund',
      sideEffects: 'money_out',
      idempotent: 'with_key',
      retry: 'safe_with_same_key',
      input,
      key: ({ run, input }) => key`${run.id}:${input.orderId}:refund`,
      // @ts-expect-error -- orderId is a string in the schema
      execute: async (args: { orderId: number }) => args.orderId,
    });
  });

  test('execute passing a plain string downstream instead of ctx.key', () => {
    defineTool({
      name: 'issue_refund',
      sideEffects: 'money_out',
      idempotent: 'with_key',
      retry: 'safe_with_same_key',
      input,
      key: ({ run, input }) => key`${run.id}:${input.orderId}:refund`,
      execute: async ({ orderId }, { key }) =>
        // @ts-expect-error -- a string built from the key is no longer a DeterministicKey
        downstream.refund(orderId, { idempotencyKey: `${key}-retry` }),
    });
  });

  test('ctx.key on a tool without a key', () => {
    defineTool({
      name: 'search_orders',
      sideEffects: 'none',
      idempotent: true,
      retry: 'safe',
      input,
      // @ts-expect-error -- only with_key tools get a key
      execute: async (_args, { key }) => key,
    });
  });

  test('a misspelt property', () => {
    defineTool({
      name: 'search_orders',
      sideEffects: 'none',
      idempotent: true,
      retry: 'safe',
      // @ts-expect-error -- `retries` is not a declaration property
      retries: 3,
      input,
      execute: async () => undefined,
    });
  });

  test('a value outside the vocabulary', () => {
    defineTool({
      name: 'send_email',
      // @ts-expect-error -- B13's 'external' is not a side-effects value
      sideEffects: 'external',
      idempotent: false,
      retry: 'never',
      input,
      execute: async () => undefined,
    });
  });

  test('an input that is not a Standard Schema', () => {
    defineTool({
      name: 'search_orders',
      sideEffects: 'none',
      idempotent: true,
      retry: 'safe',
      // @ts-expect-error -- a plain object type is not a schema
      input: { orderId: 'string' },
      execute: async () => undefined,
    });
  });
});
