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

/**
 * Where an object that one file cannot resolve is visible to something else: the type-aware rules
 * read a `const` that another file of the program declares. `undefined`: not visible.
 */
export type ObjectResolver = (
  sourceCode: SourceCode,
  node: TSESTree.Node,
) => VisibleObject | undefined;

/** An object literal and the file it is written in. */
export interface VisibleObject {
  readonly sourceCode: SourceCode;
  readonly object: TSESTree.ObjectExpression;
  /** The file's name when it is not the linted file. */
  readonly fileName?: string | undefined;
}

/** A property as found through spreads, and the file it is written in. */
export interface FoundProperty {
  readonly sourceCode: SourceCode;
  readonly property: TSESTree.Property;
  /** The file's name when it is not the linted file. */
  readonly fileName?: string | undefined;
}

/** How many spreads deep {@link findPropertyThroughSpreads} reads before it calls the value unknown. */
const MAX_SPREAD_DEPTH = 4;

/** An object literal as {@link resolveObject} finds it in the file, else as `resolve` finds it elsewhere. */
export function resolveVisibleObject(
  sourceCode: SourceCode,
  node: TSESTree.Node | undefined,
  resolve?: ObjectResolver,
): VisibleObject | undefined {
  if (!node) return undefined;
  const local = resolveObject(sourceCode, node);
  return local ? { sourceCode, object: local } : resolve?.(sourceCode, node);
}

/**
 * The property `name` that wins at runtime in an object literal, read through its spreads of
 * visible objects (a `const`, `as const`, `satisfies`, nested spreads; `resolve` for objects of other
 * files): `{ ...READ_ONLY }` with `const READ_ONLY = { side_effects: 'none' }` finds
 * `side_effects: 'none'` in `READ_ONLY`. `undefined` when no visible part states it; `null` when a
 * spread that is not visible (a parameter, a call's result, a package's value) comes after the
 * last one that does, or before any does, so the value is not known.
 */
export function findPropertyThroughSpreads(
  sourceCode: SourceCode,
  object: TSESTree.ObjectExpression | undefined,
  name: string,
  resolve?: ObjectResolver,
  depth = 0,
  fileName?: string,
): FoundProperty | null | undefined {
  const properties = object?.properties ?? [];
  for (let index = properties.length - 1; index >= 0; index--) {
    const property = properties[index]!;
    if (property.type === AST_NODE_TYPES.Property) {
      if (getPropertyKeyName(property, sourceCode) === name) return { sourceCode, property, fileName };
      // A computed key whose value is not known may be `name`.
      if (property.computed && getPropertyKeyName(property, sourceCode) === undefined) return null;
      continue;
    }
    if (property.type !== AST_NODE_TYPES.SpreadElement) continue;
    const spread = depth < MAX_SPREAD_DEPTH ? resolveVisibleObject(sourceCode, property.argument, resolve) : undefined;
    if (!spread) return null;
    const found = findPropertyThroughSpreads(spread.sourceCode, spread.object, name, resolve, depth + 1, spread.fileName ?? fileName);
    if (found !== undefined) return found;
  }
  return undefined;
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
