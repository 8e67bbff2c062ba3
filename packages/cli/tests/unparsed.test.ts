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
