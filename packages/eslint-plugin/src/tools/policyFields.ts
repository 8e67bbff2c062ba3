import type { TSESTree } from '@typescript-eslint/utils';

import { findProperty } from '../ast/index.js';
import type { PolicyDeclaration } from './toolDefinition.js';

/**
 * The retrysafe policy fields in their two spellings: camelCase in a `defineTool` config, the seed's
 * snake_case in policy data (`declarePolicy`, `metadata.retrysafe`, `_meta["io.github.retrysafe/policy"]`).
 */
export const POLICY_FIELDS = {
  sideEffects: { camelCase: 'sideEffects', snakeCase: 'side_effects' },
  idempotent: { camelCase: 'idempotent', snakeCase: 'idempotent' },
  retry: { camelCase: 'retry', snakeCase: 'retry' },
  maxAttempts: { camelCase: 'maxAttempts', snakeCase: 'max_attempts' },
} as const;

/** A retrysafe policy field. */
export type PolicyField = keyof typeof POLICY_FIELDS;

/** The fields whose presence makes a config a policy declaration (`maxAttempts` alone does not). */
const DECLARING_FIELDS: readonly PolicyField[] = ['sideEffects', 'idempotent', 'retry'];

/** The key `field` has in a policy declared `via` a given route. */
export function policyKey(field: PolicyField, via: PolicyDeclaration['via']): string {
  return via === 'defineTool' ? POLICY_FIELDS[field].camelCase : POLICY_FIELDS[field].snakeCase;
}

/**
 * The property for a retrysafe policy field: in the spelling `via` reads when given, else in either
 * spelling (for judging a declaration, where a typo in the spelling is not the point).
 */
export function findPolicyProperty(
  object: TSESTree.ObjectExpression | undefined,
  field: PolicyField,
  via?: PolicyDeclaration['via'],
): TSESTree.Property | undefined {
  const names = via ? [policyKey(field, via)] : [POLICY_FIELDS[field].camelCase, POLICY_FIELDS[field].snakeCase];
  return names.map((name) => findProperty(object, name)).find(Boolean);
}

/** Whether a config states any of the declaring policy fields, in either spelling. */
export function hasPolicyField(object: TSESTree.ObjectExpression | undefined): boolean {
  return DECLARING_FIELDS.some((field) => findPolicyProperty(object, field));
}
