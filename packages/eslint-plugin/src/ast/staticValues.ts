import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES, ASTUtils } from '@typescript-eslint/utils';

import { getStaticPropertyName } from './imports.js';
import { skipWrappers } from './nodes.js';
import { findVariableOf, getConstantInitializer } from './variables.js';

// Readers for what a file states in plain sight: object literals, their keys, constants. Tool
// configs, policies and schemas are all read through these, so every rule follows a `const` the same way.

type SourceCode = Readonly<TSESLint.SourceCode>;

/** How deep {@link resolveConst} follows bindings and member reads before it stops. */
const MAX_RESOLVE_DEPTH = 8;

/**
 * The static name of an object property's or class member's key: `a`, `'a'`, `['a']`, `1`, `#a`, and
 * `[A]` with `const A = 'a'` when `sourceCode` is given. `undefined` for a computed key whose
 * value is not known.
 */
export function getPropertyKeyName(
  property: TSESTree.Property | TSESTree.PropertyDefinition | TSESTree.MethodDefinition,
  sourceCode?: SourceCode,
): string | undefined {
  const key = property.key;
  if (!property.computed && key.type === AST_NODE_TYPES.Identifier) return key.name;
  // A private member is named with its `#`, so `#key` and a public `key` stay apart.
  if (key.type === AST_NODE_TYPES.PrivateIdentifier) return `#${key.name}`;
  if (key.type === AST_NODE_TYPES.Literal) return typeof key.value === 'string' || typeof key.value === 'number' ? String(key.value) : undefined;
  if (!sourceCode || !property.computed) return undefined;
  const value = ASTUtils.getStaticValue(key, sourceCode.getScope(key))?.value;
  return typeof value === 'string' ? value : undefined;
}

/** The last property of an object literal with a static key `name` (the one that wins at runtime). */
export function findProperty(
  object: TSESTree.ObjectExpression | undefined,
  name: string,
): TSESTree.Property | undefined {
  let found: TSESTree.Property | undefined;
  for (const property of object?.properties ?? []) {
    if (property.type === AST_NODE_TYPES.Property && getPropertyKeyName(property) === name) found = property;
  }
  return found;
}

/** The value of the first of `names` that the object literal has. */
export function firstPropertyValue(
  object: TSESTree.ObjectExpression | undefined,
  names: readonly string[],
): TSESTree.Node | undefined {
  return names.map((name) => findProperty(object, name)?.value).find(Boolean);
}

/** Whether an object literal spreads another object, so its full set of keys is unknown. */
export function hasSpread(object: TSESTree.ObjectExpression): boolean {
  return object.properties.some((property) => property.type === AST_NODE_TYPES.SpreadElement);
}

/** An object literal, followed through `const` bindings, member reads and TS wrappers. */
export function resolveObject(
  sourceCode: SourceCode,
  node: TSESTree.Node | undefined,
): TSESTree.ObjectExpression | undefined {
  if (!node) return undefined;
  const value = resolveConst(sourceCode, node);
  return value.type === AST_NODE_TYPES.ObjectExpression ? value : undefined;
}

/**
 * Follows identifiers to the initialiser of a never-reassigned binding (or to a function
 * declaration) and static member reads into object literals; unwraps `as`, `satisfies`, `!`, `await`.
 */
export function resolveConst(sourceCode: SourceCode, node: TSESTree.Node, depth = 0): TSESTree.Node {
  const value = skipWrappers(node, { awaits: true });
  if (depth > MAX_RESOLVE_DEPTH) return value;
  if (value.type === AST_NODE_TYPES.MemberExpression) {
    const name = getStaticPropertyName(value);
    const property = name === undefined ? undefined : findProperty(resolveObject(sourceCode, value.object), name);
    return property ? resolveConst(sourceCode, property.value, depth + 1) : value;
  }
  if (value.type !== AST_NODE_TYPES.Identifier) return value;
  const variable = findVariableOf(value, sourceCode);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (def?.type === 'FunctionName') return def.node;
  const init = getConstantInitializer(variable);
  return init ? resolveConst(sourceCode, init, depth + 1) : value;
}

/** The value of an expression when it is known statically (literals, `const`s, simple operations). */
export function getStaticValueOf(sourceCode: SourceCode, node: TSESTree.Node | undefined): unknown {
  return node ? ASTUtils.getStaticValue(node, sourceCode.getScope(node))?.value : undefined;
}

/** A static string value: a literal, a template without expressions, or a `const` holding one. */
export function staticString(sourceCode: SourceCode, node: TSESTree.Node | undefined): string | undefined {
  const value = getStaticValueOf(sourceCode, node);
  return typeof value === 'string' ? value : undefined;
}
