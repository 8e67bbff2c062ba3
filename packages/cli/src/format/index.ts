import pc from 'picocolors';

import type { AuditReport } from '../report.js';
import { formatMarkdown } from './markdown.js';
import { formatSarif } from './sarif.js';
import { formatTable } from './table.js';
import { type Palette, PLAIN } from './verdicts.js';
import { formatYaml } from './yaml.js';

/** The output formats of `retrysafe audit --format`. */
export const FORMATS = ['table', 'json', 'sarif', 'markdown', 'yaml'] as const;

/** One of {@link FORMATS}. */
export type Format = (typeof FORMATS)[number];

/**
 * Renders a report: `table` for a terminal (coloured when `color` is true), `json` (the report
 * itself, schema/audit-report.schema.json), `sarif` (SARIF 2.1.0 for GitHub code scanning),
 * `markdown` (a pull-request comment) or `yaml` (every tool's policy in the seed's shape).
 * `details: false` leaves each tool's reasons out of the table (the summary, findings and total stay).
 */
export function formatReport(report: AuditReport, format: Format, options: { readonly color?: boolean; readonly details?: boolean } = {}): string {
  switch (format) {
    case 'table':
      return formatTable(report, { palette: options.color ? colors() : PLAIN, details: options.details ?? true });
    case 'json':
      return `${JSON.stringify(report, null, 2)}\n`;
    case 'sarif':
      return formatSarif(report);
    case 'markdown':
      return formatMarkdown(report);
    case 'yaml':
      return formatYaml(report);
  }
}

function colors(): Palette {
  const paint = pc.createColors(true);
  return { green: paint.green, red: paint.red, yellow: paint.yellow, dim: paint.dim, bold: paint.bold };
}

export { AUDIT_RULE_IDS } from './sarif.js';
