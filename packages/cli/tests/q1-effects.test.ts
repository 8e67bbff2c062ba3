import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { audit, type AuditReport } from '../src/index.js';
import { auditFixture } from './support.js';

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
    // The policy the effects imply (require-retry-policy's suggestion: not safely repeatable) says it first.
    expect(q1('chargeRandom')).toMatchObject({ verdict: 'no', severity: 'error', reason: 'a second call runs it again: `stripe.paymentIntents.create` (line 22) sends a key from `randomUUID()` (line 22), new on every call' });
  });

  it('yes for a handler that reaches no effect', () => {
    expect(q1('quote')).toMatchObject({ verdict: 'yes', reason: expect.stringContaining('the handler reaches no effect') });
  });

  it('unknown where the handler calls what the analysis does not know', () => {
    expect(q1('notify')).toMatchObject({ verdict: 'unknown' });
  });
});

// Q1's keyed-create answer rests on question 2: it takes Q2's verdict, so the two never disagree
// (new-user trial: audit-cases/fp-keys2.ts read Q1 yes beside Q2 unknown). tests/fixtures/keyed-creates.
describe('Q1 for a keyed create takes question 2 as it is', () => {
  const tool = async (file: string, line: number) => {
    const found = (await auditFixture('keyed-creates')).tools.find((candidate) => candidate.file === file && candidate.line === line);
    if (!found) throw new Error(`no tool at ${file}:${line}`);
    return found;
  };

  it('unknown where Q2 is unknown (a factory no scanned file calls), with Q2\'s reason', async () => {
    const { questions } = await tool('src/factory-key.ts', 9);
    expect(questions.q2.verdict).toBe('unknown');
    expect(questions.q1).toMatchObject({
      verdict: 'unknown',
      reason: expect.stringContaining('`fetch (POST)` (line 14) passes the provider an idempotency key, but whether it is the same on a repeat is not known (question 2: the key comes from'),
      evidence: expect.arrayContaining([expect.objectContaining({ line: 14, text: 'fetch (POST)' }), expect.objectContaining({ line: 7, text: 'makeTools' })]),
    });
    expect(questions.q1.reason).toContain(questions.q2.reason);
  });

  it('a randomUUID() trace id beside the keyed create does not make the calls "not all known" (fp-keys3.ts)', async () => {
    const { questions } = await tool('src/factory-key-trace-id.ts', 9);
    expect(questions.q1).toMatchObject({ verdict: 'unknown', reason: expect.stringContaining('`fetch (POST)` (line 14) passes the provider an idempotency key, but whether it is the same on a repeat is not known (question 2:') });
  });

  it('yes where Q2 is yes (the factory is given the id of the run openRun opens)', async () => {
    const { questions } = await tool('src/stable.ts', 11);
    expect(questions.q2.verdict).toBe('yes');
    expect(questions.q1).toMatchObject({ verdict: 'yes', reason: expect.stringContaining('derived from the work (question 2), so the create runs once') });
    // A fetch to Stripe's API host: Stripe documents deduplicating by the header, as its SDK's key (Q4 yes too).
    expect(questions.q1.reason).toContain('to `https://api.stripe.com/v1/refunds` (Stripe documents deduplicating by it on that API)');
    expect(questions.q4).toMatchObject({ verdict: 'yes', reason: expect.stringContaining('Stripe keeps keys for at least 24 hours') });
  });

  it('no where Q2 is no (the factory is given randomUUID()), naming the call', async () => {
    const { questions } = await tool('src/stable.ts', 22);
    expect(questions.q2).toMatchObject({ verdict: 'no', severity: 'error' });
    expect(questions.q1).toMatchObject({ verdict: 'no', severity: 'error', reason: expect.stringContaining('the call at src/stable.ts:34 gives it `randomUUID()`') });
  });

  it('never yes beside a Q2 that is not yes, in any fixture with keyed creates', async () => {
    for (const name of ['keyed-creates', 'factory-keys', 'tools', 'trial']) {
      for (const audited of (await auditFixture(name)).tools) {
        if (audited.questions.q1.verdict === 'yes' && /question 2/.test(audited.questions.q1.reason)) expect([name, audited.id, audited.questions.q2.verdict]).toEqual([name, audited.id, 'yes']);
      }
    }
  });
});
