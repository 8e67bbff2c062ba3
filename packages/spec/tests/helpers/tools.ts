/** The tools the runtime tests call, one per idempotency class, over a fake provider. */
import { z } from 'zod';
import { vouchDurable } from '../../src/durable.js';
import { key } from '../../src/key.js';
import type { RunContext } from '../../src/run.js';
import { defineTool } from '../../src/tool.js';
import type { FakeProvider } from './provider.js';

let runs = 0;
/** A run with an id no other test uses. */
export const freshRun = (label = 'run'): RunContext => ({ id: vouchDurable(`${label}_${(runs += 1)}_${Math.random().toString(36).slice(2, 8)}`) });

/** issue_refund from the seed: with_key, money out, key scoped to the run and the order. */
export function refundTool(provider: Pick<FakeProvider, 'refund'>, maxAttempts = 3) {
  return defineTool({
    name: 'issue_refund',
    description: 'Refund part of an order',
    sideEffects: 'money_out',
    idempotent: 'with_key',
    retry: 'safe_with_same_key',
    maxAttempts,
    input: z.object({ orderId: z.string(), amountCents: z.number().int().positive() }),
    key: ({ run, input }) => key`${run.id}:${input.orderId}:refund`,
    execute: async ({ orderId, amountCents }, { key: idempotencyKey }) => provider.refund(orderId, amountCents, idempotencyKey),
  });
}

/** A with_key tool whose key is whatever the input says, to test bad keys. */
export function rawKeyTool(effects: { count: number }) {
  return defineTool({
    name: 'create_ticket',
    sideEffects: 'internal_write',
    idempotent: 'with_key',
    retry: 'safe_with_same_key',
    input: z.object({ ticketKey: z.string() }),
    key: ({ input }) => key`${input.ticketKey}`,
    execute: async () => {
      effects.count += 1;
      return { ticket: effects.count };
    },
  });
}

/** A with_key tool that returns something JSON cannot hold. */
export function dateResultTool(effects: { count: number }) {
  return defineTool({
    name: 'schedule_call',
    sideEffects: 'external_write',
    idempotent: 'with_key',
    retry: 'safe_with_same_key',
    input: z.object({ customerId: z.string() }),
    key: ({ run, input }) => key`${run.id}:${input.customerId}:call`,
    execute: async () => {
      effects.count += 1;
      return { scheduledAt: new Date(0) };
    },
  });
}

/** Naturally idempotent: sets an absolute value. */
export function setStatusTool(state: Map<string, string>, writes: { count: number }) {
  return defineTool({
    name: 'set_status',
    sideEffects: 'internal_write',
    idempotent: true,
    retry: 'safe',
    input: z.object({ orderId: z.string(), status: z.enum(['open', 'shipped']) }),
    execute: async ({ orderId, status }) => {
      writes.count += 1;
      state.set(orderId, status);
      return { orderId, status };
    },
  });
}

/** Not safely repeatable: a relative write. */
export function incrementTool(balance: { cents: number }, failWith?: () => Error | undefined) {
  return defineTool({
    name: 'increment_balance',
    sideEffects: 'internal_write',
    idempotent: false,
    retry: 'never',
    input: z.object({ cents: z.number().int() }),
    execute: async ({ cents }) => {
      balance.cents += cents;
      const error = failWith?.();
      if (error) throw error;
      return { balanceCents: balance.cents };
    },
  });
}
