import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

import { audit, type AuditOptions } from '../src/index.js';
import type { AuditReport, ToolAudit } from '../src/report.js';

/** The folder of a fixture project under tests/fixtures. */
export const fixture = (name: string): string => path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', name);

const runs = new Map<string, Promise<AuditReport>>();

/**
 * The audit of a fixture, run once per options for the whole test file. The fixtures sit inside
 * the repository, whose own eslint.config.mjs ignores tests/: they are audited with the plugin's
 * recommended config unless a test says otherwise.
 */
export function auditFixture(name: string, options: AuditOptions = {}): Promise<AuditReport> {
  const key = `${name}\n${JSON.stringify(options)}`;
  let run = runs.get(key);
  if (!run) runs.set(key, (run = audit({ cwd: fixture(name), configLookup: false, ...options })));
  return run;
}

/** One tool of a fixture's audit, by name; throws when the audit found none of that name. */
export async function auditedTool(fixtureName: string, name: string): Promise<ToolAudit> {
  const found = (await auditFixture(fixtureName)).tools.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no tool ${name} in the audit of fixtures/${fixtureName}`);
  return found;
}

/** The report with its machine-dependent root replaced, for golden files. */
export function portable(report: AuditReport): AuditReport {
  return { ...report, root: '<root>' };
}

const requireHere = createRequire(import.meta.url);
const multitoolDir = path.dirname(requireHere.resolve('@microsoft/sarif-multitool-linux/package.json'));

/** The report's shipped JSON Schema. */
export const REPORT_SCHEMA_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), '../schema/audit-report.schema.json');

/** The official SARIF 2.1.0 JSON schema, as the SARIF Multitool ships it. */
export const SARIF_SCHEMA_FILE = path.join(multitoolDir, 'sarif-2.1.0.json');

/** An ajv (JSON Schema 2020-12, with formats) validator of a schema file. */
export function validator(schemaFile: string) {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats.default(ajv);
  return ajv.compile(JSON.parse(readFileSync(schemaFile, 'utf8')));
}

/**
 * What GitHub code scanning's ingestion rules find wrong with a SARIF log (the SARIF Multitool's
 * `validate --rule-kind Gh;Sarif`), as `ruleId message` lines; notes are left out.
 */
export function ghIngestionProblems(sarif: string): string[] {
  const temp = mkdtempSync(path.join(tmpdir(), 'retrysafe-sarif-'));
  try {
    const input = path.join(temp, 'audit.sarif');
    const output = path.join(temp, 'validation.sarif');
    writeFileSync(input, sarif);
    execFileSync(path.join(multitoolDir, 'Sarif.Multitool'), ['validate', input, '--rule-kind', 'Gh;Sarif', '-o', output, '--log', 'ForceOverwrite'], {
      stdio: 'pipe',
      env: { ...process.env, DOTNET_CLI_TELEMETRY_OPTOUT: '1' },
    });
    const validation = JSON.parse(readFileSync(output, 'utf8'));
    const problems = validation.runs[0].results.filter((result: { level?: string }) => result.level !== 'note');
    return problems.map((result: { ruleId: string; message: unknown }) => `${result.ruleId} ${JSON.stringify(result.message)}`);
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}
