import { describe, expect, it } from 'vitest';

import { formatReport, type ToolAudit } from '../src/index.js';
import { auditedTool, auditFixture } from './support.js';

// Cases a fourth new-user trial of `retrysafe audit` found (tests/fixtures/trial4: AI SDK tools in
// a guard's tool set, vitest tests that never run or cannot fail, stores chosen at run time).

const tool = (name: string): Promise<ToolAudit> => auditedTool('trial4', name);

describe('Q5 counts only a called-twice test that runs and can fail', () => {
  it.each([
    ['skipped_refund', 'in a skipped test (`it.skip`, line 12), which never runs'],
    ['todo_refund', 'in a skipped test (`it.todo`, line 18), which never runs'],
    ['xit_refund', 'in a skipped test (`xit`, line 24), which never runs'],
    ['xdescribe_refund', 'in a skipped test (`xdescribe`, line 30), which never runs'],
    ['describe_skip_refund', 'in a skipped test (`describe.skip`, line 38), which never runs'],
  ])('%s: a skipped test is no (warning), naming the skip', async (name, words) => {
    const q5 = (await tool(name)).questions.q5;
    expect(q5).toMatchObject({ verdict: 'no', severity: 'warning' });
    expect(q5.reason).toMatch(/^tests\/refund\.test\.ts:\d+ calls it twice /);
    expect(q5.reason).toContain(words);
  });

  it.each([
    ['skip_if_refund', '`it.skipIf(process.env.CI)`, line 46'],
    ['run_if_refund', '`it.runIf(process.env.DATABASE_URL)`, line 52'],
    ['describe_skip_if_refund', '`describe.skipIf(!process.env.DATABASE_URL)`, line 58'],
    ['env_if_refund', '`if (process.env.DATABASE_URL)`, line 66'],
    ['early_return_refund', '`if (!process.env.DATABASE_URL) return`, line 132'],
    ['context_skip_refund', '`if (!process.env.DATABASE_URL) skip()`, line 139'],
  ])('%s: a conditional test is not known to run: unknown, naming the condition', async (name, words) => {
    const q5 = (await tool(name)).questions.q5;
    expect(q5.verdict).toBe('unknown');
    expect(q5.reason).toContain(`calls it twice in a test that runs only under a condition (${words})`);
    expect(q5.evidence.map((evidence) => evidence.line)).toContain(Number(/line (\d+)/.exec(words)?.[1]));
  });

  it('an assertion in a try whose catch swallows the failure cannot fail: no, naming the catch', async () => {
    expect((await tool('swallowed_refund')).questions.q5).toMatchObject({
      verdict: 'no',
      severity: 'warning',
      reason: expect.stringContaining('tests/refund.test.ts:76 calls it twice, but its assertion (`expect(await ledger.count()).toBe(1)`, line 78) sits in a `try` whose `catch { … }` (line 79) swallows the failure'),
    });
    expect((await tool('single_swallowed_refund')).questions.q5).toMatchObject({ verdict: 'no', reason: expect.stringContaining('`catch (error) { … }` (line 87) swallows the failure') });
  });

  it('a catch that rethrows or fails the test keeps the yes; so does a counted test beside a skipped one, a guard that throws, a return after the assertion', async () => {
    for (const name of ['rethrown_refund', 'failed_in_catch_refund', 'mixed_refund', 'plain_refund', 'thrown_guard_refund', 'late_return_refund']) {
      expect((await tool(name)).questions.q5, name).toMatchObject({ verdict: 'yes' });
    }
    expect((await tool('mixed_refund')).questions.q5.reason).toMatch(/^tests\/refund\.test\.ts:120 calls it twice and asserts/);
  });
});

describe('Q4 of a store chosen at run time', () => {
  it('a function with several returns: the weakest return answers (no), naming every return and its line, never yes', async () => {
    const q4 = (await tool('ship_branches')).questions.q4;
    expect(q4).toMatchObject({
      verdict: 'no',
      severity: 'error',
      evidence: [
        { file: 'src/stores.ts', line: 22, text: 'createNonDurableMemoryStore()' },
        { file: 'src/stores.ts', line: 23, text: "createSqliteStore({ path: 'x.db' })" },
        { file: 'src/stores.ts', line: 39, text: 'branchRunner.call(…)' },
      ],
    });
    expect(q4.reason).toContain('takes its store from `store`, which is one of 2 stores');
    expect(q4.reason).toContain("(`createNonDurableMemoryStore()` at src/stores.ts:22, `createSqliteStore({ path: 'x.db' })` at src/stores.ts:23)");
    expect(q4.reason).toContain('keeps records in `createNonDurableMemoryStore()` (src/stores.ts:22), which does not outlive the process');
  });

  // New-user trial 5: `createRunner({ store: process.env.X ? createSqliteStore({...}) : createNonDurableMemoryStore() })` read "not visible".
  it('a conditional in the store option: the weakest branch answers (no), naming the conditional and each branch with its line', async () => {
    const q4 = (await tool('pack_inline')).questions.q4;
    expect(q4).toMatchObject({
      verdict: 'no',
      severity: 'error',
      evidence: [
        { file: 'src/chosen-stores.ts', line: 23, text: 'createNonDurableMemoryStore()' },
        { file: 'src/chosen-stores.ts', line: 23, text: "createSqliteStore({ path: 'x.db' })" },
        { file: 'src/chosen-stores.ts', line: 42, text: 'inlineRunner.call(…)' },
      ],
    });
    expect(q4.reason).toContain('which is one of 2 stores, chosen at run time by `process.env.X ? … : …` (src/chosen-stores.ts:23), one for each branch');
    expect(q4.reason).toContain('keeps records in `createNonDurableMemoryStore()` (src/chosen-stores.ts:23), which does not outlive the process');
  });

  it('a const chosen by a conditional (`const store = cond ? a : b`): each branch at its own line', async () => {
    const q4 = (await tool('pack_const')).questions.q4;
    expect(q4).toMatchObject({ verdict: 'no', severity: 'error' });
    expect(q4.evidence.slice(0, 2)).toEqual([
      { file: 'src/chosen-stores.ts', line: 27, text: 'createNonDurableMemoryStore()' },
      { file: 'src/chosen-stores.ts', line: 26, text: 'createPostgresStore(…)' },
    ]);
    expect(q4.reason).toContain('takes its store from `store`, which is one of 2 stores, chosen at run time by `process.env.DATABASE_URL ? … : …` (src/chosen-stores.ts:25)');
  });

  it('every branch durable: yes, citing each branch', async () => {
    const q4 = (await tool('pack_durable')).questions.q4;
    expect(q4.verdict).toBe('yes');
    expect(q4.evidence.map((evidence) => evidence.text)).toEqual(["createSqliteStore({ path: 'ci.db' })", "createSqliteStore({ path: 'x.db' })", 'durableRunner.call(…)']);
  });

  it('`??` between a value not visible and the memory store: no; a durable branch beside one not visible: unknown, never yes', async () => {
    const fallback = (await tool('pack_fallback')).questions.q4;
    expect(fallback).toMatchObject({ verdict: 'no', severity: 'error', evidence: [{ line: 33, text: 'createNonDurableMemoryStore()' }, { line: 33, text: 'given' }, { text: 'fallbackRunner.call(…)' }] });
    expect(fallback.reason).toContain('chosen at run time by `given ?? createNonDurableMemoryStore()` (src/chosen-stores.ts:33)');
    const given = (await tool('pack_given')).questions.q4;
    expect(given).toMatchObject({ verdict: 'unknown', evidence: [{ line: 36, text: 'given' }, { line: 36, text: "createSqliteStore({ path: 'x.db' })" }, { text: 'givenRunner.call(…)' }] });
    expect(given.reason).toContain('it takes its store from `given` (src/chosen-stores.ts:36), which is not visible');
  });

  it('a function with several returns, one not visible: unknown, naming that return, never yes', async () => {
    const q4 = (await tool('pack_returned')).questions.q4;
    expect(q4).toMatchObject({ verdict: 'unknown', evidence: [{ file: 'src/chosen-stores.ts', line: 53, text: 'given' }, { line: 54, text: "createSqliteStore({ path: 'x.db' })" }, { text: 'returnedRunner.call(…)' }] });
    expect(q4.reason).toContain('which is one of 2 stores, each returned by a return of the function it comes from');
    expect(q4.reason).toContain('it takes its store from `given` (src/chosen-stores.ts:53), which is not visible');
  });

  it('a return of `undefined` is no store (createRunner throws without one): the durable choices answer', async () => {
    const q4 = (await tool('pack_maybe')).questions.q4;
    expect(q4.verdict).toBe('yes');
    expect(q4.evidence.map((evidence) => evidence.line)).toEqual([58, 61, 65]);
  });

  it('an allowVolatile that is not static is unknown, naming its value and line', async () => {
    expect((await tool('ship_volatile_env')).questions.q4).toMatchObject({
      verdict: 'unknown',
      reason: expect.stringContaining("whose `allowVolatile` (`process.env.X === '1'`, line 34) is not a static value"),
      evidence: [{ file: 'src/stores.ts', line: 34, text: "process.env.X === '1'" }, { file: 'src/stores.ts', line: 41, text: 'envRunner.call(…)' }],
    });
    expect((await tool('ship_volatile_variable')).questions.q4).toMatchObject({
      verdict: 'unknown',
      reason: expect.stringContaining('whose `allowVolatile` (line 30, a variable) is not a static value'),
    });
  });
});

describe('an AI SDK tool is named by its key in the tool set that holds it', () => {
  const names = async (): Promise<string[]> => (await auditFixture('trial4')).tools.filter((found) => found.framework === 'ai-sdk').map((found) => found.name ?? '');

  it('in a guard: an inline tool, a const of the file, a shorthand, an import from a scanned file', async () => {
    expect(await names()).toEqual(expect.arrayContaining(['issue_refund', 'refund_order', 'cancelOrder', 'charge_card']));
    expect(await names()).not.toContain('refundTool');
    expect(await names()).not.toContain('chargeTool');
    expect((await tool('charge_card')).file).toBe('src/charge-tool.ts');
  });

  it("in the tools of generateText; a computed key stays as it was (the tool's variable)", async () => {
    expect(await names()).toContain('lookup_order');
    expect(await names()).toContain('dynamicTool');
  });

  it('every format calls it by that key: the table, the JSON, SARIF, the Markdown and the YAML', async () => {
    const report = await auditFixture('trial4');
    expect(formatReport(report, 'table')).toMatch(/^refund_order {2}src\/agent\.ts:15 {2}ai-sdk$/m);
    expect(formatReport(report, 'markdown')).toContain('| `refund_order` | `src/agent.ts:15` |');
    const sarif = JSON.parse(formatReport(report, 'sarif')).runs[0].results.map((result: { message: { text: string } }) => result.message.text);
    expect(sarif.some((text: string) => text.startsWith('refund_order: '))).toBe(true);
    expect(sarif.some((text: string) => text.startsWith('refundTool: '))).toBe(false);
    const yaml = formatReport(report, 'yaml');
    expect(yaml).toMatch(/^refund_order:\n(?: {2}.*\n)*? {2}source: src\/agent\.ts:15$/m);
    expect(yaml).not.toMatch(/^refundTool:/m);
    expect(report.tools.find((found) => found.line === 15 && found.file === 'src/agent.ts')?.summary).toMatch(/^refund_order \[/);
  });

  it('a tool under a computed key has no static name: SARIF names it as the table does, by where it is defined', async () => {
    const report = await auditFixture('trial4');
    const nameless = report.tools.find((found) => found.file === 'src/agent.ts' && found.line === 50);
    expect(nameless?.name).toBeNull();
    expect(formatReport(report, 'table')).toContain('(registered at src/agent.ts:50)  src/agent.ts:50  ai-sdk');
    const sarif = JSON.parse(formatReport(report, 'sarif')).runs[0].results.map((result: { message: { text: string } }) => result.message.text);
    expect(sarif.some((text: string) => text.startsWith('(registered at src/agent.ts:50): '))).toBe(true);
    expect(sarif.some((text: string) => text.startsWith('the tool at line'))).toBe(false);
  });
});

describe('the evidence of a guarded tool is the guard call it goes through', () => {
  it.each([
    ['refund_order', 'guardAiSdkTools', 'src/agent.ts', 28],
    ['charge_card', 'guardAiSdkTools', 'src/agent.ts', 28],
    ['agents_refund', 'guardOpenAIAgentsTools', 'src/guards.ts', 33],
    ['langchain_refund', 'guardLangChainTools', 'src/guards.ts', 34],
    ['mastra_refund', 'guardMastraTools', 'src/guards.ts', 35],
  ])('%s: questions 1 to 4 cite `%s(…)` at its line; Q4 says it is guarded, after the store', async (name, guard, file, line) => {
    const { questions } = await tool(name);
    const call = { file, line, text: `${guard}(…)` };
    for (const id of ['q1', 'q2', 'q3'] as const) expect(questions[id], id).toMatchObject({ verdict: 'yes', evidence: [call] });
    expect(questions.q4.verdict).toBe('yes');
    expect(questions.q4.reason).toMatch(new RegExp(`^guarded by \`${guard}\` \\(${file}:${line}\\): its runner keeps records in a durable store`));
    expect(questions.q4.evidence.at(-1)).toEqual(call);
    expect(questions.q4.evidence.map((evidence) => evidence.text)).not.toContain('toAiSdkTool(…)');
  });

  it("a defineTool tool's Q4 cites the adapter it goes through (toAiSdkTool) after its store", async () => {
    expect((await tool('adapted_refund')).questions.q4).toMatchObject({
      verdict: 'yes',
      evidence: [{ file: 'src/guards.ts', line: 15, text: 'createPostgresStore(…)' }, { file: 'src/guards.ts', line: 36, text: 'toAiSdkTool(…)' }],
    });
  });
});

describe('a tool set in a test file names no tool', () => {
  it('tests/agent-set.test.ts holds chargeTool as scaffold_charge: the tool keeps the key src/agent.ts gives it', async () => {
    expect((await tool('charge_card')).file).toBe('src/charge-tool.ts');
    expect((await auditFixture('trial4')).tools.map((found) => found.name)).not.toContain('scaffold_charge');
  });
});

describe('Q5: expectSingleEffect without `effects` shows no single effect of a naturally idempotent tool', () => {
  // new-user trial 5: `expectSingleEffect(addPoints, input)` passed while the balance doubled; Q5 read yes.
  it('without effects: no (warning), naming the test and what to give', async () => {
    const q5 = (await tool('set_points_uncounted')).questions.q5;
    expect(q5).toMatchObject({ verdict: 'no', severity: 'warning', evidence: [{ file: 'tests/points.test.ts', line: 10 }] });
    expect(q5.reason).toBe(
      'tests/points.test.ts:10 calls it through `expectSingleEffect` without `effects`: for a tool declared naturally idempotent that compares the two results only, so a second effect passes; give `effects: () => <count of what it changes>`',
    );
  });

  it('with effects, or options the code does not show: yes, as before', async () => {
    expect((await tool('set_points_counted')).questions.q5.verdict).toBe('yes');
    expect((await tool('set_points_options')).questions.q5.verdict).toBe('yes');
  });

  it('a with_key tool needs no effects: the helper counts its executions', async () => {
    expect((await tool('credit_points')).questions.q5.verdict).toBe('yes');
  });
});

describe('a handler that reaches no effect the analysis knows (new-user trial 6)', () => {
  it('declared idempotent: false: Q1 goes by the declaration (no, warning), and a called-twice test of it cannot pass (Q5 no)', async () => {
    const { q1, q5 } = (await tool('ledger_charge')).questions;
    expect(q1).toMatchObject({ verdict: 'no', severity: 'warning', reason: expect.stringContaining('as declared not safely repeatable (`idempotent: false`): the handler reaches no effect the effects analysis knows') });
    expect(q5).toMatchObject({
      verdict: 'no',
      severity: 'warning',
      reason: expect.stringMatching(/^tests\/declared-unsafe\.test\.ts:7 calls it twice and asserts a single effect, but it is declared not safely repeatable .*: that test cannot pass/),
    });
  });

  it('undeclared: Q3 and Q5 follow question 1 (no effect), as for a tool declared without side effects', async () => {
    const { q1, q3, q5 } = (await tool('search_kb')).questions;
    expect(q1.verdict).toBe('yes');
    for (const answer of [q3, q5]) {
      expect(answer).toMatchObject({ verdict: 'unknown', reason: expect.stringContaining('its handler reaches no effect (every call it makes is known, and none is one, question 1)') });
    }
  });
});

describe('a contradiction names the claim by its own line (new-user trial 6)', () => {
  it('idempotent: true on line 12 of a defineTool that starts on line 8: line 12, where the rule reports it', async () => {
    const { q1 } = (await tool('bump_counter')).questions;
    expect(q1.verdict).toBe('no');
    expect(q1.reason).toContain('contradicts the declared `idempotent: true` (line 12, where `@retrysafe/no-contradicted-policy` reports it)');
  });
});

describe('a relative change its WHERE guards (new-user trial 6)', () => {
  it("Q1 yes says what makes the repeat harmless, not that the write is absolute", async () => {
    const { q1 } = (await tool('complete_order')).questions;
    expect(q1.verdict).toBe('yes');
    expect(q1.reason).toBe("a second call reaches the same end state: its writes are absolute or guarded by their WHERE: `UPDATE orders SET status = 'done', completions = completions + 1`, line 17, changes `completions` relatively only in a row the WHERE no longer matches after the first run");
  });
});
