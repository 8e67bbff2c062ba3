import { defineTool, key } from '@retrysafe/spec';
import { z } from 'zod';

import type { Services } from '../services.js';

/**
 * Refund part of an order. Idempotent with a key: the key is the run id, the order id and the
 * action, so a transport retry, a loop retry, a resumed run and a redelivered task all carry the
 * same key, and the key goes to the payment provider too.
 */
export function issueRefundTool({ payments }: Services) {
  return defineTool({
    name: 'issue_refund',
    description: 'Refund part of an order to the original payment method',
    sideEffects: 'money_out',
    idempotent: 'with_key',
    retry: 'safe_with_same_key',
    maxAttempts: 3,
    input: z.object({ orderId: z.string().min(1), amountCents: z.number().int().positive() }),
    key: ({ run, input }) => key`${run.id}:${input.orderId}:refund`,
    execute: async ({ orderId, amountCents }, { key: idempotencyKey }) =>
      payments.refund(orderId, amountCents, { idempotencyKey }),
  });
}
