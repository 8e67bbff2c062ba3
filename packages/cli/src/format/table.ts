import Table from 'cli-table3';

import { codeSpan } from '../collect/analysis.js';
import { type AuditReport, QUESTION_LABEL, QUESTIONS, type ToolAudit, fileErrorPlace, toolLabel } from '../report.js';
import { describePolicy, MARK_LEGEND, type Palette, PLAIN, plural, totalLine, verdictMark } from './verdicts.js';

// The human format: per tool its name, place, framework, policy, effects and the five answers with
// their reasons; then a one-line summary per tool as a table, and the total.

/** Options of {@link formatTable}. */
export interface TableOptions {
  /** Colours; plain when colour is off. */
  readonly palette?: Palette;
  /** False: only the summary table, the findings and the total, without each tool's reasons. */
  readonly details?: boolean;
}

/** Renders the report for a terminal. */
export function formatTable(report: AuditReport, { palette = PLAIN, details = true }: TableOptions = {}): string {
  const lines: string[] = [];
  const config = report.config.kind === 'recommended' ? "the plugin's recommended config" : report.config.file;
  lines.push(palette.bold(`retrysafe audit: ${plural(report.tools.length, 'tool')} in ${plural(report.files.scanned, 'file')} (ESLint config: ${config})`), '');
  if (details) for (const tool of report.tools) lines.push(...toolBlock(tool, palette), '');
  if (report.tools.length > 0) lines.push(palette.bold('Summary'), summaryTable(report, palette), palette.dim(MARK_LEGEND), '');
  if (report.findings.length > 0) {
    lines.push(palette.bold('Rule findings'));
    for (const finding of report.findings) {
      const level = finding.severity === 'error' ? palette.red('error') : palette.yellow('warning');
      lines.push(`  ${finding.file}:${finding.line}:${finding.column}  ${level}  ${finding.message}  ${palette.dim(finding.ruleId)}`);
    }
    lines.push('');
  }
  if (report.files.errors.length > 0) {
    lines.push(palette.bold('Files not parsed (skipped)'));
    for (const error of report.files.errors) lines.push(`  ${fileErrorPlace(error)}  ${palette.red(error.message)}`);
    lines.push('');
  }
  // Advice that would change answers: said once, before the total.
  if (report.summary.withoutTypes) lines.push(palette.yellow(`Hint: ${report.summary.withoutTypes.hint}.`), '');
  lines.push(totalLine(report));
  return `${lines.join('\n')}\n`;
}

/** Where an effect is: its line in the tool's file, or file and line when the analysis followed a helper into another (new-user trial 8: 'line 3' of another file read as the tool file's). */
function effectPlace(tool: ToolAudit, evidence: { readonly file: string; readonly line: number }): string {
  return evidence.file === tool.file ? `line ${evidence.line}` : `${evidence.file}:${evidence.line}`;
}

function toolBlock(tool: ToolAudit, palette: Palette): string[] {
  const name = toolLabel(tool);
  const effects = tool.effects.available
    ? tool.effects.operations.map((effect) => `${effect.kind} ${codeSpan(effect.operation)} (${effectPlace(tool, effect.evidence)})`).join('; ') || 'none found'
    : palette.dim('not analysed (the handler is not in this file)');
  const lines = [
    `${palette.bold(name)}  ${tool.file}:${tool.line}  ${palette.dim(tool.framework)}`,
    `  policy   ${tool.policy || tool.hints ? describePolicy(tool.policy, tool.hints) : palette.red('undeclared')}`,
    `  effects  ${effects}`,
  ];
  for (const id of QUESTIONS) {
    const answer = tool.questions[id];
    const label = `${QUESTION_LABEL[id]}:`.padEnd(19);
    lines.push(`  ${id.toUpperCase()} ${label}${verdictMark(answer, palette, true)}  ${answer.reason}`);
  }
  return lines;
}

function summaryTable(report: AuditReport, palette: Palette): string {
  const table = new Table({
    head: ['Tool', 'Location', 'Framework', 'Policy', ...QUESTIONS.map((id) => id.toUpperCase())],
    style: { head: [], border: [], compact: true },
    chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
  });
  for (const tool of report.tools) {
    table.push([
      toolLabel(tool),
      `${tool.file}:${tool.line}`,
      tool.framework,
      describePolicy(tool.policy, tool.hints),
      ...QUESTIONS.map((id) => verdictMark(tool.questions[id], palette)),
    ]);
  }
  return table.toString();
}
