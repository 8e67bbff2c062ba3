import { defineTool } from '@retrysafe/spec';
import { z } from 'zod';

import type { Services } from '../services.js';

/** Set an order's status. Naturally idempotent: it writes an absolute value, so a repeat is harmless. */
export function setOrderStatusTool({ orders }: Services) {
  return defineTool({
    name: 'set_order_status',
    description: 'Set the status of an order',
    sideEffects: 'internal_write',
    idempotent: true,
    retry: 'safe',
    maxAttempts: 3,
    input: z.object({ orderId: z.string().min(1), status: z.enum(['placed', 'shipped', 'refunded', 'cancelled']) }),
    execute: ({ orderId, status }) => {
      const { notes: _notes, ...order } = orders.setStatus(orderId, status);
      return order;
    },
  });
}
