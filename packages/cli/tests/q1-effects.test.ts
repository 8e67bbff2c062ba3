import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { audit, type AuditReport } from '../src/index.js';

// Q1 from the handler's effects where they settle it: a handler that reaches no effect, and one
// whose only effect is a create that passes the provider an idempotency key.
const TOOLS = `import { tool } from 'ai';
import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import { z } from 'zod';
import { sendText } from './sms.js';

const stripe = new Stripe('sk_test_x');

export const chargeKeyed = tool({
  description: 'Charge an order',
  inputSchema: z.object({ orderId: z.string(), amount: z.number() }),
  execute: async ({ orderId, amount }) => {
    const intent = await stripe.paymentIntents.create({ amount, currency: 'usd' }, { idempotencyKey: \`charge:\${orderId}\` });
    return { id: intent.id };
  },
});

export const chargeRandom = tool({
  description: 'Charge an order',
  inputSchema: z.object({ orderId: z.string(), amount: z.number() }),
  execute: async ({ amount }) => {
    const intent = await stripe.paymentIntents.create({ amount, currency: 'usd' }, { idempotencyKey: randomUUID() });
    return { id: intent.id };
  },
});

export const quote = tool({
  description: 'Quote a price with tax',
  inputSchema: z.object({ amount: z.number() }),
  execute: async ({ amount }) => ({ total: Math.round(amount * 1.2) }),
});

export const notify = tool({
  description: 'Text the customer',
  inputSchema: z.object({ to: z.string() }),
  execute: async ({ to }) => sendText(to, 'shipped'),
});
`;

describe('Q1 from the effects of the handler', () => {
  let dir: string;
  let report: AuditReport;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'retrysafe-cli-q1-'));
    mkdirSync(path.join(dir, 'src'));
    writeFileSync(path.join(dir, 'src/tools.ts'), TOOLS);
    report = await audit({ cwd: dir, configLookup: false });
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const q1 = (name: string) => report.tools.find((tool) => tool.name === name)?.questions.q1;

  it('yes for a create that passes a key derived from the work, naming the create', () => {
    expect(q1('chargeKeyed')).toMatchObject({
      verdict: 'yes',
      reason: expect.stringContaining('`stripe.paymentIntents.create` (line 13) passes the provider an idempotency key, derived from the work'),
      evidence: [expect.objectContaining({ file: 'src/tools.ts', line: 13, text: 'stripe.paymentIntents.create' })],
    });
  });

  it('no for the same create with a key minted per attempt', () => {
    expect(q1('chargeRandom')).toMatchObject({ verdict: 'no', severity: 'error', reason: expect.stringContaining('the key is new on every attempt') });
  });

  it('yes for a handler that reaches no effect', () => {
    expect(q1('quote')).toMatchObject({ verdict: 'yes', reason: expect.stringContaining('the handler reaches no effect') });
  });

  it('unknown where the handler calls what the analysis does not know', () => {
    expect(q1('notify')).toMatchObject({ verdict: 'unknown' });
  });
});
