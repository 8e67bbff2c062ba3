import { describe, expect, it } from 'vitest';

import { QUESTIONS, type ToolAudit } from '../src/index.js';
import { auditedTool, auditFixture } from './support.js';

// The verdicts on tests/fixtures/tools, which covers each framework and, for each question, each
// verdict the audit can give today (question 1 answers "unknown" until the effects analysis lands).

const tool = (name: string): Promise<ToolAudit> => auditedTool('tools', name);

describe('the fixture covers each framework and each verdict', () => {
  it('finds the tools of every framework', async () => {
    const report = await auditFixture('tools');
    expect(new Set(report.tools.map((t) => t.framework))).toEqual(new Set(['retrysafe', 'mcp', 'mcp-low-level', 'ai-sdk', 'openai-agents', 'langchain', 'mastra']));
  });

  it.each(['q2', 'q3', 'q4', 'q5'] as const)('%s has yes, no, unknown and n/a answers', async (id) => {
    const verdicts = new Set((await auditFixture('tools')).tools.map((t) => t.questions[id].verdict));
    expect(verdicts).toEqual(new Set(['yes', 'no', 'unknown', 'n/a']));
  });

  it('q1 comes from the effects analysis: a "read-only" tool that charges without a key is no, a handler that only reads is yes', async () => {
    expect((await tool('quick_charge')).questions.q1).toMatchObject({ verdict: 'no', severity: 'error', evidence: [{ file: 'src/effects.ts', line: 11, text: 'stripe.paymentIntents.create' }, { file: 'src/effects.ts', line: 10, text: '{ readOnlyHint: true }' }] });
    expect((await tool('read_config')).questions.q1).toMatchObject({ verdict: 'yes', evidence: [{ line: 16, text: 'readFile' }] });
    expect((await tool('quick_charge')).effects).toMatchObject({ available: true, operations: [{ kind: 'create', keyed: false }] });
    expect((await tool('issue_refund')).questions.q1).toMatchObject({ verdict: 'yes', reason: expect.stringContaining('replays') });
    expect((await tool('charge')).questions.q1).toMatchObject({ verdict: 'unknown', reason: expect.stringContaining('not in this file') });
  });

  it('every "no" has a severity and every "yes" names its evidence', async () => {
    for (const t of (await auditFixture('tools')).tools) {
      for (const id of QUESTIONS) {
        const answer = t.questions[id];
        expect(answer.severity !== undefined).toBe(answer.verdict === 'no');
        if (answer.verdict === 'yes') expect(answer.evidence.length).toBeGreaterThan(0);
      }
    }
  });
});

describe('Q5: the called-twice test', () => {
  it('a tool with a called-twice test is reported as having one (expectSingleEffect, through an import)', async () => {
    expect((await tool('issue_refund')).questions.q5).toMatchObject({ verdict: 'yes', evidence: [{ file: 'tests/refund.test.ts', line: 7 }] });
  });

  it('an MCP tool called twice by name through a client, then a count asserted to be 1, has one', async () => {
    expect((await tool('create_ticket')).questions.q5).toMatchObject({ verdict: 'yes', evidence: [{ file: 'tests/mcp.test.ts', line: 9 }, { file: 'tests/mcp.test.ts', line: 11, text: 'expect(refunds).toHaveLength(1)' }] });
  });

  it('array destructuring of a guard\'s result (const [guarded] = guardLangChainTools([reserveSeat], …)) links each element to the tool at its index', async () => {
    expect((await tool('reserve_seat')).questions.q5).toMatchObject({ verdict: 'yes', evidence: [{ file: 'tests/seats.test.ts', line: 10 }, { file: 'tests/seats.test.ts', line: 12, text: 'expect(seats.length).toBe(1)' }] });
  });

  it('a tool without one is not (and one called twice with nothing asserted is not either)', async () => {
    expect((await tool('post_message')).questions.q5).toMatchObject({ verdict: 'no', severity: 'warning' });
    expect((await tool('add_points')).questions.q5).toMatchObject({ verdict: 'no', reason: expect.stringContaining('asserts no single effect') });
  });

  it('a call twice of a same-named value that cannot be followed is unknown, not yes', async () => {
    expect((await tool('send_sms')).questions.q5.verdict).toBe('unknown');
  });

  it('with no test file among the paths, it is unknown', async () => {
    const report = await auditFixture('tools', { paths: ['src'] });
    expect(report.tools.find((t) => t.name === 'issue_refund')?.questions.q5).toMatchObject({
      verdict: 'unknown',
      // src/broken.ts does not parse: the answer says so rather than asserting there are no tests.
      reason: 'no test files among the files read; 1 file could not be parsed (src/broken.ts), so a called-twice test there would not be seen',
    });
  });
});

describe('Q2, Q3, Q4 across files', () => {
  it('Q4 follows the tool to its runner in another file and the runner to its store', async () => {
    // The store, then the call that hands the tool to its runner (a runner call, an adapter).
    expect((await tool('issue_refund')).questions.q4).toMatchObject({ verdict: 'yes', evidence: [{ file: 'src/main.ts', line: 6 }, { file: 'src/main.ts', line: 9, text: 'runner.call(…)' }] });
    expect((await tool('add_points')).questions.q4).toMatchObject({ verdict: 'no', severity: 'error', evidence: [{ file: 'src/worker.ts', line: 7 }, { file: 'src/worker.ts', line: 10, text: 'toAiSdkTool(…)' }] });
  });

  it('Q4 follows a runner\'s store imported from another file, and a store factory function to the store it returns', async () => {
    // src/claims.ts: createRunner({ store: sharedStore }) and createRunner({ store: scratchStore() }), both from src/stores.ts.
    expect((await tool('file_claim')).questions.q4).toMatchObject({ verdict: 'yes', reason: expect.stringContaining('SQLite'), evidence: [{ file: 'src/stores.ts', line: 6 }, { file: 'src/claims.ts', line: 12, text: 'enableIdempotency(…)' }] });
    expect((await tool('hold_claim')).questions.q4).toMatchObject({
      verdict: 'no',
      severity: 'error',
      reason: expect.stringContaining('made at src/stores.ts:7'),
      evidence: [{ file: 'src/stores.ts', line: 7, text: expect.stringContaining('createNonDurableMemoryStore') }, { file: 'src/claims.ts', line: 17, text: 'enableIdempotency(…)' }],
    });
  });

  it('Q2 names the random source; Q3 finds the replay flag in an MCP handler', async () => {
    expect((await tool('add_points')).questions.q2).toMatchObject({ verdict: 'no', evidence: [{ line: 17, text: 'randomUUID()' }] });
    expect((await tool('create_ticket')).questions.q3).toMatchObject({ verdict: 'yes', evidence: [{ line: 19 }] });
  });

  it('a guarded naturally idempotent tool is not said to be answered from the record: the guard runs it again (found by a new-user trial)', async () => {
    const report = await auditFixture('guarded-reads');
    const weather = report.tools.find((t) => t.name === 'getWeather');
    const invoice = report.tools.find((t) => t.name === 'sendInvoice');
    expect(weather?.questions.q1.reason).not.toMatch(/answered from the record/);
    expect(invoice?.questions.q1).toMatchObject({ verdict: 'yes', reason: expect.stringMatching(/answered from the record/) });
  });

  it('a framework tool handed to a guard (guardAiSdkTools({ sendInvoice }, { runner })) takes Q2-Q4 from the guard and its store', async () => {
    const guarded = await tool('sendInvoice');
    expect(guarded.questions.q2).toMatchObject({ verdict: 'yes', reason: expect.stringContaining('guardAiSdkTools') });
    expect(guarded.questions.q3).toMatchObject({ verdict: 'yes', evidence: [{ file: 'src/guarded.ts', line: 16 }] });
    expect(guarded.questions.q4).toMatchObject({ verdict: 'yes', reason: expect.stringContaining('PostgreSQL') });
  });

  it("an MCP tool on a server with enableIdempotency(server, { runner }) takes Q3 and Q4 from the server, and leaves Q2 to the caller", async () => {
    const keyed = await tool('append_entry');
    expect(keyed.questions.q2).toMatchObject({ verdict: 'unknown', reason: expect.stringContaining('from the caller') });
    expect(keyed.questions.q3).toMatchObject({ verdict: 'yes', evidence: [{ file: 'src/mcp-keyed.ts', line: 10 }] });
    expect(keyed.questions.q4).toMatchObject({ verdict: 'yes', reason: expect.stringContaining('Redis') });
  });

  it('reads what MCP annotations state: the class, and the hints as written (no retry: hints are not a retry policy)', async () => {
    expect((await tool('add_comment')).policy).toMatchObject({ side_effects: null, idempotent: false, retry: null, via: 'annotations' });
    expect((await tool('add_comment')).hints).toEqual({ destructiveHint: true, idempotentHint: false });
  });
});

describe('a tree with a file that does not parse', () => {
  it('reports the file and goes on with the others', async () => {
    const report = await auditFixture('tools');
    expect(report.files.errors).toEqual([{ file: 'src/broken.ts', line: 2, column: 47, message: expect.stringContaining('Parsing error') }]);
    expect(report.tools.length).toBe(18);
  });
});

describe("the project's eslint.config.*", () => {
  it("is used, with the options it gives the plugin's rules (tool factories, key names) and its ignores", async () => {
    const report = await auditFixture('project-config', { configLookup: true });
    expect(report.config).toEqual({ kind: 'project', file: 'eslint.config.mjs' });
    expect(report.tools.map((t) => t.name)).toEqual(['create_invoice']);
    expect(report.tools[0]?.framework).toBe('custom');
    expect(report.tools[0]?.questions.q2).toMatchObject({ verdict: 'no', evidence: [{ text: 'randomUUID()' }] });
  });

  it("without it (--no-config-lookup), the plugin's recommended config knows no such factory", async () => {
    const report = await auditFixture('project-config', { configLookup: false });
    expect(report.config).toEqual({ kind: 'recommended' });
    expect(report.tools).toEqual([]);
  });
});

// The project's `providers` option says an endpoint honours its key: question 1 reads it as
// no-contradicted-policy does (a create that takes its key), so it agrees with question 4's yes.
describe('a provider the project configures', () => {
  it('is a keyed create for question 1 (yes, as question 4), where the recommended config sees an unknown call', async () => {
    const configured = (await auditFixture('configured-provider', { configLookup: true })).tools[0];
    expect(configured?.questions.q1).toMatchObject({ verdict: 'yes', reason: expect.stringContaining('`send` (line 11) passes the provider an idempotency key') });
    expect(configured?.questions.q4).toMatchObject({ verdict: 'yes' });
    const plain = (await auditFixture('configured-provider', { configLookup: false })).tools[0];
    expect(plain?.questions.q1.verdict).toBe('unknown');
  });
});
