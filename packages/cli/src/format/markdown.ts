import { codeSpan } from '../collect/analysis.js';
import { type AuditReport, QUESTION_TEXT, QUESTIONS, fileErrorPlace, toolLabel } from '../report.js';
import { describePolicy, totalLine, verdictEmoji } from './verdicts.js';

// A pull-request comment: the summary table first (what a reviewer reads), the reasons folded
// below it, then the rule findings and the files that did not parse.

/** Renders the report as GitHub-flavoured Markdown for a pull-request comment. */
export function formatMarkdown(report: AuditReport): string {
  const out: string[] = ['## retrysafe audit', '', totalLine(report), ''];
  // The same advice the table prints before its total.
  if (report.summary.withoutTypes) out.push(`> ${report.summary.withoutTypes.hint}.`, '');
  if (report.tools.length > 0) {
    out.push(`| Tool | Location | Framework | Policy | ${QUESTIONS.map((id) => id.toUpperCase()).join(' | ')} |`);
    out.push(`|---|---|---|---|${QUESTIONS.map(() => ':-:').join('|')}|`);
    for (const tool of report.tools) {
      const verdicts = QUESTIONS.map((id) => verdictEmoji(tool.questions[id])).join(' | ');
      out.push(`| ${code(toolLabel(tool))} | ${code(`${tool.file}:${tool.line}`)} | ${tool.framework} | ${cell(describePolicy(tool.policy, tool.hints))} | ${verdicts} |`);
    }
    out.push('', QUESTIONS.map((id) => `**${id.toUpperCase()}** ${QUESTION_TEXT[id]}`).join('<br>'), '');
    out.push('✅ yes · ❌ no (error) · ⚠️ no (warning) · ❔ unknown (the code does not show it) · ➖ does not apply', '');
    out.push('<details><summary>Why, tool by tool</summary>', '');
    for (const tool of report.tools) {
      out.push(`### ${code(toolLabel(tool))} (${code(`${tool.file}:${tool.line}`)}, ${tool.framework})`, '');
      out.push(`Policy: ${cell(describePolicy(tool.policy, tool.hints))}`, '');
      for (const id of QUESTIONS) out.push(`- ${verdictEmoji(tool.questions[id])} **${id.toUpperCase()}** ${tool.questions[id].verdict}: ${cell(tool.questions[id].reason)}`);
      out.push('');
    }
    out.push('</details>', '');
  }
  if (report.findings.length > 0) {
    out.push('### Rule findings', '', '| Rule | Location | Message |', '|---|---|---|');
    for (const finding of report.findings) {
      const rule = finding.helpUri ? `[${code(finding.ruleId)}](${finding.helpUri})` : code(finding.ruleId);
      out.push(`| ${rule} | ${code(`${finding.file}:${finding.line}`)} | ${cell(finding.message)} |`);
    }
    out.push('');
  }
  if (report.files.errors.length > 0) {
    out.push('### Files not parsed (skipped)', '');
    for (const error of report.files.errors) out.push(`- ${code(fileErrorPlace(error))} ${cell(error.message)}`);
    out.push('');
  }
  return `${out.join('\n')}`;
}

/** Inline code that survives a table cell: pipes escaped, fenced as {@link codeSpan} does. */
function code(text: string): string {
  return codeSpan(text.replace(/\|/g, '\\|'));
}

/** Text for a table cell: pipes escaped, one line. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}
