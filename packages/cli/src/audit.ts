import { createRequire } from 'node:module';
import path from 'node:path';

import { buildReport } from './judge/index.js';
import type { AuditReport } from './report.js';
import { lintTree } from './run/lint.js';

/** Options of {@link audit}. */
export interface AuditOptions {
  /** Files and folders to audit, relative to `cwd`; default `['.']`. */
  readonly paths?: readonly string[];
  /** The folder the run is relative to (ESLint's `cwd`, and the root of every path in the report); default `process.cwd()`. */
  readonly cwd?: string;
  /** An ESLint config file to use instead of looking up the project's `eslint.config.*`. */
  readonly config?: string;
  /** False: ignore the project's config and use the plugin's `recommended` (default true). */
  readonly configLookup?: boolean;
  /** False: audit files the project's config ignores too (default true). */
  readonly ignore?: boolean;
  /** Called after each file with the files done and the total, for a progress bar. */
  readonly onProgress?: (done: number, total: number) => void;
}

const requireHere = createRequire(import.meta.url);

/**
 * Audits every agent tool under `paths`: lints the tree once with ESLint (the project's
 * `eslint.config.*`, or the plugin's `recommended`), records what the plugin's analysis finds in
 * each file, links tools, runners and tests across files, and answers the seed's five audit
 * questions for each tool ("Retry Semantics: Which Tools Are Safe to Call Twice", docs/concepts.md).
 *
 * @param options - see {@link AuditOptions}.
 * @returns the report, in the shape of `schema/audit-report.schema.json` (version {@link AuditReport.schemaVersion}).
 *   A file that does not parse is listed in `files.errors` and the run goes on.
 * @throws MissingPathError when a path does not exist; ESLint's own error when its config cannot be loaded.
 */
export async function audit(options: AuditOptions = {}): Promise<AuditReport> {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const outcome = await lintTree({
    cwd,
    paths: options.paths && options.paths.length > 0 ? options.paths : ['.'],
    configFile: options.config,
    configLookup: options.configLookup ?? true,
    ignore: options.ignore ?? true,
    onProgress: options.onProgress,
  });
  return buildReport({
    root: cwd,
    config: outcome.config,
    generator: generator(),
    files: outcome.files,
    findings: outcome.findings,
    errors: outcome.errors,
  });
}

function generator(): AuditReport['generator'] {
  const own = requireHere('../package.json') as { name: string; version: string };
  const plugin = requireHere('@retrysafe/eslint-plugin/package.json') as { version: string };
  return { name: own.name, version: own.version, pluginVersion: plugin.version };
}
