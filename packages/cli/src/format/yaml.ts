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
// `null` marks what the code does not declare; a loop should treat a tool with `retry: null` as
// not safe to retry.

interface PolicyEntry {
  side_effects: string | null;
  idempotent: boolean | 'with_key' | null;
  retry: string | null;
  max_attempts: number | null;
  declared: boolean;
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
    ` null: not declared (or not stated statically); treat a tool whose retry is null as not safe to retry.`,
    ` A name defined twice with different policies has every field null and lists its definitions under conflicts.`,
    ...(unnamed.length > 0 ? [` Tools without a static name, not listed: ${unnamed.join(', ')}`] : []),
  ].join('\n');
  return entries.size === 0 ? `${document.commentBefore.split('\n').map((line) => `#${line}`).join('\n')}\n{}\n` : document.toString({ lineWidth: 0 });
}

function toEntry(tool: ToolAudit): PolicyEntry {
  const policy = tool.policy;
  return {
    side_effects: policy?.side_effects ?? null,
    idempotent: policy?.idempotent ?? null,
    retry: policy?.retry ?? null,
    max_attempts: policy?.max_attempts ?? null,
    declared: policy !== null,
    framework: tool.framework,
    source: `${tool.file}:${tool.line}`,
  };
}

function samePolicy(a: PolicyEntry, b: PolicyEntry): boolean {
  return a.side_effects === b.side_effects && a.idempotent === b.idempotent && a.retry === b.retry && a.max_attempts === b.max_attempts;
}

function conflict(existing: PolicyEntry, added: PolicyEntry): PolicyEntry {
  return {
    side_effects: null,
    idempotent: null,
    retry: null,
    max_attempts: null,
    declared: false,
    framework: existing.framework,
    source: existing.source,
    conflicts: [...(existing.conflicts ?? [existing.source]), added.source],
  };
}
