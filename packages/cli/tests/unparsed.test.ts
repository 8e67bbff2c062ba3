import { describe, expect, it } from 'vitest';

import { formatReport } from '../src/index.js';
import { auditFixture, ghIngestionProblems, REPORT_SCHEMA_FILE, SARIF_SCHEMA_FILE, validator } from './support.js';

// A file the parser gives no position for: the new-user trial's p1, whose tests/ is not in the
// tsconfig's include, so the project service cannot parse tests/refund.test.ts ("was not found by
// the project service"). Before, the table printed `file:undefined:undefined`, the JSON entry had no
// line (against the shipped schema) and the SARIF region was `{ startLine: null, startColumn: null }`.

const report = () => auditFixture('unlisted-test', { configLookup: true });

describe('a file-level parse error (no line or column from the parser)', () => {
  it('is listed as a file, without a position', async () => {
    const { files } = await report();
    expect(files.errors).toEqual([{ file: 'tests/refund.test.ts', message: expect.stringContaining('was not found by the project service') }]);
  });

  it('--format json matches the shipped schema', async () => {
    const validate = validator(REPORT_SCHEMA_FILE);
    const json = JSON.parse(formatReport(await report(), 'json'));
    expect(validate(json) ? [] : validate.errors).toEqual([]);
  });

  it('--format sarif is valid SARIF 2.1.0 and passes GitHub\'s ingestion rules: the notification names the file, without a region', async () => {
    const sarif = formatReport(await report(), 'sarif');
    const validate = validator(SARIF_SCHEMA_FILE);
    const log = JSON.parse(sarif);
    expect(validate(log) ? [] : validate.errors).toEqual([]);
    expect(ghIngestionProblems(sarif)).toEqual([]);
    const [notification] = log.runs[0].invocations[0].toolExecutionNotifications;
    expect(notification.locations[0].physicalLocation).toEqual({ artifactLocation: { uri: 'tests/refund.test.ts', uriBaseId: '%SRCROOT%' } });
  });

  it.each(['table', 'markdown'] as const)('--format %s names the file without an undefined position', async (format) => {
    const output = formatReport(await report(), format);
    expect(output).not.toMatch(/undefined|null|NaN/);
    expect(output).toMatch(/tests\/refund\.test\.ts`? +Parsing error: .*was not found by the project service/);
  });
});

describe('an answer resting on what the scanned files lack says a file could not be read (the trial: "no test files among the scanned files" while the test was only skipped)', () => {
  const tool = async (name: string) => {
    const found = (await report()).tools.find((candidate) => candidate.name === name);
    if (!found) throw new Error(`no tool ${name}`);
    return found;
  };

  it('Q5 with no test file read: unknown, naming the file that could not be parsed', async () => {
    const { q5 } = (await tool('issue_refund_good')).questions;
    expect(q5.verdict).toBe('unknown');
    expect(q5.reason).not.toContain('no test files among the scanned files');
    expect(q5.reason).toContain('1 file could not be parsed (tests/refund.test.ts)');
  });

  it('Q5 "no test calls it twice" is unknown while a file named like a test could not be parsed', async () => {
    const { q5 } = (await tool('add_note')).questions;
    expect(q5).toMatchObject({ verdict: 'unknown', reason: expect.stringMatching(/^src\/notes\.test\.ts imports it, but no test calls it twice .*; but 1 file could not be parsed \(tests\/refund\.test\.ts\), so a called-twice test there would not be seen: the answer may be incomplete$/) });
    expect(q5.severity).toBeUndefined();
  });

  it('Q4 "no runner call of this tool" says a runner call may be in the file not read', async () => {
    expect((await tool('add_note')).questions.q4).toMatchObject({ verdict: 'unknown', reason: expect.stringContaining('no runner call of this tool in the scanned source files, so its store is not visible; but 1 file could not be parsed (tests/refund.test.ts)') });
  });

  it('a "no" stays a "no" when no file named like a test failed to parse, and still says a file was skipped (fixtures/tools: src/broken.ts)', async () => {
    const tools = await auditFixture('tools');
    const found = tools.tools.find((candidate) => candidate.name === 'post_message');
    expect(found?.questions.q5).toMatchObject({ verdict: 'no', severity: 'warning', reason: expect.stringContaining('; but 1 file could not be parsed (src/broken.ts)') });
  });
});
