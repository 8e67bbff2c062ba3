import type { Answer, AuditReport, DeclaredPolicy, McpHints } from '../report.js';

/** The hints in the order the MCP specification lists them. */
const HINT_ORDER = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;

// Words and marks every human format shares, so the table, the Markdown and the summary agree.

/** A colour function: identity when colour is off. */
export type Paint = (text: string) => string;

/** The colours the table uses; all identity without colour. */
export interface Palette {
  readonly green: Paint;
  readonly red: Paint;
  readonly yellow: Paint;
  readonly dim: Paint;
  readonly bold: Paint;
}

/** A palette that paints nothing. */
export const PLAIN: Palette = { green: (s) => s, red: (s) => s, yellow: (s) => s, dim: (s) => s, bold: (s) => s };

/**
 * `✓ yes`, `✗ no` (an error), `! no` (a warning), `? unknown`, `– n/a`, coloured by verdict and
 * severity. A warning has its own mark, not only its colour, so that the two read apart without
 * colour (NO_COLOR, a CI log), as the Markdown's ❌ and ⚠️ do; `!` is one column wide everywhere.
 */
export function verdictMark(answer: Answer, palette: Palette, withWord = false): string {
  const word = withWord ? ` ${answer.verdict}` : '';
  switch (answer.verdict) {
    case 'yes':
      return palette.green(`✓${word}`);
    case 'no':
      return answer.severity === 'error' ? palette.red(`✗${word}`) : palette.yellow(`!${word}`);
    case 'unknown':
      return palette.dim(`?${word}`);
    case 'n/a':
      return palette.dim(`–${word}`);
  }
}

/** The legend of the marks {@link verdictMark} gives, as the table prints it under its summary. */
export const MARK_LEGEND = '✓ yes · ✗ no (error) · ! no (warning) · ? unknown · – does not apply';

/** The Markdown mark of a verdict. */
export function verdictEmoji(answer: Answer): string {
  switch (answer.verdict) {
    case 'yes':
      return '✅';
    case 'no':
      return answer.severity === 'error' ? '❌' : '⚠️';
    case 'unknown':
      return '❔';
    case 'n/a':
      return '➖';
  }
}

/**
 * What the code declares, in the Policy column: `money_out · with_key · safe_with_same_key · 3`;
 * `?` for a field not stated statically; `(default)` after a `max_attempts` the runtime defaults.
 * An MCP tool that declares only hints shows the hints it states, as written (`hints: readOnlyHint`,
 * `hints: destructiveHint · idempotentHint: false`; `: ?` for one not static), never a retry policy
 * they do not state nor the MCP defaults of the hints left out. `undeclared` for neither.
 */
export function describePolicy(policy: DeclaredPolicy | null, hints?: McpHints): string {
  const contradicted = policy?.contradicted ? (policy.contradicted.invalid ? ' (invalid)' : ' (contradicted)') : '';
  if (!policy || policy.via === 'annotations') {
    const stated = HINT_ORDER.filter((name) => hints?.[name] !== undefined).map((name) => (hints?.[name] === true ? name : `${name}: ${hints?.[name] === false ? 'false' : '?'}`));
    return stated.length > 0 ? `hints: ${stated.join(' · ')}${contradicted}` : policy ? `hints${contradicted}` : 'undeclared';
  }
  const show = (value: unknown): string => (value === null ? '?' : String(value));
  // A contradicted declaration says so wherever it is shown (table, Markdown, each tool's summary
  // line), not only in the YAML and the JSON's `policy.contradicted`: a loop must not act on it.
  return [policy.side_effects, policy.idempotent, policy.retry, policy.max_attempts].map(show).join(' · ') + (policy.max_attempts_default ? ' (default)' : '') + contradicted;
}

/**
 * The closing line: tools (undeclared), what the errors and warnings are (each `no` verdict and each
 * rule finding is one of them, and one SARIF result: `3 "no" verdicts + 4 rule findings = 5 errors +
 * 2 warnings`; a `no` that follows from another question's is counted apart, `(4 more follow from
 * question 1)`, and is none of them), and the files scanned (tests, not parsed).
 */
export function totalLine(report: AuditReport): string {
  const { summary, findings, files, tools } = report;
  const answers = tools.flatMap((tool) => Object.values(tool.questions)).filter((answer) => answer.verdict === 'no');
  const following = answers.filter((answer) => answer.followsFrom !== undefined).length;
  const more = following > 0 ? ` (${following} more follow from question 1)` : '';
  return [
    `${plural(summary.tools, 'tool')} (${summary.undeclared} undeclared)`,
    `${plural(answers.length - following, '"no" verdict')}${more} + ${plural(findings.length, 'rule finding')} = ${plural(summary.errors, 'error')} + ${plural(summary.warnings, 'warning')}`,
    `${plural(files.scanned, 'file')} scanned (${plural(files.tests, 'test file')}, ${files.errors.length} not parsed)`,
  ].join(' · ');
}

/** `1 file`, `2 files`: a count and its noun, singular for exactly one. */
export function plural(count: number, word: string, words = `${word}s`): string {
  return `${count} ${count === 1 ? word : words}`;
}
