import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import {
  findProperty,
  findPropertyThroughSpreads,
  findVariableOf,
  type FunctionNode,
  getPropertyKeyName,
  getStaticMemberPath,
  getStaticPropertyName,
  isFunctionNode,
  resolveConst,
  resolveObject,
  skipWrappers,
} from '../ast/index.js';

// How a part of a tool definition inside a project's own wrapper comes from the wrapper's
// parameters (`config`, `t.config`, `t.annotations` where `t` walks an array parameter), and how
// that part is read back from the arguments of a call of the wrapper. Shared by the wrapper reader
// (localWrappers.ts) and the reader of configs a wrapper rebuilds field by field (rebuiltConfigs.ts).

type SourceCode = Readonly<TSESLint.SourceCode>;

/** Where a part comes from: a parameter of the wrapper, read at `path`; `each` for an element of an array parameter. */
export interface ParameterPath {
  readonly index: number;
  readonly path: readonly string[];
  readonly each: boolean;
}

/** A tool site at a wrapper's call: the argument (or, for `each`, one element object of the array argument). */
export interface WrapperItem {
  readonly item: TSESTree.Node;
  readonly node: TSESTree.CallExpression | TSESTree.ObjectExpression;
}

const MAX_PATH = 3;

/**
 * The property path at which `name` is bound inside a destructuring `pattern` (`{ config: { name } }`
 * → `['config', 'name']`); `[]` when the pattern is `name` itself.
 */
function patternPath(pattern: TSESTree.Node, name: TSESTree.Node, depth = 0): string[] | undefined {
  if (pattern === name) return [];
  if (pattern.type === AST_NODE_TYPES.AssignmentPattern) return patternPath(pattern.left, name, depth);
  if (pattern.type !== AST_NODE_TYPES.ObjectPattern || depth >= MAX_PATH) return undefined;
  for (const property of pattern.properties) {
    if (property.type !== AST_NODE_TYPES.Property || property.computed) continue;
    const key = getPropertyKeyName(property);
    const inner = key === undefined ? undefined : patternPath(property.value, name, depth + 1);
    if (inner) return [key as string, ...inner];
  }
  return undefined;
}

/**
 * `p`, `p.config`, `t` / `t.config` where `t` walks an array parameter (`for (const t of p)`,
 * `p.forEach((t) => ...)`, `p.map(...)`), destructured or not, TypeScript wrappers (`t.hints as Hints`) skipped.
 */
export function parameterPath(sourceCode: SourceCode, node: TSESTree.Node, fn: FunctionNode): ParameterPath | undefined {
  const read = getStaticMemberPath(skipWrappers(node), MAX_PATH);
  const current = read?.root;
  if (current?.type !== AST_NODE_TYPES.Identifier) return undefined;
  const { path } = read!;
  const def = findVariableOf(current, sourceCode)?.defs[0];
  if (!def) return undefined;
  if (def.type === 'Parameter' && def.node === fn) {
    for (const [index, param] of fn.params.entries()) {
      const bound = patternPath(param, def.name);
      if (bound) return { index, path: [...bound, ...path], each: false };
    }
    return undefined;
  }
  const element = arrayParameterOf(sourceCode, def, fn);
  return element === undefined ? undefined : { index: element.index, path: [...element.path, ...path], each: true };
}

/**
 * For `t` in `for (const t of p)` or `p.forEach((t) => ...)` / `p.map(...)`, where `p` is a parameter
 * of `fn`: `p`'s index, and the path inside the element where `t` is destructured from it
 * (`for (const { name } of p)`, `p.forEach(({ name, config }) => ...)`).
 */
function arrayParameterOf(sourceCode: SourceCode, def: TSESLint.Scope.Definition, fn: FunctionNode): { index: number; path: string[] } | undefined {
  let iterated: TSESTree.Node | undefined;
  let bound: string[] | undefined;
  if (def.type === 'Variable' && def.node.parent.parent?.type === AST_NODE_TYPES.ForOfStatement) {
    bound = patternPath(def.node.id, def.name);
    iterated = def.node.parent.parent.right;
  } else if (def.type === 'Parameter' && isFunctionNode(def.node) && def.node.params[0]) {
    bound = patternPath(def.node.params[0], def.name);
    const call = def.node.parent;
    const callee = call?.type === AST_NODE_TYPES.CallExpression && call.arguments[0] === def.node ? call.callee : undefined;
    if (callee?.type === AST_NODE_TYPES.MemberExpression && ['forEach', 'map'].includes(getStaticPropertyName(callee) ?? '')) iterated = callee.object;
  }
  if (!bound || iterated?.type !== AST_NODE_TYPES.Identifier) return undefined;
  const parameter = findVariableOf(iterated, sourceCode)?.defs[0];
  if (parameter?.type !== 'Parameter' || parameter.node !== fn) return undefined;
  const index = fn.params.indexOf(parameter.name as TSESTree.Parameter);
  return index === -1 ? undefined : { index, path: bound };
}

/** The argument (or, for `each`, each element object of the array argument) a parameter path starts from. */
export function argumentsAt(sourceCode: SourceCode, call: TSESTree.CallExpression, path: ParameterPath): WrapperItem[] {
  const argument = call.arguments[path.index];
  if (!argument || argument.type === AST_NODE_TYPES.SpreadElement) return [];
  if (!path.each) return [{ item: argument, node: call }];
  const array = resolveConst(sourceCode, argument);
  if (array.type !== AST_NODE_TYPES.ArrayExpression) return [];
  return array.elements.flatMap((element) => {
    const object = element && element.type !== AST_NODE_TYPES.SpreadElement ? resolveObject(sourceCode, element) : undefined;
    return object ? [{ item: object, node: object }] : [];
  });
}

/** Where `path` starts at a call: the element being registered, or the call's argument at the parameter's index. */
export function elementOrArgument(sourceCode: SourceCode, call: TSESTree.CallExpression, path: ParameterPath, item: TSESTree.Node): TSESTree.Node | undefined {
  if (path.each) return item;
  const argument = call.arguments[path.index];
  return argument && argument.type !== AST_NODE_TYPES.SpreadElement ? resolveConst(sourceCode, argument) : undefined;
}

/** The value at `path` below `start`, through `const` objects; `undefined` when a step is missing or not visible. */
export function readPath(sourceCode: SourceCode, start: TSESTree.Node | undefined, path: readonly string[]): TSESTree.Node | undefined {
  let current = start;
  for (const name of path) current = findProperty(resolveObject(sourceCode, current), name)?.value;
  return current;
}

/**
 * Like {@link readPath}, telling a field that is not there (`'absent'`: no visible part states it)
 * from one that is not known (`'unknown'`: a step is not a visible object literal, or a spread that
 * is not visible may set it). At the empty path, `start` itself as written.
 */
export function readPathStrictly(sourceCode: SourceCode, start: TSESTree.Node | undefined, path: readonly string[]): TSESTree.Node | 'absent' | 'unknown' {
  if (!start) return 'unknown';
  let current: TSESTree.Node = start;
  for (const name of path) {
    const object = resolveObject(sourceCode, current);
    if (!object) return 'unknown';
    const found = findPropertyThroughSpreads(sourceCode, object, name);
    if (found === null) return 'unknown';
    if (!found) return 'absent';
    current = found.property.value;
  }
  return current;
}

/**
 * The parameter names that name the tool a wrapper makes, where its config literal has no name field
 * (an AI SDK `tool()` is named by its key). Not `id`: a parameter `id` is as often the id of what the
 * tool acts on (`(id) => tool({ execute: () => db.get(id) })`); Mastra's `id` is read from the literal.
 */
const NAME_PARAMETERS = new Set(['name', 'toolName', 'toolId']);

/** The parameter of `fn` called like a tool's name (`name`, `toolName`, `toolId`), if any. */
export function nameParameter(fn: FunctionNode): ParameterPath | undefined {
  const index = fn.params.findIndex((param) => param.type === AST_NODE_TYPES.Identifier && NAME_PARAMETERS.has(param.name));
  return index === -1 ? undefined : { index, path: [], each: false };
}
