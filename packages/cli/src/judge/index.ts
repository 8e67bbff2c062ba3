import { existsSync } from 'node:fs';
import path from 'node:path';

import { codeSpan, findPolicyContradiction, listWords } from '../collect/analysis.js';
import type { FileFacts, PolicyFact } from '../collect/facts.js';
import {
  type Answer,
  type AuditReport,
  type ConfigUsed,
  type DeclaredPolicy,
  type Effect,
  type FileError,
  QUESTIONS,
  type QuestionId,
  REPORT_SCHEMA_ID,
  REPORT_SCHEMA_VERSION,
  type ReportSummary,
  type RuleFinding,
  type ToolAudit,
  toolLabel,
  type Verdict,
} from '../report.js';
import { describePolicy } from '../format/verdicts.js';
import { linkProject, type ProjectLinks, type ToolAt } from './links.js';
import { type EffectsContradiction, findEffectsContradiction, JUDGES } from './questions.js';

/** What {@link buildReport} needs besides the facts. */
export interface ReportInput {
  readonly root: string;
  readonly config: ConfigUsed;
  readonly generator: AuditReport['generator'];
  readonly files: ReadonlyMap<string, FileFacts>;
  readonly findings: readonly RuleFinding[];
  readonly errors: readonly FileError[];
}

/** Links the facts, answers the five questions for every tool, and totals them. */
export function buildReport(input: ReportInput): AuditReport {
  const relative = (file: string): string => toPosix(path.relative(input.root, file));
  const links = linkProject(input.files);
  const unparsed = input.errors.map((error) => error.file).sort();
  const audited = links.tools.filter((at) => !input.files.get(at.file)?.isTest);
  const tools = audited
    .map((at) => auditTool(at, links, relative, input.findings, unparsed))
    .sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column);
  const findings = [...input.findings].sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column);
  const scanned = [...input.files.values()];
  return {
    $schema: REPORT_SCHEMA_ID,
    schemaVersion: REPORT_SCHEMA_VERSION,
    generator: input.generator,
    root: input.root,
    config: input.config,
    files: {
      scanned: scanned.length + input.errors.length,
      tests: scanned.filter((facts) => facts.isTest).length,
      errors: [...input.errors].sort((a, b) => a.file.localeCompare(b.file)),
    },
    tools,
    findings,
    summary: { ...summarise(tools, findings), ...withoutTypes(input, audited, tools, relative) },
  };
}

/**
 * The advice to audit with types, when it would change answers: the root has a `tsconfig.json`, no
 * scanned file had type information, and question 1 is unknown for tools whose handlers make calls
 * the effects analysis did not follow (`complete: false`: without types, a call into another file).
 */
function withoutTypes(input: ReportInput, audited: readonly ToolAt[], tools: readonly ToolAudit[], relative: (file: string) => string): Pick<ReportSummary, 'withoutTypes'> {
  if ([...input.files.values()].some((facts) => facts.typed) || !existsSync(path.join(input.root, 'tsconfig.json'))) return {};
  const unfollowed = new Set(audited.filter((at) => at.tool.effects?.complete === false).map((at) => `${relative(at.file)}:${at.tool.line}:${at.tool.column}`));
  const count = tools.filter((tool) => unfollowed.has(tool.id) && tool.questions.q1.verdict === 'unknown').length;
  if (count === 0) return {};
  const hint = `question 1 is unknown for ${count === 1 ? '1 tool' : `${count} tools`} because ${count === 1 ? 'its handler makes' : 'their handlers make'} calls that were not followed: this run had no type information (a tsconfig.json is there), so calls into other files are not read. Pass a config that uses the plugin's recommended-type-checked (\`-c <file>\`) to follow them`;
  return { withoutTypes: { tools: count, hint } };
}

function auditTool(at: ToolAt, links: ProjectLinks, relative: (file: string) => string, findings: readonly RuleFinding[], unparsed: readonly string[]): ToolAudit {
  const { tool } = at;
  const file = relative(at.file);
  const invalid = tool.policy && invalidPolicy(tool.policy, file);
  // A policy the spec rejects declares nothing a loop can act on: the questions judge the tool without it.
  const judgedAt = invalid ? { ...at, tool: { ...tool, policy: null } } : at;
  const facts = { at: judgedAt, links: links.linksOf(at), unresolvedTests: links.unresolvedTests, testFiles: links.testFiles, unparsed, relative, findings };
  const contradiction = findEffectsContradiction(facts);
  const context = { ...facts, contradiction };
  const judged = Object.fromEntries(QUESTIONS.map((id) => [id, JUDGES[id](context)])) as Record<QuestionId, Answer>;
  const policy = tool.policy ? toDeclaredPolicy(tool.policy, file, invalid ?? contradictionOfPolicy(tool.policy, file, findings, contradiction, judged)) : null;
  const questions = { ...judged, ...neverDefined(tool.policy, policy?.contradicted), q1: contradictedQ1(judged.q1, policy?.contradicted) };
  return {
    id: `${file}:${tool.line}:${tool.column}`,
    name: tool.name,
    file,
    line: tool.line,
    column: tool.column,
    framework: tool.framework,
    policy,
    ...(tool.hints ? { hints: tool.hints } : {}),
    effects: tool.effects
      ? {
          available: true,
          operations: tool.effects.operations.map((operation) => ({
            kind: EFFECT_KINDS[operation.kind] ?? 'unknown',
            operation: operation.text,
            ...(operation.keyPassed === 'yes' || operation.keyPassed === 'no' ? { keyed: operation.keyPassed === 'yes' } : {}),
            evidence: { file: operation.file !== undefined ? relative(operation.file) : file, line: operation.line, column: operation.column, text: operation.text },
          })),
        }
      : { available: false, operations: [] },
    questions,
    summary: summaryLine(toolLabel({ name: tool.name, file, line: tool.line }), describePolicy(policy, tool.hints), questions),
  };
}

/** The plugin's effect kinds, in the report's words. */
const EFFECT_KINDS: Readonly<Record<string, Effect['kind']>> = { read: 'read', absolute: 'absolute_write', create: 'create', relative: 'relative', write: 'write', unknown: 'unknown' };

/**
 * `max_attempts` when a declaration does not state it, as `@retrysafe/spec` gives it
 * (`DEFAULT_MAX_ATTEMPTS`, applied by `toToolPolicy` to `defineTool`, `declarePolicy`, LangChain
 * `metadata.retrysafe` and MCP `_meta` policies; tests/trial.test.ts holds the two equal).
 */
export const DEFAULT_MAX_ATTEMPTS: Readonly<Record<string, number>> = { safe: 3, safe_with_same_key: 3, never: 1 };

function toDeclaredPolicy(policy: PolicyFact, file: string, contradicted: DeclaredPolicy['contradicted']): DeclaredPolicy {
  const { side_effects, idempotent, retry, via, line, text } = policy;
  const fallback = policy.max_attempts === null && !policy.statesMaxAttempts && via !== 'annotations' && retry !== null ? DEFAULT_MAX_ATTEMPTS[retry] : undefined;
  const max_attempts = fallback ?? policy.max_attempts;
  return {
    side_effects,
    idempotent,
    retry,
    max_attempts,
    ...(fallback !== undefined ? { max_attempts_default: true as const } : {}),
    via,
    evidence: { file, line, text },
    ...(contradicted ? { contradicted } : {}),
  };
}

/**
 * A declaration that states a value `@retrysafe/spec` does not know (the plugin's `readPolicyData`,
 * as `no-unsafe-retry-policy` reports it): the spec rejects it, so it is invalid, not declared.
 */
function invalidPolicy(policy: PolicyFact, file: string): DeclaredPolicy['contradicted'] {
  const unknown = policy.unknownValue;
  if (!unknown) return undefined;
  const known = unknown.known.map(codeSpan);
  const nearMiss = unknown.nearMiss === undefined ? '' : `; did you mean ${codeSpan(unknown.nearMiss)}?`;
  return {
    reason: `the policy at ${file}:${policy.line} is invalid: ${codeSpan(unknown.text)} (line ${unknown.line}) is not one of \`@retrysafe/spec\`'s values for ${codeSpan(unknown.field)} (${listWords(known, 'or')}${nearMiss}), so the spec rejects it (a ToolPolicyError when the tool is defined) and the tool is judged as declaring nothing`,
    evidence: { file, line: unknown.line, text: unknown.text },
    invalid: true,
    field: unknown.seedField,
  };
}

/**
 * The declarations `@retrysafe/spec` checks when the tool is defined: `defineTool` and `declarePolicy`
 * throw a ToolPolicyError for an invalid value, so the tool never exists (the module that defines
 * it throws when it is loaded). A LangChain `metadata.retrysafe` or an MCP `_meta` policy is read
 * later, by whatever runs the tool.
 */
const CHECKED_AT_DEFINITION: ReadonlySet<PolicyFact['via']> = new Set(['defineTool', 'declarePolicy']);

/**
 * Questions 2 to 5 of a tool whose declaration the spec rejects when the tool is defined: they ask
 * what the tool does at run time (its key, its replay flag, its record, a test of it), and a tool
 * that is never defined does none of that, so each is `n/a`, saying why. The fault itself is
 * question 1's (its invalid wording) and the rule's finding: it is not counted again per question.
 */
function neverDefined(policy: PolicyFact | null, contradicted: DeclaredPolicy['contradicted']): Partial<Record<QuestionId, Answer>> {
  if (!policy || !contradicted?.invalid || !CHECKED_AT_DEFINITION.has(policy.via)) return {};
  const reason = `${codeSpan(policy.via)} throws a ToolPolicyError for this policy (${codeSpan(contradicted.evidence.text)}, line ${contradicted.evidence.line}), so the tool is never defined: fix the value first (question 1)`;
  const never: Answer = { verdict: 'n/a', reason, evidence: [contradicted.evidence] };
  return { q2: never, q3: never, q4: never, q5: never };
}

/** The rules whose finding on a declaration says the declaration is not true. */
const CONTRADICTING_RULES = /\/(no-contradicted-policy(-type-checked)?|no-unsafe-retry-policy)$/;

/**
 * Why the same run shows a declared policy is not true, if it does: a contradicting rule's finding
 * within the declaration, a combination the spec rejects (the plugin's `findPolicyContradiction`,
 * the spec's table as data: what tsc reports on a typed declaration), or question 1 finding the
 * handler's effects against it.
 */
function contradictionOfPolicy(policy: PolicyFact, file: string, findings: readonly RuleFinding[], effects: EffectsContradiction | undefined, questions: Readonly<Record<QuestionId, Answer>>): DeclaredPolicy['contradicted'] {
  const { q1, q2 } = questions;
  const evidence = { file, line: policy.line, text: policy.text };
  const finding = findings.find((candidate) => CONTRADICTING_RULES.test(candidate.ruleId) && candidate.file === file && candidate.line >= policy.line && candidate.line <= policy.endLine);
  if (finding) return { reason: `${codeSpan(finding.ruleId)} reports it at ${file}:${finding.line}: ${finding.message}`, evidence: { file, line: finding.line, text: policy.text } };
  // Without the rule's finding (the rule off, or the policy not visible to it): the spec's own table
  // of contradictions (what tsc and ToolPolicyError reject), from the same static values.
  const rejected = policy.via === 'annotations'
    ? undefined
    : findPolicyContradiction({ sideEffects: policy.side_effects ?? undefined, idempotent: policy.idempotent ?? undefined, retry: policy.retry ?? undefined, maxAttempts: policy.max_attempts ?? undefined });
  if (rejected) return { reason: `the policy at ${file}:${policy.line} is one \`@retrysafe/spec\` rejects (tsc, and a ToolPolicyError at run time): ${rejected.message}`, evidence };
  // Q1 names the contradiction where it judges the handler's effects (not where a guard or the runner answers).
  if (effects && q1.reason.includes(effects.text)) return { reason: `question 1: ${q1.reason}`, evidence };
  // A declaration that a repeat is made safe by its key, while question 2 finds the key new on every
  // attempt: the repeat carries a different key, so the claim does not hold (the seed: "a random key
  // generated per call is a new key on the retry, which defeats the entire mechanism").
  if ((policy.idempotent === 'with_key' || policy.retry === 'safe_with_same_key') && q2.verdict === 'no' && q2.severity === 'error') {
    const [source] = q2.evidence;
    return { reason: `question 2: ${q2.reason}`, evidence: source ?? evidence };
  }
  return undefined;
}

/**
 * Q1 of a tool whose declaration the run contradicts is never a green `yes`: whatever a second call
 * does, a loop or client acting on the declared policy acts on a claim that is not true. Its `yes`
 * becomes a `no` (error) that leads with the contradiction and its evidence (so the summary and SARIF count
 * it), then what a repeat does whatever the policy says: the `yes` reason after it, in brackets, not
 * a sentence that calls it safe beside the ✗ (new-user trial 8), and not before it (new-user trial 5
 * read "the handler runs once; but its declared policy is not true" as a contradiction of the verdict).
 */
function contradictedQ1(q1: Answer, contradicted: DeclaredPolicy['contradicted']): Answer {
  if (!contradicted || q1.verdict !== 'yes') return q1;
  // The contradiction is quoted here once; the yes after it only points to question 2 (new-user
  // trials 6 and 7: a constant key's Q1 held Q2's reason twice, then pointed "below" and quoted it).
  return { verdict: 'no', severity: 'error', reason: `its declared policy is ${contradicted.invalid ? 'invalid' : 'not true'} (${contradicted.reason}), so a loop or client that acts on it is misled (what a repeat does, whatever the policy says: ${q1.reason})`, evidence: [...q1.evidence, contradicted.evidence] };
}

const VERDICT_WORDS: Readonly<Record<Verdict, string>> = { yes: 'yes', no: 'no', unknown: 'unknown', 'n/a': 'n/a' };

function summaryLine(name: string, policy: string, questions: Readonly<Record<QuestionId, Answer>>): string {
  const verdicts = QUESTIONS.map((id) => `${id.toUpperCase()} ${VERDICT_WORDS[questions[id].verdict]}`).join(', ');
  return `${name} [${policy}]: ${verdicts}`;
}

function summarise(tools: readonly ToolAudit[], findings: readonly RuleFinding[]): ReportSummary {
  const questions = Object.fromEntries(
    QUESTIONS.map((id) => {
      const counts = { yes: 0, no: 0, unknown: 0, 'n/a': 0 };
      for (const tool of tools) counts[tool.questions[id].verdict] += 1;
      return [id, counts];
    }),
  ) as unknown as ReportSummary['questions'];
  const answers = tools.flatMap((tool) => QUESTIONS.map((id) => tool.questions[id]));
  const count = (severity: 'error' | 'warning'): number =>
    answers.filter((answer) => answer.severity === severity && answer.followsFrom === undefined).length + findings.filter((finding) => finding.severity === severity).length;
  return {
    tools: tools.length,
    undeclared: tools.filter((tool) => tool.policy === null).length,
    questions,
    errors: count('error'),
    warnings: count('warning'),
  };
}

function toPosix(file: string): string {
  return file.split(path.sep).join('/');
}
