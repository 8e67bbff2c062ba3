import { tool as aiTool } from 'ai';
import { describe, expectTypeOf, test } from 'vitest';
import { z } from 'zod';
import { declarePolicy, defineTool, policyOf, type ToolPolicy } from '../src/index.js';

const lookupOrder = aiTool({
  description: 'Look up an order',
  inputSchema: z.object({ orderId: z.string() }),
  execute: async ({ orderId }) => ({ orderId, status: 'shipped' }),
});

describe('declarePolicy', () => {
  test('returns the framework tool typed as before', () => {
    const declared = declarePolicy(lookupOrder, { side_effects: 'none', idempotent: true, retry: 'safe' });
    expectTypeOf(declared).toEqualTypeOf<typeof lookupOrder>();
  });

  test('accepts the seed shape, with or without max_attempts', () => {
    declarePolicy({ name: 'issue_refund' }, {
      side_effects: 'money_out',
      idempotent: 'with_key',
      retry: 'safe_with_same_key',
      max_attempts: 1,
    });
    declarePolicy({ name: 'send_email' }, { side_effects: 'message_out', idempotent: false, retry: 'never' });
  });

  test('accepts a policy held in a ToolPolicy variable (checked at runtime)', () => {
    const policy: ToolPolicy = { side_effects: 'none', idempotent: true, retry: 'safe', max_attempts: 3 };
    declarePolicy({ name: 'search_orders' }, policy);
  });

  test('rejects contradictions with the same named errors as defineTool', () => {
    declarePolicy({ name: 'send_email' }, {
      side_effects: 'message_out',
      idempotent: false,
      // @ts-expect-error -- Contradiction: notRepeatableRetried
      retry: 'safe',
    });
    declarePolicy({ name: 'issue_refund' }, {
      side_effects: 'money_out',
      idempotent: 'with_key',
      // @ts-expect-error -- Contradiction: keyedRetrySafe
      retry: 'safe',
    });
    declarePolicy({ name: 'get_order' }, {
      side_effects: 'none',
      // @ts-expect-error -- Contradiction: noSideEffectsNotRepeatable
      idempotent: false,
      retry: 'never',
    });
    declarePolicy({ name: 'search_orders' }, {
      side_effects: 'none',
      idempotent: true,
      // @ts-expect-error -- Contradiction: sameKeyWithoutKey
      retry: 'safe_with_same_key',
    });
    declarePolicy({ name: 'send_email' }, {
      side_effects: 'message_out',
      idempotent: false,
      retry: 'never',
      // @ts-expect-error -- Contradiction: neverRetriedMaxAttempts
      max_attempts: 2,
    });
  });

  test('rejects camelCase field names: the policy is data in the seed shape', () => {
    declarePolicy({ name: 'search_orders' }, {
      // @ts-expect-error -- sideEffects belongs to defineTool; policies are snake_case
      sideEffects: 'none',
      idempotent: true,
      retry: 'safe',
    });
  });
});

describe('policyOf', () => {
  test('returns a defineTool tool its own policy type', () => {
    const searchOrders = defineTool({
      name: 'search_orders',
      sideEffects: 'none',
      idempotent: true,
      retry: 'safe',
      input: z.object({ query: z.string() }),
      execute: async ({ query }) => [query],
    });
    expectTypeOf(policyOf(searchOrders)).toEqualTypeOf(searchOrders.policy);
  });

  test('returns ToolPolicy | undefined for anything else', () => {
    expectTypeOf(policyOf(lookupOrder)).toEqualTypeOf<ToolPolicy | undefined>();
  });
});
