import { expect, it } from 'vitest';

import type { ToolAudit } from '../src/index.js';
import { auditFixture } from './support.js';

// A key built from a parameter of the function (or class) that makes the tool
// (tests/fixtures/factory-keys: src/tools.ts defines the factories, src/main.ts opens the run with
// openRun and calls them). Q2 is as durable as what the calls give that parameter: it follows the
// call when it can name it, and stays unknown when it cannot. One row per shape: the tool's line in
// its file, and what Q2 must say.

const q2 = async (file: string, line: number): Promise<ToolAudit['questions']['q2']> => {
  const found = (await auditFixture('factory-keys')).tools.find((tool) => tool.file === file && tool.line === line);
  if (!found) throw new Error(`no tool at ${file}:${line}`);
  return found.questions.q2;
};

const OPEN_RUN = { file: 'src/main.ts', line: 13, text: 'openRun(…)' };

it.each([
  [
    'makeRefundTool(run) with run.id in the key: yes, naming the call and the openRun call',
    'src/tools.ts', 14, 'yes',
    '`run.id` reads a parameter of `makeRefundTool` (line 12), which makes the tool, and its call at src/main.ts:14 gives it the id of the run `openRun(…)` opens (src/main.ts:13)',
    [{ file: 'src/tools.ts', line: 14 }, { file: 'src/main.ts', line: 14, text: 'makeRefundTool(run)' }, OPEN_RUN],
  ],
  [
    'makeTools({ runId: run.id }) with a destructured parameter, the tool in the object it returns',
    'src/tools.ts', 22, 'yes', '`runId` reads a parameter of `makeTools` (line 19)',
    [expect.anything(), { file: 'src/main.ts', line: 15, text: 'makeTools({ runId: run.id })' }, OPEN_RUN],
  ],
  [
    'a factory that registers its tool instead of returning it (registerTools(server, { runId: run.id }))',
    'src/tools.ts', 30, 'yes', '`options.runId` reads a parameter of `registerTools` (line 29)',
    [expect.anything(), { file: 'src/main.ts', line: 16 }, OPEN_RUN],
  ],
  [
    'the run opened in the same function, read in place: yes, naming openRun',
    'src/main.ts', 21, 'yes', 'the run is the one `openRun(…)` opens (line 13), whose id is stored for its origin',
    [{ file: 'src/main.ts', line: 21 }, OPEN_RUN],
  ],
  [
    'a class whose constructor takes the run as a parameter property, read as this.run.id (new RefundTools(run))',
    'src/tools.ts', 53, 'yes',
    '`this.run.id` reads a parameter of `RefundTools` (line 50), which makes the tool, and its call at src/main.ts:38 gives it the id of the run `openRun(…)` opens (src/main.ts:37)',
    [expect.anything(), { file: 'src/main.ts', line: 38, text: 'new RefundTools(run)' }, { file: 'src/main.ts', line: 37, text: 'openRun(…)' }],
  ],
  [
    'a factory given randomUUID(): no, naming the call and the source',
    'src/tools.ts', 37, 'no', 'the call at src/main.ts:17 gives it `randomUUID()` (line 17), which is new each time the tool is made',
    [expect.anything(), { file: 'src/main.ts', line: 17, text: 'makeChargeTool(randomUUID())' }, { file: 'src/main.ts', line: 17, text: 'randomUUID()' }],
  ],
  [
    'a constructor that assigns its parameter (this.runId = runId), given randomUUID(): no',
    'src/tools.ts', 65, 'no', '`this.runId` reads a parameter of `DisputeTools` (line 60)',
    [expect.anything(), { file: 'src/main.ts', line: 38, text: 'new DisputeTools(randomUUID())' }, { file: 'src/main.ts', line: 38, text: 'randomUUID()' }],
  ],
  [
    "a factory no source file calls (a test's call does not count): unknown, naming the factory",
    'src/tools.ts', 41, 'unknown', '`run.id` reads a parameter of `makeVoidTool` (line 40), which makes the tool, and no call of it in the scanned source files gives it the id of a run `openRun` opens (or a random value)',
    [expect.anything(), { file: 'src/tools.ts', line: 40, text: 'makeVoidTool' }],
  ],
  [
    "a factory given its caller's parameter (makeNoteTool(context)): unknown, naming the factory",
    'src/tools.ts', 45, 'unknown', '`context.runId` reads a parameter of `makeNoteTool` (line 44), which makes the tool, and no call of it in the scanned source files gives it the id of a run',
    [expect.anything(), { file: 'src/tools.ts', line: 44, text: 'makeNoteTool' }],
  ],
  [
    'a run opened from randomUUID() is not durable: its id is not called derived',
    'src/main.ts', 31, 'unknown', 'which is not visibly derived from the work',
    [{ file: 'src/main.ts', line: 31 }],
  ],
] as const)('%s', async (_shape, file, line, verdict, reason, evidence) => {
  const answer = await q2(file, line);
  expect(answer).toMatchObject({ verdict, reason: expect.stringContaining(reason), evidence });
  if (verdict === 'no') expect(answer).toMatchObject({ severity: 'error' });
});
