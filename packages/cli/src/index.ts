/**
 * `@retrysafe/cli`: `retrysafe audit` as a library. `audit(options)` returns the report that
 * `retrysafe audit --format json` prints; the formatters render it as the other formats do.
 *
 * ```ts
 * import { audit, formatReport } from '@retrysafe/cli';
 * const report = await audit({ paths: ['src', 'tests'] });
 * console.log(formatReport(report, 'markdown'));
 * ```
 *
 * @module
 */
export { audit, type AuditOptions } from './audit.js';
export { MissingPathError } from './run/files.js';
export * from './report.js';
export { formatReport, FORMATS, type Format, AUDIT_RULE_IDS } from './format/index.js';
export { runCli, failsOn, EXIT, FAIL_ON, type CliIo } from './cli.js';
