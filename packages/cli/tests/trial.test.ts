import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { describe, expect, it } from 'vitest';

import { formatReport, type ToolAudit } from '../src/index.js';
import { DEFAULT_MAX_ATTEMPTS } from '../src/judge/index.js';
import { auditedTool, auditFixture, REPORT_SCHEMA_FILE, validator } from './support.js';

// Cases a new-user trial of `retrysafe audit` found (tests/fixtures/trial).

const tool = (name: string): Promise<ToolAudit> => auditedTool('trial', name);

describe('a guard protects declared tools only', () => {
  it('an undeclared tool passed to a guard gets no yes: the guard throws for it at run time', async () => {
    const lookup = await tool('lookup');
    for (const id of ['q1', 'q2', 'q3', 'q4'] as const) {
      expect(lookup.questions[id]).toMatchObject({
        verdict: 'unknown',
        reason: expect.stringContaining('throws a TypeError at run time'),
        evidence: [{ file: 'src/guard-undeclared.ts', line: 17, text: 'guardAiSdkTools(…)' }],
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
  it('currentCall()?.key from @retrysafe/spec, as docs/frameworks.md passes it to a provider, is the guarded call\'s key: unknown where nothing scanned guards the tool', async () => {
    expect((await tool('refundOrder')).questions.q2).toMatchObject({
      verdict: 'unknown',
      reason: expect.stringMatching(/^the key comes from `currentCall\(\)\?\.key`, the key of the call a guard runs; but /),
      evidence: [{ file: 'src/runner-key.ts', line: 14, text: 'currentCall()?.key' }],
    });
  });
});

describe('Q2 reads a constant fallback as one key for every call', () => {
  // New-user trial 3: `const key = currentCall()?.key ?? ''` passed to stripe.refunds.create. Outside
  // a guard every call sends '', so a later, different refund gets the first one's result.
  it("currentCall()?.key ?? '': no (error), naming the fallback and what it falls back from, not 'new on every attempt'", async () => {
    const q2 = (await tool('refundWithFallback')).questions.q2;
    expect(q2).toMatchObject({
      verdict: 'no',
      severity: 'error',
      evidence: [{ file: 'src/fallback-key.ts', line: 16, text: 'key' }, { file: 'src/fallback-key.ts', line: 15, text: "''" }],
    });
    expect(q2.reason).toContain("falls back to the constant `''` when `currentCall()?.key` is missing (line 15): every call without it sends the same key, \"\"");
    expect(q2.reason).not.toContain('new on every attempt');
  });

  it('Q1 and Q4 do not read it as a key new on every attempt: a repeat carries the same key', async () => {
    const { q1, q4 } = (await tool('refundWithFallback')).questions;
    expect(q1.reason).not.toContain('runs the create again');
    expect(q4).toMatchObject({ verdict: 'yes', reason: expect.stringContaining('Stripe keeps keys') });
    expect((await tool('sendMail')).questions.q2).toMatchObject({ verdict: 'no', reason: expect.stringContaining("falls back to the constant `''`") });
  });
});

describe('Q2 reads a constant key as one key for every call', () => {
  // A new-user trial: `idempotencyKey: 'refund'` in a with_key handler read yes ("derived from `'refund'`").
  it("a constant in a defineTool handler: no (error), naming it, even with a key function derived from the work", async () => {
    const q2 = (await tool('refund_constant')).questions.q2;
    expect(q2).toMatchObject({ verdict: 'no', severity: 'error', evidence: [{ file: 'src/constant-key.ts', line: 19, text: "'refund'" }] });
    expect(q2.reason).toBe(
      "the key `'refund'` (line 19) is a constant: every call sends the same key, \"refund\", so a later, different call gets the first one's result instead of its own effect (or the provider rejects the reused key)",
    );
  });

  it('a module-level const in a framework tool: no (error), naming the const and where its value is written', async () => {
    const q2 = (await tool('refundModuleConstant')).questions.q2;
    expect(q2).toMatchObject({
      verdict: 'no',
      severity: 'error',
      reason: expect.stringMatching(/^the key `REFUND_KEY` \(line 26\) is the constant `'refund-key'` \(line 8\): every call sends the same key/),
      evidence: [{ file: 'src/constant-key.ts', line: 26, text: 'REFUND_KEY' }, { file: 'src/constant-key.ts', line: 8, text: "'refund-key'" }],
    });
  });

  it('questions 1 and 4 do not read it as a key new on every attempt: a repeat carries the same key', async () => {
    const { q1, q4 } = (await tool('refund_constant')).questions;
    expect(q1.reason).not.toContain('runs the handler again');
    expect(q1.reason).toContain('a repeat carries the same key');
    expect((await tool('refundModuleConstant')).questions.q1.reason).toContain('the same on a repeat, one key for every call (question 2)');
    expect(q4).toMatchObject({ verdict: 'unknown', reason: expect.stringContaining("passes `'refund'`, which is not the tool's key") });
    const report = await auditFixture('trial');
    expect(report.findings).toContainEqual(expect.objectContaining({ file: 'src/constant-key.ts', line: 19, ruleId: '@retrysafe/require-key-passthrough', message: expect.stringContaining("passes the constant `'refund'` as its key") }));
  });

  it("a key function that returns the spec's key template with nothing in it: no (error), not 'derived from `key`'", async () => {
    const q2 = (await tool('refund_constant_key_fn')).questions.q2;
    expect(q2).toMatchObject({ verdict: 'no', severity: 'error', evidence: [{ file: 'src/constant-key.ts', line: 49, text: 'key`refund`' }] });
    // Markdown code spans of text with backticks in it are fenced longer (CommonMark), not `key`refund``.
    expect(q2.reason).toMatch(/^the key `` key`refund` `` \(line 49\) is the constant `` `refund` `` \(line 49\): every call sends the same key, "refund"/);
    expect(formatReport(await auditFixture('trial'), 'markdown')).toContain('`` key`refund` ``');
  });

  it("Q1 of a constant key quotes question 2's reason once (new-user trial 6: it held it twice)", async () => {
    const { q1, q2 } = (await tool('refund_constant_key_fn')).questions;
    expect(q1.verdict).toBe('no');
    expect(q1.reason.split(q2.reason).length - 1).toBe(1);
    // Led by the contradiction, question 2's reason quoted there; the yes after it points to question 2.
    expect(q1.reason.startsWith(`its declared policy is not true (question 2: ${q2.reason}), so a loop or client that acts on it is misled (what a repeat does, whatever the policy says: `)).toBe(true);
    expect(q1.reason).toContain('a repeat carries the same key, as every other call of the tool does: question 2');
  });

  it('the look-alike: a key from a business id is derived from the work, not a constant', async () => {
    expect((await tool('refundPerOrder')).questions.q2).toMatchObject({ verdict: 'yes' });
  });
});

describe('Q2 says where currentCall() is set', () => {
  it('unguarded: unknown (new-user trial 6 read "yes … the key is undefined" as a contradiction), the reason saying the key is undefined outside a guarded call, naming every call that sets it (enableIdempotency too)', async () => {
    expect((await tool('refundOrder')).questions.q2).toMatchObject({
      verdict: 'unknown',
      reason: expect.stringContaining(
        '`currentCall()` is set only inside a call one of `guardAiSdkTools`, `guardOpenAIAgentsTools`, `guardLangChainTools`, `guardMastraTools`, `enableIdempotency` runs, and none of them runs this tool in the scanned code: called outside one, the key is `undefined`',
      ),
    });
  });

  it("on an MCP server with enableIdempotency: the reason names the server's enableIdempotency, which sets it", async () => {
    expect((await tool('refund_mcp')).questions.q2).toMatchObject({
      verdict: 'yes',
      reason: expect.stringContaining("`currentCall()` is set by its server's `enableIdempotency` (src/mcp-runner-key.ts:14)"),
    });
  });

  it('guarded: the reason names the guard that sets it', async () => {
    expect((await tool('refundGuarded')).questions.q2).toMatchObject({
      verdict: 'yes',
      reason: expect.stringContaining('`currentCall()` is set by the guard (`guardAiSdkTools`, src/guarded-runner-key.ts:21)'),
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
      // The operation, and the declaration it contradicts, where the rule reports it.
      evidence: [{ file: 'src/server.ts', line: 14, text: 'stripe.paymentIntents.create' }, { file: 'src/server.ts', line: 12, text: '{ readOnlyHint: true }' }],
    });
    expect(payment?.questions.q1.reason).toContain('(line 12, where `@retrysafe/no-contradicted-policy-type-checked` reports it)');
    expect(report.findings).toContainEqual(expect.objectContaining({ ruleId: '@retrysafe/no-contradicted-policy-type-checked', file: 'src/server.ts', line: 12 }));
  });

  it('an operation in an imported helper is evidence in the helper\'s file', async () => {
    const report = await auditFixture('typed', { configLookup: true });
    const charge = report.tools.find((candidate) => candidate.name === 'charge_customer');
    expect(charge?.questions.q1).toMatchObject({ verdict: 'no', reason: expect.stringContaining('`stripe.paymentIntents.create` (src/helpers.ts:4)'), evidence: [{ file: 'src/helpers.ts', line: 4, text: 'stripe.paymentIntents.create' }, expect.objectContaining({ file: 'src/server.ts' })] });
    expect(charge?.effects.operations).toMatchObject([{ kind: 'create', evidence: { file: 'src/helpers.ts', line: 4 } }]);
    // The human format's effects line names the helper's file too (new-user trial 8: 'line 3' of another file).
    expect(formatReport(report, 'table')).toContain('effects  create `stripe.paymentIntents.create` (src/helpers.ts:4)');
  });

  it('without types the same handler stays unknown: the client is constructed in another file', async () => {
    const report = await auditFixture('typed', { configLookup: false });
    expect(report.tools.find((candidate) => candidate.name === 'create_payment')?.questions.q1).toMatchObject({ verdict: 'unknown' });
  });
});

describe('Q2 and Q4 with a type-aware config', () => {
  it("a key from a helper in another file that mints a random one is a no, as no-random-key-type-checked reports it, and contradicts a with_key declaration", async () => {
    const report = await auditFixture('typed', { configLookup: true });
    const tip = report.tools.find((candidate) => candidate.name === 'tip');
    expect(report.findings).toContainEqual(expect.objectContaining({ ruleId: '@retrysafe/no-random-key-type-checked', file: 'src/server.ts', line: 39 }));
    expect(tip?.questions.q2).toMatchObject({ verdict: 'no', severity: 'error', evidence: [{ file: 'src/server.ts', line: 39, text: 'newRequestKey()' }] });
    expect(tip?.questions.q2.reason).toContain('`@retrysafe/no-random-key-type-checked` traces to a value new on every attempt');
    // Q4's provider record reads the file's own imports (keyedProviders.ts): `stripe` imported from
    // ./clients.js is not known there to be Stripe's client, whatever its name, so no provider record
    // is claimed (Q1 and Q2 above carry the no, from the type-aware effects analysis and key trace).
    expect(tip?.questions.q4).toMatchObject({ verdict: 'unknown' });
    expect(tip?.policy).toMatchObject({ idempotent: 'with_key', contradicted: { reason: expect.stringContaining('question 2') } });
  });

  it('without types the key stays unknown: the syntactic rule does not follow the import', async () => {
    const report = await auditFixture('typed', { configLookup: false });
    const tip = report.tools.find((candidate) => candidate.name === 'tip');
    expect(tip?.questions.q2).toMatchObject({ verdict: 'unknown' });
    expect(tip?.policy?.contradicted).toBeUndefined();
  });
});

describe('a policy written through consts', () => {
  const policyOf = async (name: string) => (await tool(name)).policy;

  it('follows same-file and imported consts (spreads, re-exports) to their object literals', async () => {
    expect(await policyOf('fb_local')).toMatchObject({ side_effects: 'none', idempotent: true, retry: 'safe', via: 'mcpMeta' });
    expect(await policyOf('fb_imported')).toMatchObject({ side_effects: 'none', idempotent: true, retry: 'safe' });
    expect(await policyOf('fb_reexported')).toMatchObject({ side_effects: 'none', idempotent: true, retry: 'never' });
    expect(await policyOf('create_note')).toMatchObject({ side_effects: 'internal_write', idempotent: 'with_key', retry: 'safe_with_same_key', max_attempts: 3, via: 'declarePolicy' });
    expect(await policyOf('fb_hints')).toMatchObject({ side_effects: 'none', idempotent: null, retry: null, via: 'annotations' });
  });

  it('a computed literal key is read; a computed key whose value is not known leaves every field unknown', async () => {
    expect(await policyOf('literalKey')).toMatchObject({ side_effects: 'internal_write', idempotent: false, retry: 'never', max_attempts: 3 });
    expect(await policyOf('dynamicKey')).toMatchObject({ side_effects: null, idempotent: null, retry: null, max_attempts: null });
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

  // New-user trial: Q4 said "yes, the provider keeps its own record of the key" beside Q2's "called
  // outside one, the key is undefined and the provider gets none".
  it('the runner\'s key (`currentCall()?.key`) with nothing scanned running the tool: Q4 unknown, pointing to question 2, not "the provider keeps its own record"', async () => {
    expect((await tool('refundOrder')).questions.q4).toMatchObject({
      verdict: 'unknown',
      reason:
        "`stripe.refunds.create(…)` (line 14) passes the key to a provider that keeps a record of the key it is given (Stripe keeps keys for at least 24 hours), but the key is `currentCall()?.key` (line 14), which is `undefined` outside a call a guard or `enableIdempotency` runs, and none runs this tool in the scanned code (question 2): without a key the provider keeps no record, so whether a repeat is answered from one is not known",
      evidence: [{ file: 'src/runner-key.ts', line: 14, text: 'stripe.refunds.create(…)' }, { file: 'src/runner-key.ts', line: 14, text: 'currentCall()?.key' }],
    });
  });

  it('a key sent to a plain fetch POST is unknown: the server may not read an Idempotency-Key header at all', async () => {
    expect((await tool('sendMail')).questions.q4).toMatchObject({
      verdict: 'unknown',
      reason: expect.stringMatching(/^`fetch \(POST\)` \(line 12\) sends the key in its `Idempotency-Key` header to `https:\/\/mail\.example\.test\/send`; whether that server keeps a record of it is not in the code/),
      evidence: [{ file: 'src/fetch-key.ts', line: 12 }],
    });
    expect((await tool('refundOrder')).questions.q4.reason).toContain('(Stripe keeps keys for at least 24 hours)');
  });

  // New-user trial 3: Q1 read yes ("the provider answers a repeat from its own record") beside Q4's
  // "whether that server keeps a record of it is not in the code".
  it('Q1 of a key sent to a plain fetch POST is a warning naming the header, the URL and the line, as Q4 does', async () => {
    const { q1, q2, q4 } = (await tool('sendReceipt')).questions;
    expect(q2.verdict).toBe('yes');
    expect(q1).toMatchObject({ verdict: 'no', severity: 'warning', evidence: [{ file: 'src/fetch-key.ts', line: 36, text: 'fetch (POST)' }] });
    expect(q1.reason).toContain('`fetch (POST)` (line 36) sends the key in its `Idempotency-Key` header to `https://receipts.example.test/send`');
    expect(q1.reason).toContain("the server's choice (the IETF Idempotency-Key draft");
    expect(q4).toMatchObject({ verdict: 'unknown', evidence: [{ file: 'src/fetch-key.ts', line: 36 }] });
    expect(q4.reason).toContain('`fetch (POST)` (line 36) sends the key in its `Idempotency-Key` header to `https://receipts.example.test/send`; whether that server keeps a record of it is not in the code');
  });

  it('a key new on every attempt sent to a plain fetch POST is Q4 no, without claiming that server keeps a record', async () => {
    const { q4 } = (await tool('sendPing')).questions;
    expect(q4).toMatchObject({ verdict: 'no', severity: 'error', evidence: [{ file: 'src/fetch-key.ts', line: 24 }] });
    expect(q4.reason).toMatch(/^`fetch\(…\)` \(line 24\) passes a key \(whether the server keeps a record of it is not in the code\), but the key is new on every attempt/);
    expect(q4.reason).not.toContain('the provider keeps');
    expect((await tool('chargeCard')).questions.q4.reason).toContain('passes a key the provider keeps a record of, but the key is new on every attempt');
  });
});

describe('tools made by wrappers and factories are named', () => {
  it('from the element of an array the wrapper registers, and from the factory\'s name argument', async () => {
    const report = await auditFixture('trial');
    const wrapped = report.tools.filter((candidate) => candidate.file === 'src/wrapped-tools.ts').map(({ name, line, framework }) => ({ name, line, framework }));
    expect(wrapped).toEqual([
      { name: 'list_carts', line: 15, framework: 'mcp' },
      { name: 'list_wishes', line: 21, framework: 'mcp' },
      { name: 'get_cart', line: 28, framework: 'ai-sdk' },
      { name: 'count_carts', line: 33, framework: 'mastra' },
      { name: null, line: 39, framework: 'mcp' },
    ]);
  });

  it('the handler a factory takes as an argument is read where the factory is called', async () => {
    expect((await tool('get_cart')).questions.q1).toMatchObject({ verdict: 'yes', evidence: [{ file: 'src/wrapped-tools.ts', line: 28, text: expect.stringContaining('SELECT') }] });
  });

  it('a tool without a static name is shown by where it is registered, not as "(unnamed)"', async () => {
    const report = await auditFixture('trial');
    const extra = report.tools.find((candidate) => candidate.file === 'src/wrapped-tools.ts' && candidate.line === 39);
    expect(extra?.summary).toMatch(/^\(registered at src\/wrapped-tools\.ts:39\) \[/);
    const table = formatReport(report, 'table');
    expect(table).not.toContain('(unnamed');
    expect(table).toContain('(registered at src/wrapped-tools.ts:39)');
    expect(formatReport(report, 'markdown')).toContain('(registered at src/wrapped-tools.ts:39)');
  });
});

describe('Q5 counts a single effect however it is asserted', () => {
  const q5 = async (name: string) => (await tool(name)).questions.q5;

  it.each([
    ['count_string', 18, "expect(count).toBe('1')"],
    ['count_equal', 25, "expect(rows[0]?.count).toEqual('1')"],
    ['count_length', 32, 'expect(rows).toHaveLength(1)'],
    ['count_assert', 38, "assert.equal(await redis.get('count_assert:count'), '1')"],
    ['count_times', 45, 'expect(send).toHaveBeenCalledTimes(1)'],
    ['count_strict', 52, 'assert.strictEqual(total, 1)'],
    ['count_deep', 59, "assert.deepStrictEqual(rows, [{ count: 'a' }])"],
  ])('%s: yes, naming the assertion and its line', async (name, line, text) => {
    expect(await q5(name)).toMatchObject({
      verdict: 'yes',
      reason: expect.stringContaining(`(\`${text}\`, line ${line})`),
      evidence: [{ file: 'tests/counted.test.ts' }, { file: 'tests/counted.test.ts', line, text }],
    });
  });

  it.each(['count_two', 'count_zero', 'count_id', 'count_deep_two'])('%s: another count, or a string that is not a count, is no single effect', async (name) => {
    expect(await q5(name)).toMatchObject({ verdict: 'no', reason: expect.stringContaining('asserts no single effect') });
  });
});

describe('Q1 reads a one-line arrow body', () => {
  it.each(['get_row', 'fetchOrders', 'pickRow', 'get_order_row'])('%s: read-only, with the evidence', async (name) => {
    expect((await tool(name)).questions.q1).toMatchObject({ verdict: 'yes', reason: expect.stringContaining('it only reads'), evidence: expect.arrayContaining([expect.objectContaining({ file: 'src/one-line-reads.ts', text: expect.stringMatching(/SELECT|fetch/) })]) });
  });
});

describe('Q1 says when the effect contradicts the declared policy', () => {
  it('declared idempotent, the handler increments: the contradiction and no-contradicted-policy\'s finding are named', async () => {
    const q1 = (await tool('touchOrder')).questions.q1;
    expect(q1).toMatchObject({ verdict: 'no', severity: 'error' });
    expect(q1.reason).toContain('contradicts the declared `idempotent: true`');
    expect(q1.reason).toContain('contradicts the declared `idempotent: true` (line 20, where `@retrysafe/no-contradicted-policy` reports it)');
    expect(q1.evidence).toContainEqual({ file: 'src/contradicted.ts', line: 20, text: expect.stringContaining('side_effects') });
  });

  // A later trial (p1's get_user): Q1 was a green yes and Q2-Q5 n/a, so the row looked clean; only
  // "(contradicted)" in the Policy column said otherwise.
  it('declared read-only, the handler writes absolutely: no (error) to Q1, naming the contradiction and its evidence', async () => {
    const q1 = (await tool('rename_order')).questions.q1;
    expect(q1).toMatchObject({ verdict: 'no', severity: 'error' });
    expect(q1.reason).toMatch(/^the declaration is not true: /);
    expect(q1.reason).toContain('a second call itself reaches the same end state');
    expect(q1.reason).toContain('contradicts the declared read-only `readOnlyHint: true`');
    expect(q1.reason).toContain('(line 23, where `@retrysafe/no-contradicted-policy` reports it)');
    expect(q1.reason).toContain('a client or loop that trusts it runs the tool without asking');
    expect(q1.evidence).toContainEqual({ file: 'src/contradicted.ts', line: 23, text: expect.stringContaining('readOnlyHint') });
  });

  it('every format shows it as a finding: the summary counts it, the table shows ✗, the Markdown ❌, SARIF a result', async () => {
    const report = await auditFixture('trial');
    const renamed = report.tools.find((candidate) => candidate.name === 'rename_order');
    if (!renamed) throw new Error('no rename_order');
    const noVerdicts = report.tools.flatMap((candidate) => Object.values(candidate.questions)).filter((answer) => answer.verdict === 'no');
    expect(report.summary.questions.q1.no).toBe(report.tools.filter((candidate) => candidate.questions.q1.verdict === 'no').length);
    expect(report.summary.errors).toBe(noVerdicts.filter((answer) => answer.severity === 'error' && answer.followsFrom === undefined).length + report.findings.filter((finding) => finding.severity === 'error').length);
    expect(renamed.summary).toMatch(/^rename_order \[.*\(contradicted\)\]: Q1 no, /);
    const row = formatReport(report, 'table').split('\n').find((line) => line.startsWith('│ rename_order '));
    expect(row?.split('│').map((cell) => cell.trim()).slice(5, 6)).toEqual(['✗']);
    const markdownRow = formatReport(report, 'markdown').split('\n').find((line) => line.startsWith('| `rename_order` '));
    expect(markdownRow?.split(' | ').at(4)).toBe('❌');
    const sarif = JSON.parse(formatReport(report, 'sarif'));
    const result = sarif.runs[0].results.find((candidate: { ruleId: string; message: { text: string } }) => candidate.ruleId === 'retrysafe-audit/called-twice-effect' && candidate.message.text.startsWith('rename_order:'));
    expect(result).toMatchObject({ level: 'error', locations: [{ physicalLocation: { artifactLocation: { uri: renamed.file }, region: { startLine: renamed.line } } }] });
  });

  it('a contradiction Q1 does not judge itself (a rule finding on a tool the runner replays) turns its yes into a no too', async () => {
    const report = await auditFixture('unlisted-test', { configLookup: true });
    const q1 = report.tools.find((candidate) => candidate.name === 'add_note')?.questions.q1;
    expect(q1).toMatchObject({ verdict: 'no', severity: 'error', reason: expect.stringContaining('its declared policy is not true (`@retrysafe/no-unsafe-retry-policy` reports it at src/notes.ts:14') });
    // The verdict's reason leads (new-user trial 5 read 'runs once; but …' as contradicting the no).
    expect(q1?.reason).toMatch(/^its declared policy is not true .*, so a loop or client that acts on it is misled \(what a repeat does, whatever the policy says: .*\)$/);
    expect(q1?.evidence).toContainEqual({ file: 'src/notes.ts', line: 14, text: expect.stringContaining('add_note') });
  });
});

// A third new-user trial (tests/fixtures/trial/src/stores-q4.ts).
describe('Q4 judges every runner of the tool, and a Redis whose persistence check is off', () => {
  const q4 = async (name: string) => (await tool(name)).questions.q4;

  it('allowVolatile: true is not a durable Redis: unknown, saying why', async () => {
    expect(await q4('ship_volatile')).toMatchObject({
      verdict: 'unknown',
      reason: expect.stringMatching(/^its runner \(src\/stores-q4\.ts:29\) keeps records in `createRedisStore\(…\)` with `allowVolatile: true`, which accepts a Redis that keeps nothing on disk/),
      // The store, then the call that hands the tool to its runner.
      evidence: [{ file: 'src/stores-q4.ts', line: 28, text: 'createRedisStore(…)' }, { file: 'src/stores-q4.ts', line: 37, text: 'volatileRunner.call(…)' }],
    });
  });

  it('allowVolatile: false keeps the check (yes); a value that is not static is unknown', async () => {
    expect(await q4('ship_checked')).toMatchObject({ verdict: 'yes', reason: expect.stringContaining('(Redis)') });
    expect(await q4('ship_volatile_option')).toMatchObject({ verdict: 'unknown', reason: expect.stringContaining("whose `allowVolatile` (`process.env.ALLOW_VOLATILE === '1'`, line 31) is not a static value") });
  });

  it('several runners: the weakest is named with its file and line, the durable ones after it', async () => {
    const everywhere = await q4('ship_everywhere');
    expect(everywhere).toMatchObject({
      verdict: 'unknown',
      reason: expect.stringContaining('its runner (src/stores-q4.ts:29) keeps records in `createRedisStore(…)` with `allowVolatile: true`'),
    });
    expect(everywhere.reason).toContain('(3 runners in all; 2 with a durable store: SQLite at src/stores-q4.ts:32, PostgreSQL at src/stores-q4.ts:34)');
    expect(everywhere.evidence.map((e) => e.line)).toEqual([28, 32, 34, 40, 41, 42]);
    const mixed = await q4('ship_mixed');
    expect(mixed).toMatchObject({ verdict: 'no', severity: 'error', reason: expect.stringMatching(/^its runner \(src\/stores-q4\.ts:33\) keeps records in `createNonDurableMemoryStore\(\)`/) });
    expect(mixed.reason).toContain('(3 runners in all; 1 with a durable store: SQLite at src/stores-q4.ts:32)');
  });

  it('yes only when every runner is durable; each runner counted once', async () => {
    expect(await q4('ship_durable')).toMatchObject({
      verdict: 'yes',
      reason: 'its 2 runners (src/stores-q4.ts:32, src/stores-q4.ts:34) all keep records in durable stores (SQLite, PostgreSQL) that outlive the run',
      evidence: [{ line: 32 }, { line: 34 }, { line: 43 }, { line: 44 }, { line: 45 }],
    });
  });
});

describe('Q4: a provider record of a key that is not the tool\'s key answers nothing for the tool', () => {
  it("a with_key tool passing `orderId` is not 'the provider keeps its own record': unknown, naming the call and the key, as require-key-passthrough reports it", async () => {
    expect((await tool('charge_wrong_key')).questions.q4).toMatchObject({
      verdict: 'unknown',
      reason: expect.stringMatching(/^`stripe\.paymentIntents\.create\(…\)` \(line 19\) passes `orderId`, which is not the tool's key/),
      evidence: [{ file: 'src/wrong-key.ts', line: 19, text: 'stripe.paymentIntents.create(…)' }],
    });
    const report = await auditFixture('trial');
    expect(report.findings).toContainEqual(expect.objectContaining({ file: 'src/wrong-key.ts', line: 19, ruleId: '@retrysafe/require-key-passthrough', message: expect.stringContaining("not the tool's key (`orderId`)") }));
  });

  it("a framework tool's constant key is not its key either; a key built from the tool's key keeps its yes", async () => {
    expect((await tool('chargeConstantKey')).questions.q4).toMatchObject({ verdict: 'unknown', reason: expect.stringContaining("passes `'charge'`, which is not the tool's key") });
    expect((await tool('charge_built_key')).questions.q4).toMatchObject({ verdict: 'yes', reason: expect.stringContaining('the provider keeps its own record of the key') });
  });
});

describe('max_attempts the runtime defaults', () => {
  const policyOf = async (name: string) => (await tool(name)).policy;

  it('not declared: the runtime default for the retry class, marked as the default (table, JSON, YAML)', async () => {
    expect(await policyOf('ship_durable')).toMatchObject({ retry: 'safe_with_same_key', max_attempts: 3, max_attempts_default: true, via: 'defineTool' });
    expect(await policyOf('fb_reexported')).toMatchObject({ retry: 'never', max_attempts: 1, max_attempts_default: true, via: 'mcpMeta' });
    const report = await auditFixture('trial');
    expect(formatReport(report, 'table')).toMatch(/│ ship_durable +│ [^│]+│ retrysafe +│ internal_write · with_key · safe_with_same_key · 3 \(default\) +│/);
    expect(formatReport(report, 'yaml')).toContain('ship_durable:\n  side_effects: internal_write\n  idempotent: with_key\n  retry: safe_with_same_key\n  max_attempts: 3\n  max_attempts_default: true\n');
  });

  it('declared, or possibly set by a spread the audit does not follow, or on MCP annotations: no default', async () => {
    const declared = await policyOf('two_attempts');
    expect(declared).toMatchObject({ max_attempts: 2 });
    expect(declared).not.toHaveProperty('max_attempts_default');
    const spread = await policyOf('spreadAttempts');
    expect(spread).toMatchObject({ retry: 'safe', max_attempts: null });
    expect(spread).not.toHaveProperty('max_attempts_default');
    expect(await policyOf('fb_hints')).toMatchObject({ via: 'annotations', max_attempts: null });
    expect(await policyOf('refund')).toMatchObject({ max_attempts: 1 });
    expect(await policyOf('refund')).not.toHaveProperty('max_attempts_default');
  });

  it("the defaults are @retrysafe/spec's", async () => {
    // The built spec, by its path: the CLI does not depend on the spec, and its tsconfig does not reach it.
    const spec = pathToFileURL(path.join(path.dirname(fileURLToPath(import.meta.url)), '../../spec/dist/index.js')).href;
    const { DEFAULT_MAX_ATTEMPTS: fromSpec } = (await import(spec)) as { DEFAULT_MAX_ATTEMPTS: unknown };
    expect(DEFAULT_MAX_ATTEMPTS).toEqual(fromSpec);
  });
});

describe('a declaration the same run contradicts is marked in the YAML and the JSON', () => {
  it('idempotent: false with retry: safe, a read-only tool that INSERTs, with_key with retry: safe', async () => {
    const report = await auditFixture('trial');
    const policyOf = (name: string) => report.tools.find((candidate) => candidate.name === name)?.policy;
    expect(policyOf('deleteAccount')?.contradicted).toMatchObject({ reason: expect.stringMatching(/no-unsafe-retry-policy` reports it at src\/contradicted-yaml\.ts:18/), evidence: { file: 'src/contradicted-yaml.ts', line: 18 } });
    expect(policyOf('logNote')?.contradicted).toMatchObject({ reason: expect.stringMatching(/no-contradicted-policy` reports it at src\/contradicted-yaml\.ts:27/) });
    expect(policyOf('p5')?.contradicted).toMatchObject({ reason: expect.stringMatching(/no-unsafe-retry-policy` reports it at src\/contradicted-yaml\.ts:36/) });
    // A policy from another module, which the rule does not see: the spec's own table (findPolicyContradiction).
    expect(policyOf('p6')?.contradicted).toMatchObject({ reason: expect.stringContaining("is one `@retrysafe/spec` rejects (tsc, and a ToolPolicyError at run time): idempotent: 'with_key' is retried only with the same key") });
    expect(policyOf('saveDraft')?.contradicted).toBeUndefined();
    // with_key and retry: 'safe_with_same_key', but the key is new on every attempt (question 2 no).
    expect(policyOf('chargeCard')?.contradicted).toMatchObject({ reason: expect.stringMatching(/^question 2: the key is built from `randomUUID\(\)` \(line 17\)/), evidence: { file: 'src/random-provider-key.ts', line: 17 } });
    expect(policyOf('refundOrder')?.contradicted).toBeUndefined();
    const yaml = formatReport(report, 'yaml');
    for (const name of ['deleteAccount', 'logNote', 'p5', 'p6', 'chargeCard']) {
      expect(yaml).toMatch(new RegExp(`\\n${name}:\\n(  .*\\n)*  contradicted: true\\n(  .*\\n)*  reason: "the same run shows this declaration is not true`));
    }
    expect(yaml).not.toMatch(/\nsaveDraft:\n(  .*\n)*  contradicted/);
  });
});

describe('Q4 follows an options object chosen by a conditional', () => {
  it('both branches name the same module runner: its store is judged (yes)', async () => {
    expect((await tool('save_note_both')).questions.q4).toMatchObject({ verdict: 'yes', reason: expect.stringContaining('durable store (SQLite)') });
  });

  it('branches that do not name the same runner: unknown, saying a conditional was seen rather than claiming a parameter', async () => {
    for (const name of ['save_note_fallback', 'save_note_split']) {
      const { q4 } = (await tool(name)).questions;
      expect(q4).toMatchObject({ verdict: 'unknown', reason: expect.stringContaining('its options are chosen by a conditional (`') });
      expect(q4.reason).not.toContain('a parameter');
    }
  });
});

describe('Q2 judges each part of a `key` template', () => {
  it('a part from process.env in a module const is not yes (tsc rejects it as NotDurableKeyPart): unknown, naming the part', async () => {
    expect((await tool('env_key')).questions.q2).toMatchObject({ verdict: 'unknown', reason: expect.stringContaining('`suffix` (line 15), which is not visibly derived from the work'), evidence: [{ file: 'src/env-key-part.ts', line: 15, text: 'suffix' }] });
  });

  it('run.id, a field of the input and a module const holding a literal stay yes', async () => {
    expect((await tool('literal_key')).questions.q2).toMatchObject({ verdict: 'yes', reason: expect.stringContaining('`run.id`, `input.id`, `ACTION`') });
  });
});

// New-user trial: a cross-file contradiction read Q1 unknown under the project's untyped config and
// no under recommended-type-checked, with nothing telling the user so. tests/fixtures/typed has a tsconfig.json.
describe('the hint to audit with types', () => {
  it('without types, with a tsconfig.json: counts the tools whose Q1 is unknown for unfollowed calls, in the JSON and the table', async () => {
    const report = await auditFixture('typed', { configLookup: false });
    const unknown = report.tools.filter((candidate) => candidate.questions.q1.verdict === 'unknown');
    expect(unknown.length).toBeGreaterThan(0);
    expect(report.summary.withoutTypes).toEqual({ tools: unknown.length, hint: expect.stringContaining("Pass a config that uses the plugin's recommended-type-checked (`-c <file>`)") });
    expect(report.summary.withoutTypes?.hint).toMatch(/^question 1 is unknown for \d+ tools? because/);
    const validate = validator(REPORT_SCHEMA_FILE);
    expect(validate(JSON.parse(formatReport(report, 'json'))) ? [] : validate.errors).toEqual([]);
    expect(formatReport(report, 'table')).toContain(`\nHint: ${report.summary.withoutTypes?.hint}.\n`);
    expect(formatReport(report, 'markdown')).toContain(`\n> ${report.summary.withoutTypes?.hint}.\n`);
  });

  it('with types (the project config, recommended-type-checked): no hint', async () => {
    const report = await auditFixture('typed', { configLookup: true });
    expect(report.summary.withoutTypes).toBeUndefined();
    expect(formatReport(report, 'table')).not.toContain('\nHint: ');
  });

  it('without a tsconfig.json: no hint, though calls were not followed', async () => {
    const report = await auditFixture('tools');
    expect(report.tools.some((candidate) => candidate.questions.q1.reason.startsWith('not every call the handler makes is known'))).toBe(true);
    expect(report.summary.withoutTypes).toBeUndefined();
  });
});

// New-user trial 3 (src/hints.ts): MCP hints read as a policy showed `retry: safe`, which no hint
// states; the table shows what the code declares.
describe('MCP hints are shown as hints, not as a retry policy', () => {
  const row = async (name: string) => {
    const found = await tool(name);
    return { policy: found.policy, hints: found.hints, column: found.summary.slice(found.summary.indexOf('[') + 1, found.summary.indexOf(']')) };
  };

  it('idempotentHint: the class it states, no retry, and the hints as written', async () => {
    const { policy, hints, column } = await row('hint_idempotent');
    expect(policy).toMatchObject({ via: 'annotations', side_effects: null, idempotent: true, retry: null, max_attempts: null });
    expect(hints).toEqual({ idempotentHint: true, openWorldHint: false });
    expect(column).toBe('hints: idempotentHint · openWorldHint: false');
    expect(formatReport(await auditFixture('trial'), 'markdown')).toContain('| hints: idempotentHint · openWorldHint: false |');
  });

  it('hints that say nothing of idempotency are no declaration: undeclared, shown as the hints stated (no MCP default filled in)', async () => {
    const { policy, hints, column } = await row('hint_silent');
    expect(policy).toBeNull();
    expect(hints).toEqual({ destructiveHint: false, openWorldHint: true });
    expect(column).toBe('hints: destructiveHint: false · openWorldHint');
    expect((await tool('hint_silent')).questions.q2.verdict).not.toBe('n/a');
  });

  it('annotations with no hint read undeclared', async () => {
    expect(await row('hint_title')).toEqual({ policy: null, hints: undefined, column: 'undeclared' });
  });

  it('hints spread from another file are read layer by layer', async () => {
    const { policy, hints, column } = await row('hint_spread');
    expect(policy).toMatchObject({ via: 'annotations', side_effects: 'none', idempotent: null, retry: null });
    expect(hints).toEqual({ readOnlyHint: true, openWorldHint: false, destructiveHint: false });
    expect(column).toBe('hints: readOnlyHint · destructiveHint: false · openWorldHint: false');
  });

  it('the JSON report with hints validates against the schema', async () => {
    const validate = validator(REPORT_SCHEMA_FILE);
    expect(validate(JSON.parse(formatReport(await auditFixture('trial'), 'json'))), JSON.stringify(validate.errors)).toBe(true);
  });
});
