import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import { findProperty, findPropertyThroughSpreads, type FoundProperty, getPropertyKeyName, type ObjectResolver, resolveObject } from '../ast/index.js';
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

/**
 * Like {@link findPolicyProperty} (either spelling), read through the object's spreads of visible
 * `const` objects (nested spreads, `as const`, `satisfies` included), so a policy shared through a
 * `const` is judged as if written inline. `undefined` when the field is not stated, or when a
 * spread that is not visible may set it.
 */
export function findPolicyPropertyThroughSpreads(
  sourceCode: Readonly<TSESLint.SourceCode>,
  object: TSESTree.ObjectExpression | undefined,
  field: PolicyField,
): TSESTree.Property | undefined {
  return findPolicyFieldThroughSpreads(sourceCode, object, field)?.property;
}

/**
 * {@link findPolicyPropertyThroughSpreads} with the file the property is written in, and `resolve`
 * for spreads of objects other files declare (the type-aware twins' imported `const`s): a spread it
 * cannot read either is not known.
 */
export function findPolicyFieldThroughSpreads(
  sourceCode: Readonly<TSESLint.SourceCode>,
  object: TSESTree.ObjectExpression | undefined,
  field: PolicyField,
  resolve?: ObjectResolver,
): FoundProperty | undefined {
  for (const name of [POLICY_FIELDS[field].camelCase, POLICY_FIELDS[field].snakeCase]) {
    const found = findPropertyThroughSpreads(sourceCode, object, name, resolve);
    if (found === null) return undefined;
    if (found) return found;
  }
  return undefined;
}

/** Whether a config states any of the declaring policy fields, in either spelling. */
export function hasPolicyField(object: TSESTree.ObjectExpression | undefined): boolean {
  return DECLARING_FIELDS.some((field) => findPolicyProperty(object, field));
}

/** Config properties that can carry a declaration: MCP annotations and `_meta`, LangChain `metadata`, Mastra `mcp`, the policy fields. */
const DECLARING_CONFIG_KEYS = new Set(['annotations', '_meta', 'metadata', 'mcp', 'sideEffects', 'side_effects', 'idempotent', 'retry', 'retrysafe']);
const MAX_SPREAD_DEPTH = 4;

/**
 * Where a spread that the file cannot resolve comes from, when something else can see it: the
 * type-aware twin reads a `const` another file of the program exports. `undefined`: not visible.
 */
export type SpreadResolver = (
  sourceCode: Readonly<TSESLint.SourceCode>,
  argument: TSESTree.Node,
) => { readonly sourceCode: Readonly<TSESLint.SourceCode>; readonly object: TSESTree.ObjectExpression } | undefined;

/**
 * Whether an object literal states a property that can carry a declaration (annotations, `_meta`,
 * `metadata`, Mastra's `mcp`, a policy field), or one whose key is not known.
 */
export function hasDeclaringProperty(sourceCode: Readonly<TSESLint.SourceCode>, object: TSESTree.ObjectExpression): boolean {
  return object.properties.some((inner) => inner.type === AST_NODE_TYPES.Property && isDeclaringProperty(sourceCode, inner));
}

/** Whether a config property can carry a declaration (see {@link hasDeclaringProperty}): by its key, or a key that is not known. */
export function isDeclaringProperty(sourceCode: Readonly<TSESLint.SourceCode>, property: TSESTree.Property): boolean {
  const name = getPropertyKeyName(property, sourceCode);
  return name === undefined || isDeclaringKey(name);
}

/** Whether a config property named `name` can carry a declaration. */
export function isDeclaringKey(name: string): boolean {
  return DECLARING_CONFIG_KEYS.has(name);
}

/**
 * Whether the spreads of a tool config may bring a declaration with them: a spread of something
 * not visible (an import, a parameter, a call's result), or of a visible local `const` object that
 * holds an annotations, `_meta`, `metadata` or policy property (directly or through its own
 * spreads). A config whose every spread is a visible object that declares nothing declares nothing
 * by its spreads: `const base = { description: 'Refund' }; registerTool('refund', { ...base }, ...)`.
 * With `resolveSpread`, a spread the file cannot resolve is read where the resolver finds it (the
 * type-aware twin: a `const` exported by another file of the program).
 */
export function spreadsMayDeclare(
  sourceCode: Readonly<TSESLint.SourceCode>,
  object: TSESTree.ObjectExpression,
  resolveSpread?: SpreadResolver,
  depth = 0,
): boolean {
  for (const property of object.properties) {
    if (property.type !== AST_NODE_TYPES.SpreadElement) continue;
    if (depth >= MAX_SPREAD_DEPTH) return true;
    const local = resolveObject(sourceCode, property.argument);
    const spread = local ? { sourceCode, object: local } : resolveSpread?.(sourceCode, property.argument);
    if (!spread) return true;
    if (hasDeclaringProperty(spread.sourceCode, spread.object)) return true;
    if (spreadsMayDeclare(spread.sourceCode, spread.object, resolveSpread, depth + 1)) return true;
  }
  return false;
}

/**
 * Whether a `defineTool` config may declare a `reconcile` hook (`@retrysafe/spec`: asked "did this
 * happen?" before an attempt whose outcome is unknown runs again, for a provider that takes no
 * key), read through spreads of visible consts: `true` for a `reconcile` property whose value is
 * not `undefined`, and for a spread the analysis cannot see (it may bring one); `false` otherwise.
 */
export function mayDeclareReconcileHook(sourceCode: Readonly<TSESLint.SourceCode>, config: TSESTree.ObjectExpression | undefined, resolve?: ObjectResolver): boolean {
  const found = findPropertyThroughSpreads(sourceCode, config, 'reconcile', resolve);
  if (found === null) return true;
  const value = found?.property.value;
  return value !== undefined && !(value.type === AST_NODE_TYPES.Identifier && value.name === 'undefined');
}
