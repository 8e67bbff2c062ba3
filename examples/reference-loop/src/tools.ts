import { defineTool, key } from '@retrysafe/spec';
import { z } from 'zod';

import type { Services } from './services.js';

/** The three idempotency classes of the seed, one tool each. */
export function createTools({ payments, orders, loyalty }: Services) {
  return {
    /** Naturally idempotent: a read. Retried as it is. */
    searchOrders: defineTool({
      name: 'search_orders',
      description: "Find a customer's orders",
      sideEffects: 'none',
      idempotent: true,
      retry: 'safe',
      maxAttempts: 3,
      input: z.object({ customerEmail: z.string().email() }),
      execute: async ({ customerEmail }) => ({ orders: await orders.byCustomer(customerEmail) }),
    }),

    /** Idempotent with a key: retried with the same key, replayed once it completed. */
    issueRefund: defineTool({
      name: 'issue_refund',
      description: 'Refund part of an order',
      sideEffects: 'money_out',
      idempotent: 'with_key',
      retry: 'safe_with_same_key',
      maxAttempts: 3,
      input: z.object({ orderId: z.string().min(1), amountCents: z.number().int().positive() }),
      key: ({ run, input }) => key`${run.id}:${input.orderId}:refund`,
      execute: async ({ orderId, amountCents }, { key: idempotencyKey }) =>
        payments.refund(orderId, amountCents, { idempotencyKey }),
    }),

    /** Not safely repeatable: a relative write. Never retried automatically. */
    addLoyaltyPoints: defineTool({
      name: 'add_loyalty_points',
      description: "Add points to a customer's loyalty balance",
      sideEffects: 'internal_write',
      idempotent: false,
      retry: 'never',
      input: z.object({ customerEmail: z.string().email(), points: z.number().int().positive() }),
      execute: async ({ customerEmail, points }) => loyalty.add(customerEmail, points),
    }),
  };
}

/** The tools by the name the model calls them. */
export type Tools = ReturnType<typeof createTools>;
