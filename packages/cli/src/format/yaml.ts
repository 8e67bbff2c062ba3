import { Document } from 'yaml';

import type { AuditReport, ToolAudit } from '../report.js';

// Every tool's policy in the seed's shape, keyed by tool name, for an agent loop written in any
// language ("A retry policy expressed as data is enforceable"):
//
//   issue_refund:
//     side_effects: money_out
//     idempotent: with_key
//     retry: safe_with_same_key
//     max_attempts: 3
//
// No field is ever `null`: a field the code does not state is left out, and a declared policy with
// a required field left out lists it under `unknown` with the `reason`; a declaration the same run
// contradicts (a rule finding on it, a combination tsc rejects) is marked `contradicted: true` with
// the `reason`; a value the spec rejects (an invalid declaration, `sideEffects: 'moneyout'`) is left
// out too. A loop should treat a tool without `retry`, or contradicted, as not safe to retry.

/** The seed's required policy fields: a declared policy that does not state one lists it under `unknown`. */
const REQUIRED = ['side_effects', 'idempotent', 'retry'] as const;

const UNKNOWN_REASON = 'declared, but not stated statically (a spread, or a value the audit does not follow): treat the tool as not safe to retry';
const HINTS_REASON = 'declared only by MCP annotations (listed under hints, as written), which are hints, not a retry policy: they state no retry, and MCP says to trust them only from a trusted server';
/** Added to HINTS_REASON for a tool whose hints say a repeat is harmless. */
const TRUSTED_HINTS_REASON = 'a loop that trusts this server may read readOnlyHint: true or idempotentHint: true as naturally idempotent and safe to retry, as @retrysafe/spec\'s MCP client does with trust: \'trusted\'; otherwise treat the tool as not safe to retry';
const CONTRADICTED_REASON = 'the same run shows this declaration is not true, so treat the tool as not safe to retry';
const CONFLICT_REASON = 'defined more than once with different policies (listed under conflicts): treat the tool as not safe to retry';

interface PolicyEntry {
  side_effects?: string;
  idempotent?: boolean | 'with_key';
  retry?: string;
  max_attempts?: number;
  max_attempts_default?: true;
  declared: boolean;
  contradicted?: true;
  unknown?: string[];
  reason?: string;
  /** The MCP hints the annotations state, as written. */
  hints?: Record<string, boolean>;
  framework: string;
  source: string;
  conflicts?: string[];
}

/** Renders every named tool's declared policy as YAML (YAML 1.2, readable by PyYAML and Go's yaml.v3). */
export function formatYaml(report: AuditReport): string {
  const entries = new Map<string, PolicyEntry>();
  const unnamed: string[] = [];
  for (const tool of report.tools) {
    if (tool.name === null) {
      unnamed.push(`${tool.file}:${tool.line}`);
      continue;
    }
    const entry = toEntry(tool);
    const existing = entries.get(tool.name);
    if (!existing) entries.set(tool.name, entry);
    else if (!samePolicy(existing, entry)) entries.set(tool.name, conflict(existing, entry));
  }
  const document = new Document(Object.fromEntries([...entries].sort(([a], [b]) => a.localeCompare(b))));
  document.commentBefore = [
    ` retrysafe audit: every tool's declared retry policy, in the seed's shape.`,
    ` A field the code does not state is left out (never null); a declared policy lists the required fields it does not state under unknown, with the reason.`,
    ` Treat a tool without retry, or marked contradicted, as not safe to retry. A name defined twice with different policies lists its definitions under conflicts.`,
    ...(unnamed.length > 0 ? [` Tools without a static name, not listed: ${unnamed.join(', ')}`] : []),
  ].join('\n');
  return entries.size === 0 ? `${document.commentBefore.split('\n').map((line) => `#${line}`).join('\n')}\n{}\n` : document.toString({ lineWidth: 0 });
}

function toEntry(tool: ToolAudit): PolicyEntry {
  const policy = tool.policy;
  // A value the spec rejects (an invalid declaration's field) is not written: a loop must not read it as a policy.
  const rejected = policy?.contradicted?.invalid ? policy.contradicted.field : undefined;
  const stated = (field: (typeof REQUIRED)[number]): boolean => policy?.[field] != null && field !== rejected;
  const unknown = policy ? REQUIRED.filter((field) => policy[field] === null && field !== rejected) : [];
  return {
    ...(policy?.side_effects != null && stated('side_effects') ? { side_effects: policy.side_effects } : {}),
    ...(policy?.idempotent != null && stated('idempotent') ? { idempotent: policy.idempotent } : {}),
    ...(policy?.retry != null && stated('retry') ? { retry: policy.retry } : {}),
    ...(policy?.max_attempts != null ? { max_attempts: policy.max_attempts } : {}),
    ...(policy?.max_attempts_default ? { max_attempts_default: true as const } : {}),
    declared: policy !== null,
    ...(policy?.contradicted ? { contradicted: true as const } : {}),
    ...(unknown.length > 0 ? { unknown: [...unknown] } : {}),
    ...(reasonOf(tool, unknown.length > 0) ?? {}),
    ...hintsOf(tool),
    framework: tool.framework,
    source: `${tool.file}:${tool.line}`,
  };
}

/** The hints the annotations state with a static value (never null, as every field here). */
function hintsOf(tool: ToolAudit): Pick<PolicyEntry, 'hints'> {
  const stated = Object.entries(tool.hints ?? {}).filter((entry): entry is [string, boolean] => typeof entry[1] === 'boolean');
  return stated.length > 0 ? { hints: Object.fromEntries(stated) } : {};
}

/** Why a loop must not act on the entry: a contradicted declaration, required fields not stated, or both. */
function reasonOf(tool: ToolAudit, unknown: boolean): { reason: string } | undefined {
  const policy = tool.policy;
  const harmless = !policy?.contradicted && (tool.hints?.readOnlyHint === true || tool.hints?.idempotentHint === true);
  const hintsReason = `${HINTS_REASON}; ${harmless ? TRUSTED_HINTS_REASON : 'treat the tool as not safe to retry'}`;
  const reasons = [
    ...(policy?.contradicted ? [`${CONTRADICTED_REASON}: ${policy.contradicted.reason.replace(/\.$/, '')}${policy.contradicted.invalid && policy.contradicted.field ? ` (its ${policy.contradicted.field} is left out here)` : ''}`] : []),
    ...(unknown ? [policy?.via === 'annotations' ? hintsReason : UNKNOWN_REASON] : []),
  ];
  return reasons.length > 0 ? { reason: reasons.join('; ') } : undefined;
}

function samePolicy(a: PolicyEntry, b: PolicyEntry): boolean {
  return a.declared === b.declared && a.contradicted === b.contradicted && a.side_effects === b.side_effects && a.idempotent === b.idempotent && a.retry === b.retry && a.max_attempts === b.max_attempts;
}

function conflict(existing: PolicyEntry, added: PolicyEntry): PolicyEntry {
  return {
    declared: false,
    reason: CONFLICT_REASON,
    framework: existing.framework,
    source: existing.source,
    conflicts: [...(existing.conflicts ?? [existing.source]), added.source],
  };
}
