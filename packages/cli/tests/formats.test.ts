import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { type AuditReport, type Format, formatReport, FORMATS } from '../src/index.js';
import { auditFixture, fixture, ghIngestionProblems, portable, REPORT_SCHEMA_FILE, SARIF_SCHEMA_FILE, validator } from './support.js';

// Golden outputs of every format on the fixture that covers each framework and each verdict
// (UPDATE_GOLDEN=1 rewrites them), the JSON against the report's schema, and the SARIF against
// the official SARIF 2.1.0 schema and GitHub's ingestion rules (the SARIF Multitool's `Gh` rules).

const here = path.dirname(fileURLToPath(import.meta.url));
const EXTENSIONS: Record<Format, string> = { table: 'txt', json: 'json', sarif: 'sarif', markdown: 'md', yaml: 'yaml' };

const rendered = async (format: Format): Promise<string> => formatReport(portable(await auditFixture('tools')), format);

describe('golden outputs of every format (tests/fixtures/tools)', () => {
  it.each(FORMATS)('%s', async (format) => {
    const output = await rendered(format);
    const golden = path.join(here, 'golden', `tools.${EXTENSIONS[format]}`);
    if (process.env.UPDATE_GOLDEN === '1' || !existsSync(golden)) writeFileSync(golden, output);
    expect(output).toBe(readFileSync(golden, 'utf8'));
  });
});

describe('--format json', () => {
  it('matches the shipped, versioned JSON Schema', async () => {
    const validate = validator(REPORT_SCHEMA_FILE);
    const report = JSON.parse(await rendered('json'));
    expect(validate(report) ? [] : validate.errors).toEqual([]);
    expect(report.schemaVersion).toBe(1);
  });

  it('the schema rejects a report with a "no" verdict that has no severity', async () => {
    const validate = validator(REPORT_SCHEMA_FILE);
    const report = JSON.parse(await rendered('json'));
    const broken = report.tools.find((tool: { questions: { q2: { verdict: string } } }) => tool.questions.q2.verdict === 'no');
    delete broken.questions.q2.severity;
    expect(validate(report)).toBe(false);
  });
});

describe('the closing line says what its errors and warnings count', () => {
  it('"no" verdicts + rule findings = errors + warnings: one SARIF result each', async () => {
    const report = JSON.parse(await rendered('json')) as AuditReport;
    const sarif = JSON.parse(await rendered('sarif')) as { runs: { results: unknown[] }[] };
    const answers = report.tools.flatMap((tool) => Object.values(tool.questions)).filter((answer) => answer.verdict === 'no');
    const following = answers.filter((answer) => answer.followsFrom !== undefined).length;
    const verdictsNo = answers.length - following;
    const line = `${verdictsNo} "no" verdicts (${following} more follow from question 1) + ${report.findings.length} rule findings = ${report.summary.errors} errors + ${report.summary.warnings} warnings`;
    expect(verdictsNo + report.findings.length).toBe(report.summary.errors + report.summary.warnings);
    expect(sarif.runs[0]?.results).toHaveLength(verdictsNo + report.findings.length);
    expect(await rendered('table')).toContain(` · ${line} · `);
    expect(await rendered('markdown')).toContain(` · ${line} · `);
    expect(await rendered('table')).toMatch(/files scanned \(\d+ test files, 1 not parsed\)\n$/);
  });
});

describe('a declaration question 1 refutes is one fault', () => {
  it('Q2-Q5 follow from Q1: one SARIF result for the tool, naming them, and counted once', async () => {
    const report = JSON.parse(await rendered('json')) as AuditReport;
    const sarif = JSON.parse(await rendered('sarif')) as { runs: { results: { ruleId: string; message: { text: string } }[] }[] };
    const tool = report.tools.find((candidate) => candidate.name === 'quick_charge');
    expect(tool?.questions.q1).toMatchObject({ verdict: 'no', severity: 'error' });
    expect(tool?.questions.q1.followsFrom).toBeUndefined();
    for (const id of ['q2', 'q3', 'q4', 'q5'] as const) {
      expect(tool?.questions[id]).toMatchObject({ verdict: 'no', severity: 'error', followsFrom: 'q1' });
      expect(tool?.questions[id].reason).toMatch(/^follows from question 1: the declared read-only `readOnlyHint: true` \(line 10\)/);
    }
    const results = sarif.runs[0]?.results.filter((result) => result.ruleId.startsWith('retrysafe-audit/') && result.message.text.startsWith('quick_charge: ')) ?? [];
    expect(results.map((result) => result.ruleId)).toEqual(['retrysafe-audit/called-twice-effect']);
    expect(results[0]?.message.text).toMatch(/\(so Q2, Q3, Q4, Q5 also answer no: deterministic key, replay flag, durable record, called-twice test\)$/);
  });
});

describe('--format sarif', () => {
  it('is valid against the official SARIF 2.1.0 JSON schema', async () => {
    const validate = validator(SARIF_SCHEMA_FILE);
    const log = JSON.parse(await rendered('sarif'));
    expect(validate(log) ? [] : validate.errors).toEqual([]);
    expect(log.version).toBe('2.1.0');
  });

  it("passes GitHub code scanning's ingestion rules (SARIF Multitool validate --rule-kind Gh;Sarif)", async () => {
    expect(ghIngestionProblems(await rendered('sarif'))).toEqual([]);
  });

  it('keeps the plugin\'s rule ids and help links, and names each question\'s rule and its docs', async () => {
    const log = JSON.parse(await rendered('sarif'));
    const rules = new Map<string, { helpUri?: string }>(log.runs[0].tool.driver.rules.map((rule: { id: string }) => [rule.id, rule]));
    expect(rules.get('@retrysafe/no-random-key')?.helpUri).toBe('https://github.com/retrysafe/retrysafe/blob/main/packages/eslint-plugin/docs/rules/no-random-key.md');
    expect(rules.get('retrysafe-audit/deterministic-key')?.helpUri).toMatch(/docs\/audit\.md#q2-/);
    for (const result of log.runs[0].results) {
      expect(result.partialFingerprints['retrysafeAudit/v1']).toMatch(/^[0-9a-f]{32}$/);
      expect(result.locations[0].physicalLocation.artifactLocation.uriBaseId).toBe('%SRCROOT%');
    }
    expect(log.runs[0].automationDetails.id).toBe('retrysafe-audit/');
    expect(log.runs[0].invocations[0].toolExecutionNotifications[0].message.text).toMatch(/^Not parsed, skipped/);
  });
});

describe('--format yaml', () => {
  it('parses back to every named tool\'s policy in the seed\'s shape', async () => {
    const { parse } = await import('yaml');
    const policies = parse(await rendered('yaml'));
    expect(policies.issue_refund).toMatchObject({ side_effects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', max_attempts: 1, declared: true });
    expect(policies.lookup_order).toMatchObject({ side_effects: 'none', idempotent: true, retry: 'safe' });
    expect(policies.send_sms).toEqual({ declared: false, framework: expect.any(String), source: expect.any(String) });
    expect(policies.archive_order).toMatchObject({ idempotent: true, declared: true, unknown: ['side_effects', 'retry'], hints: { destructiveHint: true, idempotentHint: true }, reason: expect.stringContaining('MCP annotations') });
    // Hints are not a retry policy: no `retry` is written for them (new-user trial 3: the Policy column read `safe`).
    expect(policies.archive_order).not.toHaveProperty('retry');
    expect(policies.read_config).not.toHaveProperty('retry');
  });

  it('never emits a null field (found by a new-user trial: a spread policy came out as side_effects: null ... declared: true)', async () => {
    const { parse } = await import('yaml');
    for (const [name, entry] of Object.entries(parse(await rendered('yaml')) as Record<string, Record<string, unknown>>)) {
      for (const [field, value] of Object.entries(entry)) expect(value, `${name}.${field}`).not.toBeNull();
    }
  });
});

describe('the header', () => {
  it('counts in the singular for one (found by a new-user trial: "1 tool in 1 files")', async () => {
    const table = formatReport(await auditFixture('clean'), 'table');
    expect(table.split('\n')[0]).toBe("retrysafe audit: 1 tool in 1 file (ESLint config: the plugin's recommended config)");
  });
});

describe('SARIF links to an effect at its call', () => {
  // Found by a new-user trial: every relatedLocation said startColumn 1 (`fetch` at col ~23).
  it("gives the effect call's column, the same as the JSON evidence's, and the source has the call there", async () => {
    const report = await auditFixture('tools');
    const log = JSON.parse(formatReport(report, 'sarif'));
    const effects = report.tools.flatMap((tool) => tool.effects.operations.map((operation) => operation.evidence));
    const related = log.runs[0].results.flatMap((result: { relatedLocations?: unknown[] }) => result.relatedLocations ?? []) as {
      physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number; startColumn: number } };
      message: { text: string };
    }[];
    const linked = related.filter(({ physicalLocation: { artifactLocation, region }, message }) =>
      effects.some((effect) => effect.file === artifactLocation.uri && effect.line === region.startLine && effect.text === message.text));
    expect(linked.length).toBeGreaterThan(0);
    for (const { physicalLocation: { artifactLocation, region }, message } of linked) {
      const effect = effects.find((candidate) => candidate.file === artifactLocation.uri && candidate.line === region.startLine && candidate.text === message.text);
      expect(region.startColumn).toBe(effect?.column);
      const line = readFileSync(path.join(fixture('tools'), artifactLocation.uri), 'utf8').split('\n')[region.startLine - 1] ?? '';
      expect(line.slice(region.startColumn - 1), `${artifactLocation.uri}:${region.startLine}`).toMatch(/^(new |await )?[A-Za-z_$(`]/);
      expect(line.slice(0, region.startColumn - 1)).not.toMatch(/[A-Za-z0-9_$.]$/);
    }
    expect(linked.some(({ physicalLocation: { region } }) => region.startColumn > 1)).toBe(true);
  });
});

// New-user trial: without colour, the table showed ✗ for errors and warnings alike, while the
// Markdown tells them apart (❌, ⚠️).
describe('the table marks a warning-level "no" apart from an error without colour', () => {
  it('✗ for an error, ! for a warning, in each tool\'s block and the summary, and the legend says so', async () => {
    const report = await auditFixture('tools');
    const table = formatReport(report, 'table');
    const answers = report.tools.flatMap((tool) => Object.values(tool.questions).filter((answer) => answer.verdict === 'no'));
    expect(answers.some((answer) => answer.severity === 'error') && answers.some((answer) => answer.severity === 'warning')).toBe(true);
    const rows = table.split('\n').filter((line) => line.startsWith('│ ') && !line.startsWith('│ Tool '));
    expect(rows).toHaveLength(report.tools.length);
    report.tools.forEach((tool, index) => {
      const cells = rows[index]?.split('│').map((cell) => cell.trim()).slice(5, 10);
      const marks = Object.values(tool.questions).map((answer) => (answer.verdict === 'no' ? (answer.severity === 'error' ? '✗' : '!') : undefined));
      cells?.forEach((cell, question) => {
        if (marks[question]) expect(cell).toBe(marks[question]);
      });
    });
    expect(table).toMatch(/Q\d [a-z-]+ [a-z ]+:\s+! no  /);
    expect(table).toContain('✓ yes · ✗ no (error) · ! no (warning) · ? unknown · – does not apply');
  });
});
