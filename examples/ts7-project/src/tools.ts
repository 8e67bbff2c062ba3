import { defineTool, key } from '@retrysafe/spec';
import { z } from 'zod';

import type { OrderKey } from './keys.js';

const input = z.object({ orderId: z.string(), amountCents: z.number().int().positive() });

/** The same key on every attempt: the run id, the order and the action. */
export const issueRefund = defineTool({
  name: 'issue_refund',
  description: 'Refund part of an order',
  sideEffects: 'money_out',
  idempotent: 'with_key',
  retry: 'safe_with_same_key',
  maxAttempts: 1,
  input,
  key: ({ run, input }) => key`${run.id}:${input.orderId}:refund`,
  execute: async ({ orderId, amountCents }, { key }) => ({ orderId, amountCents, idempotencyKey: key }),
});

/** The clock in the key: a retry a moment later gets a new key (ESLint and tsc both say so). */
export const chargeOrder = defineTool({
  name: 'charge_order',
  description: 'Charge an order',
  sideEffects: 'money_out',
  idempotent: 'with_key',
  retry: 'safe_with_same_key',
  maxAttempts: 1,
  input,
  key: ({ input }) => key`${input.orderId}:${Date.now()}:charge`,
  execute: async ({ orderId, amountCents }, { key }) => ({ orderId, amountCents, idempotencyKey: key }),
});

/** A cast to an alias declared in another file forges the brand: only the type-aware rule sees it. */
export function legacyKey(orderId: string): OrderKey {
  return `${orderId}:legacy` as OrderKey;
}
