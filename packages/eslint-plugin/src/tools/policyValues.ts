import type { TSESLint, TSESTree } from '@typescript-eslint/utils';

import { getStaticValueOf } from '../ast/index.js';
import { ACCEPTED } from './policyContradictions.js';
import { findPolicyPropertyThroughSpreads, type PolicyField } from './policyFields.js';
import type { ToolDefinition } from './toolDefinition.js';

/** A policy field whose values `@retrysafe/spec` lists. */
export type ListedPolicyField = keyof typeof ACCEPTED;

/** A stated policy value that is not one of the spec's values for its field. */
export interface UnknownPolicyValue {
  readonly field: ListedPolicyField;
  readonly value: unknown;
  /** The spec's values for the field, in its order. */
  readonly known: readonly unknown[];
  /** The one known value within a small edit distance of a string value (`'moneyout'` → `'money_out'`), if exactly one is nearest. */
  readonly nearMiss?: unknown;
}

/** The most edits a value may be from a known one to be named as what was meant. */
const MAX_NEAR_MISS_DISTANCE = 2;

/**
 * The first of `values` (the policy's stated static values, `undefined` where not stated or not
 * known) that is a string, number, boolean or `null` and not one of `@retrysafe/spec`'s values for its field (the plugin's table of them,
 * `ACCEPTED`), with the values the spec knows and the near miss among them, if any.
 */
export function findUnknownPolicyValue(values: Readonly<Partial<Record<ListedPolicyField, unknown>>>): UnknownPolicyValue | undefined {
  for (const field of Object.keys(ACCEPTED) as ListedPolicyField[]) {
    const value = values[field];
    // An object or array (`retry: { maxAttempts: 4 }`) is judged by what it allows (no-unsafe-retry-policy's check 1), not named here.
    if (value === undefined || (typeof value === 'object' && value !== null) || ACCEPTED[field].includes(value)) continue;
    const known = ACCEPTED[field];
    const nearMiss = typeof value === 'string' || typeof value === 'boolean' ? findNearMiss(String(value), known) : undefined;
    return { field, value, known, ...(nearMiss === undefined ? {} : { nearMiss }) };
  }
  return undefined;
}

/**
 * The property of `policy` (either spelling, through visible spreads) whose static value is one the
 * spec does not know, with {@link findUnknownPolicyValue}'s answer for it: what
 * `no-unsafe-retry-policy` reports and the audit's policy data carries.
 */
export function findUnknownPolicyProperty(
  sourceCode: Readonly<TSESLint.SourceCode>,
  policy: TSESTree.ObjectExpression,
): { readonly unknown: UnknownPolicyValue; readonly property: TSESTree.Property } | undefined {
  const field = (name: PolicyField): TSESTree.Property | undefined => findPolicyPropertyThroughSpreads(sourceCode, policy, name);
  const value = (name: PolicyField): unknown => getStaticValueOf(sourceCode, field(name)?.value);
  const unknown = findUnknownPolicyValue({ sideEffects: value('sideEffects'), idempotent: value('idempotent'), retry: value('retry') });
  const property = unknown && field(unknown.field);
  return unknown && property ? { unknown, property } : undefined;
}

/**
 * Whether `tool`'s policy is one `@retrysafe/spec` reads: every framework's, but a home-grown
 * factory's config fields are its own (only its `declarePolicy` is the spec's).
 */
export function isSpecPolicy(tool: Pick<ToolDefinition, 'framework' | 'policy'>): boolean {
  return tool.framework !== 'custom' || tool.policy?.via === 'declarePolicy';
}

/** A value as the code writes it: `'money_out'`, `true`. */
export function formatPolicyValue(value: unknown): string {
  return typeof value === 'string' ? `'${value}'` : String(value);
}

function findNearMiss(text: string, known: readonly unknown[]): unknown {
  const lower = text.toLowerCase();
  const scored = known.map((candidate) => ({ candidate, distance: editDistance(lower, String(candidate).toLowerCase()) }));
  const best = Math.min(...scored.map((entry) => entry.distance));
  const nearest = scored.filter((entry) => entry.distance === best);
  return best <= MAX_NEAR_MISS_DISTANCE && nearest.length === 1 ? nearest[0]?.candidate : undefined;
}

/** Levenshtein distance: insertions, deletions and substitutions. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
