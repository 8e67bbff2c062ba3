import { type } from 'arktype';
import * as v from 'valibot';
import { describe, expectTypeOf, test } from 'vitest';
import { z } from 'zod';
import {
  defineTool,
  key,
  validateInput,
  type AnyKeyedTool,
  type AnyTool,
  type DeterministicKey,
  type Durable,
  type DurableInput,
  type ExecuteContext,
  type KeyedExecuteContext,
  type RunContext,
} from '../src/index.js';

declare const payments: {
  refund(orderId: string, amountCents: number, options: { idempotencyKey: DeterministicKey }): Promise<{ refundId: string }>;
};

// ARCHITECTURE.md's example, verbatim apart from `payments`.
const issueRefund = defineTool({
  name: 'issue_refund',
  description: 'Refund part of an order',
  sideEffects: 'money_out',
  idempotent: 'with_key',
  retry: 'safe_with_same_key',
  maxAttempts: 1,
  input: z.object({ orderId: z.string(), amountCents: z.number().int().positive() }),
  key: ({ run, input }) => key`${run.id}:${input.orderId}:refund`,
  execute: async ({ orderId, amountCents }, { key }) => payments.refund(orderId, amountCents, { idempotencyKey: key }),
});

const searchOrders = defineTool({
  name: 'search_orders',
  sideEffects: 'none',
  idempotent: true,
  retry: 'safe',
  input: z.object({ query: z.string() }),
  execute: async ({ query }) => [{ orderId: query }],
});

describe('defineTool with zod 4', () => {
  test('infers execute input from the schema output, key input as DurableInput', () => {
    defineTool({
      name: 'issue_refund',
      sideEffects: 'money_out',
      idempotent: 'with_key',
      retry: 'safe_with_same_key',
      input: z.object({ orderId: z.string(), cents: z.string().transform(Number) }),
      key: ({ run, input }) => {
        expectTypeOf(run).toEqualTypeOf<RunContext>();
        expectTypeOf(input).toEqualTypeOf<DurableInput<{ orderId: string; cents: number }>>();
        expectTypeOf(input.cents).toEqualTypeOf<Durable<number>>();
        return key`${run.id}:${input.orderId}:${input.cents}:refund`;
      },
      execute: (input, context) => {
        expectTypeOf(input).toEqualTypeOf<{ orderId: string; cents: number }>();
        expectTypeOf(context).toEqualTypeOf<KeyedExecuteContext>();
        expectTypeOf(context.key).toEqualTypeOf<DeterministicKey>();
        return input.cents;
      },
    });
  });

  test('the Tool keeps the policy literals and the result type', () => {
    expectTypeOf(issueRefund.policy).toEqualTypeOf<{
      readonly side_effects: 'money_out';
      readonly idempotent: 'with_key';
      readonly retry: 'safe_with_same_key';
      readonly max_attempts: number;
    }>();
    expectTypeOf(issueRefund.execute).returns.resolves.toEqualTypeOf<{ refundId: string }>();
    expectTypeOf(issueRefund.deriveKey).parameters.toEqualTypeOf<
      [input: { orderId: string; amountCents: number }, run: RunContext]
    >();
    expectTypeOf(issueRefund.deriveKey).returns.toEqualTypeOf<DeterministicKey>();
    expectTypeOf(issueRefund.description).toEqualTypeOf<string | undefined>();
  });

  test('an unkeyed tool has no deriveKey and no ctx.key', () => {
    expectTypeOf(searchOrders.deriveKey).toEqualTypeOf<undefined>();
    expectTypeOf(searchOrders.execute).parameter(1).toEqualTypeOf<ExecuteContext>();
    expectTypeOf(searchOrders.policy.max_attempts).toEqualTypeOf<number>();
  });

  test('retry: never gives max_attempts 1 in the type', () => {
    const sendEmail = defineTool({
      name: 'send_email',
      sideEffects: 'message_out',
      idempotent: false,
      retry: 'never',
      input: z.object({ to: z.email() }),
      execute: async ({ to }) => ({ sent: to }),
    });
    expectTypeOf(sendEmail.policy.max_attempts).toEqualTypeOf<1>();
  });
});

describe('defineTool with valibot and arktype', () => {
  test('valibot: execute input is the schema output', () => {
    const tool = defineTool({
      name: 'create_ticket',
      sideEffects: 'internal_write',
      idempotent: 'with_key',
      retry: 'safe_with_same_key',
      input: v.object({ title: v.string(), priority: v.pipe(v.string(), v.transform((s) => s.length)) }),
      key: ({ run, input }) => key`${run.id}:${input.title}:${input.priority}:ticket`,
      execute: async (input, { key }) => {
        expectTypeOf(input).toEqualTypeOf<{ title: string; priority: number }>();
        return { ticketId: key };
      },
    });
    expectTypeOf(tool.execute).returns.resolves.toEqualTypeOf<{ ticketId: DeterministicKey }>();
  });

  test('arktype: execute input is the schema output', () => {
    const tool = defineTool({
      name: 'set_status',
      sideEffects: 'internal_write',
      idempotent: true,
      retry: 'safe',
      maxAttempts: 5,
      input: type({ orderId: 'string', status: "'shipped' | 'cancelled'" }),
      execute: (input) => {
        expectTypeOf(input).toEqualTypeOf<{ orderId: string; status: 'shipped' | 'cancelled' }>();
        return input.status;
      },
    });
    expectTypeOf(tool.policy.retry).toEqualTypeOf<'safe'>();
  });

  test('arktype: key input is durable leaf by leaf', () => {
    defineTool({
      name: 'charge_card',
      sideEffects: 'money_out',
      idempotent: 'with_key',
      retry: 'never',
      input: type({ invoiceId: 'string', cents: 'number' }),
      key: ({ run, input }) => {
        expectTypeOf(input.invoiceId).toEqualTypeOf<Durable<string>>();
        return key`${run.id}:${input.invoiceId}:${input.cents}:charge`;
      },
      execute: async (_input, { key }) => key,
    });
  });
});

describe('AnyTool', () => {
  test('accepts every tool; deriveKey narrows to AnyKeyedTool', () => {
    expectTypeOf(issueRefund).toExtend<AnyTool>();
    expectTypeOf(searchOrders).toExtend<AnyTool>();
    expectTypeOf(issueRefund).toExtend<AnyKeyedTool>();
    expectTypeOf(searchOrders).not.toExtend<AnyKeyedTool>();
    const tools: AnyTool[] = [issueRefund, searchOrders];
    for (const tool of tools) {
      if (tool.deriveKey) expectTypeOf(tool).toExtend<AnyKeyedTool>();
      else expectTypeOf(tool.execute).parameter(1).toEqualTypeOf<ExecuteContext>();
    }
  });

  test('validateInput resolves to the schema output', () => {
    expectTypeOf(validateInput(issueRefund, {})).resolves.toEqualTypeOf<{ orderId: string; amountCents: number }>();
  });
});

describe('reconcile (issue 13: indeterminate outcomes)', () => {
  test("takes the tool's input and answers with execute's result type", () => {
    const charge = defineTool({
      name: 'charge_order',
      sideEffects: 'money_out',
      idempotent: 'with_key',
      retry: 'safe_with_same_key',
      maxAttempts: 2,
      input: z.object({ orderId: z.string() }),
      key: ({ run, input }) => key`${run.id}:${input.orderId}:charge`,
      execute: async ({ orderId }) => ({ chargeId: `ch_${orderId}` }),
      reconcile: async (input, context) => {
        expectTypeOf(input).toEqualTypeOf<{ orderId: string }>();
        expectTypeOf(context.key).toEqualTypeOf<DeterministicKey>();
        expectTypeOf(context.attempt).toEqualTypeOf<number>();
        return { status: 'done', result: { chargeId: 'ch_1' } };
      },
    });
    expectTypeOf(charge).toExtend<AnyKeyedTool>();
    expectTypeOf(charge).toExtend<AnyTool>();
  });

  test('a done answer whose result is not what execute returns does not compile', () => {
    defineTool({
      name: 'charge_order',
      sideEffects: 'money_out',
      idempotent: 'with_key',
      retry: 'safe_with_same_key',
      input: z.object({ orderId: z.string() }),
      key: ({ run, input }) => key`${run.id}:${input.orderId}:charge`,
      execute: async ({ orderId }) => ({ chargeId: `ch_${orderId}` }),
      // @ts-expect-error -- the result must be execute's type, { chargeId: string }
      reconcile: async () => ({ status: 'done', result: { refundId: 1 } }),
    });
  });
});
