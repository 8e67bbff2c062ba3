import { describe, expect, it } from 'vitest';

import type { ToolAudit } from '../src/index.js';
import { auditedTool, auditFixture } from './support.js';

// Cases a new-user trial of `retrysafe audit` found (tests/fixtures/trial).

const tool = (name: string): Promise<ToolAudit> => auditedTool('trial', name);

describe('a guard protects declared tools only', () => {
  it('an undeclared tool passed to a guard gets no yes: the guard throws for it at run time', async () => {
    const lookup = await tool('lookup');
    for (const id of ['q1', 'q2', 'q3', 'q4'] as const) {
      expect(lookup.questions[id]).toMatchObject({
        verdict: 'unknown',
        reason: expect.stringContaining('throws a TypeError at run time'),
        evidence: [{ file: 'src/guard-undeclared.ts', line: 17, text: 'guardAiSdkTools' }],
      });
    }
  });

  it('a declared tool in the same guard still takes its answers from the guard', async () => {
    const refund = await tool('refund');
    expect(refund.questions.q2).toMatchObject({ verdict: 'yes', reason: expect.stringContaining('guarded by `guardAiSdkTools`') });
    expect(refund.questions.q4).toMatchObject({ verdict: 'yes' });
  });
});

describe('Q4 says what is known about a runner call', () => {
  it('a runner call only in a file read as a test is named, not denied', async () => {
    expect((await tool('create_ticket')).questions.q4).toMatchObject({
      verdict: 'unknown',
      reason: expect.stringContaining('files the audit reads as tests'),
      evidence: [{ file: 'src/exercise.ts', line: 10 }],
    });
  });

  it('a runner from a parameter: the call exists, its store cannot be seen', async () => {
    expect((await tool('close_ticket')).questions.q4).toMatchObject({
      verdict: 'unknown',
      reason: expect.stringMatching(/^a runner call of it exists \(`runner\.call`, src\/worker\.ts:6\).*store cannot be seen/),
    });
  });
});

describe('Q2 knows the runner\'s key', () => {
  it('currentCall()?.key from @retrysafe/spec, as docs/frameworks.md passes it to a provider, is deterministic', async () => {
    expect((await tool('refundOrder')).questions.q2).toMatchObject({
      verdict: 'yes',
      evidence: [{ file: 'src/runner-key.ts', line: 14, text: 'currentCall()?.key' }],
    });
  });
});

describe('Q1 with a type-aware config', () => {
  it("follows the handler into other files as no-contradicted-policy-type-checked does, so Q1 and that rule's finding agree", async () => {
    const report = await auditFixture('typed', { configLookup: true });
    const payment = report.tools.find((candidate) => candidate.name === 'create_payment');
    expect(payment?.questions.q1).toMatchObject({
      verdict: 'no',
      severity: 'error',
      evidence: [{ file: 'src/server.ts', line: 14, text: 'stripe.paymentIntents.create' }],
    });
    expect(report.findings).toContainEqual(expect.objectContaining({ ruleId: '@retrysafe/no-contradicted-policy-type-checked', file: 'src/server.ts', line: 12 }));
  });

  it('an operation in an imported helper is evidence in the helper\'s file', async () => {
    const report = await auditFixture('typed', { configLookup: true });
    const charge = report.tools.find((candidate) => candidate.name === 'charge_customer');
    expect(charge?.questions.q1).toMatchObject({ verdict: 'no', reason: expect.stringContaining('`stripe.paymentIntents.create` (src/helpers.ts:4)'), evidence: [{ file: 'src/helpers.ts', line: 4, text: 'stripe.paymentIntents.create' }] });
    expect(charge?.effects.operations).toMatchObject([{ kind: 'create', evidence: { file: 'src/helpers.ts', line: 4 } }]);
  });

  it('without types the same handler stays unknown: the client is constructed in another file', async () => {
    const report = await auditFixture('typed', { configLookup: false });
    expect(report.tools.find((candidate) => candidate.name === 'create_payment')?.questions.q1).toMatchObject({ verdict: 'unknown' });
  });
});

describe('a policy written through consts', () => {
  const policyOf = async (name: string) => (await tool(name)).policy;

  it('follows same-file and imported consts (spreads, re-exports) to their object literals', async () => {
    expect(await policyOf('fb_local')).toMatchObject({ side_effects: 'none', idempotent: true, retry: 'safe', via: 'mcpMeta' });
    expect(await policyOf('fb_imported')).toMatchObject({ side_effects: 'none', idempotent: true, retry: 'safe' });
    expect(await policyOf('fb_reexported')).toMatchObject({ side_effects: 'none', idempotent: true, retry: 'never' });
    expect(await policyOf('create_note')).toMatchObject({ side_effects: 'internal_write', idempotent: 'with_key', retry: 'safe_with_same_key', max_attempts: 3, via: 'declarePolicy' });
    expect(await policyOf('fb_hints')).toMatchObject({ side_effects: 'none', idempotent: true, retry: 'safe', via: 'annotations' });
  });

  it('a spread that cannot be followed leaves the fields it may set unknown, never guessed', async () => {
    expect(await policyOf('fb_opaque')).toMatchObject({ side_effects: null, idempotent: null, retry: null });
  });
});

describe('a provider record answers only a repeat that carries the same key', () => {
  it('a random key passed to Stripe is Q2 no and Q4 no, not "the provider keeps its own record"', async () => {
    const charge = await tool('chargeCard');
    expect(charge.questions.q2).toMatchObject({ verdict: 'no' });
    expect(charge.questions.q4).toMatchObject({
      verdict: 'no',
      severity: 'error',
      reason: expect.stringContaining('new on every attempt'),
      evidence: [{ file: 'src/random-provider-key.ts', text: expect.stringContaining('stripe.paymentIntents.create') }],
    });
  });

  it('the key the runner passes downstream keeps its yes', async () => {
    expect((await tool('refundOrder')).questions.q4).toMatchObject({ verdict: 'yes', reason: expect.stringContaining('the provider keeps its own record') });
  });
});
