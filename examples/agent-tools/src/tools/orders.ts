import { defineTool } from '@retrysafe/spec';
import { z } from 'zod';

import type { Services } from '../services.js';

/** Read one order. No side effects: safe to retry. */
export function getOrderTool({ orders }: Services) {
  return defineTool({
    name: 'get_order',
    description: 'Look up an order by id',
    sideEffects: 'none',
    idempotent: true,
    retry: 'safe',
    maxAttempts: 3,
    input: z.object({ orderId: z.string().min(1) }),
    execute: ({ orderId }) => {
      const order = orders.get(orderId);
      return order ? { found: true as const, order: { ...order } } : { found: false as const };
    },
  });
}

/** Find a customer's orders. No side effects: safe to retry. */
export function searchOrdersTool({ orders }: Services) {
  return defineTool({
    name: 'search_orders',
    description: "Find a customer's orders by email",
    sideEffects: 'none',
    idempotent: true,
    retry: 'safe',
    maxAttempts: 3,
    input: z.object({ customerEmail: z.email() }),
    execute: ({ customerEmail }) => orders.search(customerEmail).map(({ orderId, status, totalCents }) => ({ orderId, status, totalCents })),
  });
}
