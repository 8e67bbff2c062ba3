import path from 'node:path';
import { fileURLToPath } from 'node:url';

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
