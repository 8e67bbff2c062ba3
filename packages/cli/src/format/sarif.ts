import { createHash } from 'node:crypto';

import retrysafe from '@retrysafe/eslint-plugin';
import type { Log, ReportingDescriptor, Result } from 'sarif';

import { type AuditReport, QUESTION_LABEL, QUESTION_TEXT, QUESTIONS, type QuestionId, type RuleFinding, type ToolAudit, toolLabel } from '../report.js';

// SARIF 2.1.0 for GitHub code scanning (docs/audit.md shows the workflow): one run with the
// plugin's rule findings under the plugin's own rule ids and help links (as
// @microsoft/eslint-formatter-sarif writes them), and each `no` verdict under the audit's rule id
// for its question. Each result has a relative path under %SRCROOT% and a `partialFingerprints`
// entry that does not move with the line, so an alert survives edits above it.

/** The SARIF rule id of each question's `no` verdict. */
export const AUDIT_RULE_IDS: Readonly<Record<QuestionId, string>> = {
  q1: 'retrysafe-audit/called-twice-effect',
  q2: 'retrysafe-audit/deterministic-key',
  q3: 'retrysafe-audit/replay-flag',
  q4: 'retrysafe-audit/durable-record',
  q5: 'retrysafe-audit/called-twice-test',
};

const DOCS = 'https://github.com/retrysafe/retrysafe/blob/main/docs/audit.md';
const ANCHORS: Readonly<Record<QuestionId, string>> = {
  q1: 'q1-what-happens-if-it-is-called-twice',
  q2: 'q2-is-the-key-derived-deterministically',
  q3: 'q3-does-the-response-say-already-done',
  q4: 'q4-is-the-dedup-record-durable',
  q5: 'q5-is-there-a-called-twice-test',
};
const SRCROOT = '%SRCROOT%';
/** Related locations per result: GitHub shows at most 100 and rejects a result with over 1,000. */
const MAX_RELATED = 20;

/** Renders the report as a SARIF 2.1.0 log. */
export function formatSarif(report: AuditReport): string {
  const rules = new Map<string, ReportingDescriptor>();
  const results: Result[] = [];
  for (const tool of report.tools) {
    for (const id of QUESTIONS) {
      const answer = tool.questions[id];
      // One fault, one alert: a `no` that follows from another question's is told in that one's.
      if (answer.verdict !== 'no' || answer.followsFrom !== undefined) continue;
      rules.set(AUDIT_RULE_IDS[id], auditRule(id));
      results.push(verdictResult(tool, id));
    }
  }
  const seen = new Map<string, number>();
  for (const finding of report.findings) {
    rules.set(finding.ruleId, rules.get(finding.ruleId) ?? pluginRule(finding));
    results.push(findingResult(finding, seen));
  }
  const ruleList = [...rules.values()].sort((a, b) => a.id.localeCompare(b.id));
  const indexOf = new Map(ruleList.map((rule, index) => [rule.id, index]));
  for (const result of results) result.ruleIndex = indexOf.get(result.ruleId ?? '') ?? 0;
  const log: Log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'retrysafe',
            semanticVersion: report.generator.version,
            informationUri: DOCS,
            rules: ruleList,
          },
        },
        automationDetails: { id: 'retrysafe-audit/' },
        originalUriBaseIds: { [SRCROOT]: { description: { text: 'The folder the audit ran in (the repository root in CI).' } } },
        invocations: [
          {
            executionSuccessful: report.files.errors.length === 0,
            toolExecutionNotifications: report.files.errors.map((error) => ({
              level: 'error' as const,
              message: { text: `Not parsed, skipped: ${error.message}` },
              // A file-level error has no region: the artifact alone (SARIF 2.1.0 §3.29.2, a region is optional).
              locations: [error.line === undefined ? { physicalLocation: { artifactLocation: artifact(error.file) } } : location(error.file, error.line, error.column ?? 1)],
            })),
          },
        ],
        results,
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}

function auditRule(id: QuestionId): ReportingDescriptor {
  return {
    id: AUDIT_RULE_IDS[id],
    name: AUDIT_RULE_IDS[id].split('/')[1] ?? id,
    shortDescription: { text: `${id.toUpperCase()}: ${QUESTION_TEXT[id]}` },
    fullDescription: { text: `The seed's audit question ${id.slice(1)}: ${QUESTION_TEXT[id]} A result is a tool whose answer is "no".` },
    helpUri: `${DOCS}#${ANCHORS[id]}`,
    help: { text: `See ${DOCS}#${ANCHORS[id]} for the verdict rules.` },
    defaultConfiguration: { level: id === 'q3' || id === 'q5' ? 'warning' : 'error' },
    properties: { tags: ['retrysafe', 'idempotency', 'audit'], precision: 'high' },
  };
}

function pluginRule(finding: RuleFinding): ReportingDescriptor {
  const name = finding.ruleId.slice(finding.ruleId.indexOf('/') + 1);
  const description = (retrysafe.rules as Record<string, { meta?: { docs?: { description?: string } } }>)[name]?.meta?.docs?.description;
  return {
    id: finding.ruleId,
    name,
    shortDescription: { text: description ?? finding.ruleId },
    fullDescription: { text: `${description ?? finding.ruleId} (an ESLint rule of @retrysafe/eslint-plugin, reported in the same run).` },
    ...(finding.helpUri ? { helpUri: finding.helpUri, help: { text: `See ${finding.helpUri}` } } : {}),
    properties: { tags: ['retrysafe', 'idempotency', 'eslint'], precision: 'high' },
  };
}

function verdictResult(tool: ToolAudit, id: QuestionId): Result {
  const answer = tool.questions[id];
  // Named as the table, the Markdown and the summary line name it (`(registered at src/tools.ts:39)` without a static name).
  const label = toolLabel(tool);
  const following = QUESTIONS.filter((other) => tool.questions[other].followsFrom === id);
  const also = following.length > 0 ? ` (so ${following.map((other) => other.toUpperCase()).join(', ')} also answer no: ${following.map((other) => QUESTION_LABEL[other]).join(', ')})` : '';
  return {
    ruleId: AUDIT_RULE_IDS[id],
    level: answer.severity === 'error' ? 'error' : 'warning',
    message: { text: `${label}: ${answer.reason}${also}` },
    locations: [location(tool.file, tool.line, tool.column)],
    // The code the verdict rests on: the random source, the runner's store, the test.
    ...(answer.evidence.length > 0
      ? {
          relatedLocations: answer.evidence.slice(0, MAX_RELATED).map((evidence, index) => ({
            id: index,
            // The column where the analysis has it (an effect's call); else the line's start.
            ...location(evidence.file, evidence.line, evidence.column ?? 1),
            message: { text: evidence.text },
          })),
        }
      : {}),
    partialFingerprints: { 'retrysafeAudit/v1': fingerprint(AUDIT_RULE_IDS[id], tool.file, tool.name ?? tool.id) },
  };
}

function findingResult(finding: RuleFinding, seen: Map<string, number>): Result {
  // The same message twice in one file is told apart by its order, not its line.
  const base = `${finding.ruleId}\n${finding.file}\n${finding.message}`;
  const occurrence = (seen.get(base) ?? 0) + 1;
  seen.set(base, occurrence);
  return {
    ruleId: finding.ruleId,
    level: finding.severity === 'error' ? 'error' : 'warning',
    message: { text: finding.message },
    locations: [location(finding.file, finding.line, finding.column, finding.endLine, finding.endColumn)],
    partialFingerprints: { 'retrysafeAudit/v1': fingerprint(base, String(occurrence)) },
  };
}

function location(file: string, line: number, column: number, endLine?: number, endColumn?: number): NonNullable<Result['locations']>[number] {
  return {
    physicalLocation: {
      artifactLocation: artifact(file),
      region: {
        startLine: Math.max(1, line),
        startColumn: Math.max(1, column),
        ...(endLine !== undefined ? { endLine } : {}),
        ...(endColumn !== undefined ? { endColumn } : {}),
      },
    },
  };
}

function artifact(file: string): { uri: string; uriBaseId: string } {
  return { uri: encodeURI(file), uriBaseId: SRCROOT };
}

function fingerprint(...parts: string[]): string {
  return createHash('sha256').update(parts.join('\0')).digest('hex').slice(0, 32);
}
