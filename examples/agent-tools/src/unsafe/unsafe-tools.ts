// The unsafe variants of the example's tools: each is a way a repeated call turns into a second
// refund, a second email or a corrupted balance. `./scripts/demo.sh` shows ESLint and tsc catching
// them, and tests/editor-squiggles.test.ts shows the squiggles an editor puts on them; the safe
// versions live in ../tools/. This folder has its own tsconfig.json so that the example's project
// (and its `tsc`) leaves it out while typed linting still finds a project for it.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { defineTool, key, vouchDurable } from '@retrysafe/spec';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { z } from 'zod';

import { createServices } from '../services.js';
import type { OrderKey } from './keys.js';

const { payments, mailer } = createServices();

// A random key is a new key on every attempt: the retry refunds again.
export const issueRefundRandomKey = defineTool({
  name: 'issue_refund',
  sideEffects: 'money_out',
  idempotent: 'with_key',
  retry: 'safe_with_same_key',
  maxAttempts: 3,
  input: z.object({ orderId: z.string(), amountCents: z.number().int() }),
  key: () => key`${randomUUID()}`,
  execute: ({ orderId, amountCents }, { key: idempotencyKey }) => payments.refund(orderId, amountCents, { idempotencyKey }),
});

// The clock is per attempt too: a retry a millisecond later sends a second email.
export const sendEmailClockKey = defineTool({
  name: 'send_email',
  sideEffects: 'message_out',
  idempotent: 'with_key',
  retry: 'safe_with_same_key',
  maxAttempts: 2,
  input: z.object({ to: z.string(), subject: z.string() }),
  key: ({ input }) => key`${input.to}:${Date.now()}`,
  execute: ({ to, subject }, { key: idempotencyKey }) => mailer.send(to, subject, '', { 'Idempotency-Key': idempotencyKey }),
});

// Vouching for a random value compiles, but the lint rule sees through the escape hatch.
const attemptId = randomUUID();
export const refundVouched = defineTool({
  name: 'refund_vouched',
  sideEffects: 'money_out',
  idempotent: 'with_key',
  retry: 'safe_with_same_key',
  maxAttempts: 3,
  input: z.object({ orderId: z.string(), amountCents: z.number().int() }),
  key: ({ input }) => key`${input.orderId}:${vouchDurable(attemptId)}`,
  execute: ({ orderId, amountCents }, { key: idempotencyKey }) => payments.refund(orderId, amountCents, { idempotencyKey }),
});

// A key per worker: a queue redelivery to another worker refunds again. The cast silences tsc, and
// the alias hides the brand from the cast's text; the type-aware rule sees it.
export const refundPerWorker = defineTool({
  name: 'refund_per_worker',
  sideEffects: 'money_out',
  idempotent: 'with_key',
  retry: 'safe_with_same_key',
  maxAttempts: 3,
  input: z.object({ orderId: z.string(), amountCents: z.number().int() }),
  key: ({ input }) => `${hostname()}:${input.orderId}:refund` as OrderKey,
  execute: ({ orderId, amountCents }, { key: idempotencyKey }) => payments.refund(orderId, amountCents, { idempotencyKey }),
});

// A relative write is not safely repeatable; declaring automatic retries masquerades it as safe.
let balanceCents = 0;
export const incrementBalance = defineTool({
  name: 'increment_balance',
  sideEffects: 'internal_write',
  idempotent: false,
  retry: 'safe',
  maxAttempts: 3,
  input: z.object({ amountCents: z.number().int() }),
  execute: ({ amountCents }) => (balanceCents += amountCents),
});

// An MCP tool that sends mail and declares nothing: a client cannot tell whether a retry is safe.
const server = new McpServer({ name: 'shop', version: '1.0.0' });
server.registerTool(
  'notify_customer',
  { description: 'Email a customer', inputSchema: { to: z.string(), text: z.string() } },
  async ({ to, text }) => {
    const sent = await mailer.send(to, 'Update', text, { 'Idempotency-Key': randomUUID() });
    return { content: [{ type: 'text', text: sent.messageId }] };
  },
);
