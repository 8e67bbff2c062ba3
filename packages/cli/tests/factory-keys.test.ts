import { describe, expect, it } from 'vitest';

import type { ToolAudit } from '../src/index.js';
import { auditFixture } from './support.js';

// A key built from a parameter of the function that makes the tool (tests/fixtures/factory-keys:
// src/tools.ts defines the factories, src/main.ts opens the run with openRun and calls them). Q2 is
// as durable as what the calls give that parameter: it follows the call when it can name it.

const q2 = async (file: string, line: number): Promise<ToolAudit['questions']['q2']> => {
  const found = (await auditFixture('factory-keys')).tools.find((tool) => tool.file === file && tool.line === line);
  if (!found) throw new Error(`no tool at ${file}:${line}`);
  return found.questions.q2;
};

describe('a factory given the run openRun opens', () => {
  it('makeRefundTool(run) with run.id in the key: yes, naming the call and the openRun call', async () => {
    expect(await q2('src/tools.ts', 14)).toMatchObject({
      verdict: 'yes',
      reason: expect.stringContaining('`run.id` reads a parameter of `makeRefundTool` (line 12), which makes the tool, and its call at src/main.ts:14 gives it the id of the run `openRun(…)` opens (src/main.ts:13)'),
      evidence: [
        { file: 'src/tools.ts', line: 14 },
        { file: 'src/main.ts', line: 14, text: 'makeRefundTool(run)' },
        { file: 'src/main.ts', line: 13, text: 'openRun(…)' },
      ],
    });
  });

  it('makeTools({ runId: run.id }) with a destructured parameter, the tool in the object it returns', async () => {
    expect(await q2('src/tools.ts', 22)).toMatchObject({
      verdict: 'yes',
      evidence: [expect.anything(), { file: 'src/main.ts', line: 15, text: 'makeTools({ runId: run.id })' }, { file: 'src/main.ts', line: 13 }],
    });
  });

  it('a factory that registers its tool instead of returning it (registerTools(server, { runId: run.id }))', async () => {
    expect(await q2('src/tools.ts', 30)).toMatchObject({
      verdict: 'yes',
      reason: expect.stringContaining('`options.runId` reads a parameter of `registerTools` (line 29)'),
      evidence: [expect.anything(), { file: 'src/main.ts', line: 16 }, { file: 'src/main.ts', line: 13 }],
    });
  });

  it('the run opened in the same function, read in place: yes, naming openRun', async () => {
    expect(await q2('src/main.ts', 21)).toMatchObject({
      verdict: 'yes',
      reason: expect.stringContaining('the run is the one `openRun(…)` opens (line 13), whose id is stored for its origin'),
      evidence: [{ file: 'src/main.ts', line: 21 }, { file: 'src/main.ts', line: 13, text: 'openRun(…)' }],
    });
  });
});

describe('a class that takes the run in its constructor (new RefundTools(run))', () => {
  it('a parameter property read as this.run.id: yes, naming the new and openRun', async () => {
    expect(await q2('src/tools.ts', 53)).toMatchObject({
      verdict: 'yes',
      reason: expect.stringContaining('`this.run.id` reads a parameter of `RefundTools` (line 50), which makes the tool, and its call at src/main.ts:38 gives it the id of the run `openRun(…)` opens (src/main.ts:37)'),
      evidence: [expect.anything(), { file: 'src/main.ts', line: 38, text: 'new RefundTools(run)' }, { file: 'src/main.ts', line: 37, text: 'openRun(…)' }],
    });
  });

  it('a parameter the constructor assigns (this.runId = runId), given randomUUID(): no', async () => {
    expect(await q2('src/tools.ts', 65)).toMatchObject({
      verdict: 'no',
      reason: expect.stringContaining('`this.runId` reads a parameter of `DisputeTools` (line 60)'),
      evidence: [expect.anything(), { file: 'src/main.ts', line: 38, text: 'new DisputeTools(randomUUID())' }, { file: 'src/main.ts', line: 38, text: 'randomUUID()' }],
    });
  });
});

describe('what the calls cannot settle stays unknown; a random argument is a no', () => {
  it('a factory given randomUUID(): no, error, naming the call and the source', async () => {
    expect(await q2('src/tools.ts', 37)).toMatchObject({
      verdict: 'no',
      severity: 'error',
      reason: expect.stringContaining('the call at src/main.ts:17 gives it `randomUUID()` (line 17), which is new each time the tool is made'),
      evidence: [expect.anything(), { file: 'src/main.ts', line: 17, text: 'makeChargeTool(randomUUID())' }, { file: 'src/main.ts', line: 17, text: 'randomUUID()' }],
    });
  });

  it('a factory no source file calls (a test\'s call does not count): unknown, naming the factory', async () => {
    expect(await q2('src/tools.ts', 41)).toMatchObject({
      verdict: 'unknown',
      reason: expect.stringContaining('`run.id` reads a parameter of `makeVoidTool` (line 40), which makes the tool, and no call of it in the scanned code shows what it is given'),
      evidence: [expect.anything(), { file: 'src/tools.ts', line: 40, text: 'makeVoidTool' }],
    });
  });

  it("a factory given its caller's parameter: unknown, naming the call", async () => {
    expect(await q2('src/tools.ts', 45)).toMatchObject({
      verdict: 'unknown',
      reason: expect.stringContaining('the call at src/main.ts:18 gives it `context.runId`, which the audit cannot follow to durable state'),
      evidence: [expect.anything(), { file: 'src/main.ts', line: 18, text: 'makeNoteTool(context)' }],
    });
  });

  it('a run opened from randomUUID() is not durable: its id is not called derived', async () => {
    expect(await q2('src/main.ts', 31)).toMatchObject({ verdict: 'unknown', evidence: [{ file: 'src/main.ts', line: 31 }] });
  });
});
