import { defineTool, key } from '@retrysafe/spec';
import { z } from 'zod';

import type { Services } from '../services.js';

/**
 * Email a customer about an order. Idempotent with a key: one email per run, order and template,
 * however often the agent repeats the call; the mailer dedupes by the same key.
 */
export function sendEmailTool({ mailer }: Services) {
  return defineTool({
    name: 'send_email',
    description: 'Email the customer of an order using one of the shop templates',
    sideEffects: 'message_out',
    idempotent: 'with_key',
    retry: 'safe_with_same_key',
    maxAttempts: 2,
    input: z.object({
      orderId: z.string().min(1),
      to: z.email(),
      template: z.enum(['refund_issued', 'order_shipped']),
    }),
    key: ({ run, input }) => key`${run.id}:${input.orderId}:email:${input.template}`,
    execute: async ({ to, template }, { key: idempotencyKey }) =>
      mailer.send(to, template.replace('_', ' '), `Template ${template}`, { 'Idempotency-Key': idempotencyKey }),
  });
}
