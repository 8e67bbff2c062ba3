// Tools of the new-user trial (project-a, src/ai-tools.ts), shaped for the rule tests that check
// what the rules say of them.

/**
 * The trial's AI SDK refund tool: its handler takes `input` (destructured) and sends `key` as the
 * Stripe Idempotency-Key of a `fetch`; `imports` stands on line 3, then a blank line. The `fetch` is
 * on line 9 and the key on line 11 when `imports` is one line (one more per extra line).
 */
export function trialRefundTool(key: string, { input = 'orderId, amountCents', imports = "import { randomUUID } from 'node:crypto';\n" } = {}): string {
  return `import { tool } from 'ai';
import { z } from 'zod';
${imports}
export const issueRefund = tool({
  description: 'Refund an order',
  inputSchema: z.object({ orderId: z.string(), amountCents: z.number().int().positive() }),
  execute: async ({ ${input} }) => {
    const res = await fetch('https://api.stripe.com/v1/refunds', {
      method: 'POST',
      headers: { 'Idempotency-Key': ${key}, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ payment_intent: orderId, amount: String(amountCents) }),
    });
    return res.json();
  },
});`;
}
