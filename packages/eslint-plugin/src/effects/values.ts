import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES, ASTUtils } from '@typescript-eslint/utils';

import { skipWrappers } from '../ast/index.js';
import { getStaticPropertyName } from '../ast/index.js';
import { findProperty, getPropertyKeyName, hasSpread } from '../ast/index.js';

// Following a value to what it is written as, the way resolveConst does (never-reassigned bindings,
// static members of object literals), plus the parameters of a helper the analysis stepped into:
// `githubRequest(url, { method: 'POST' })` binds the helper's `options` to that object, so that
// `fetch(url, { method: options.method })` inside it reads as a POST.

type SourceCode = Readonly<TSESLint.SourceCode>;
type Variable = TSESLint.Scope.Variable;

/** What a helper's parameter is bound to at the call the analysis came through. */
interface Binding {
  readonly node: TSESTree.Node;
  readonly env: Env;
  /** For a destructured parameter (`{ method }`): the property of the argument it reads. */
  readonly property?: string | undefined;
  /** The parameter's default, when the argument leaves it out. */
  readonly fallback?: TSESTree.Node | undefined;
}

/** Parameters bound along the path of helper calls that led here; empty at a tool's handler. */
export type Env = ReadonlyMap<Variable, Binding>;

export const EMPTY_ENV: Env = new Map();

/** A node and the bindings it is read under. */
export interface Located<T extends TSESTree.Node = TSESTree.Node> {
  readonly node: T;
  readonly env: Env;
  /** The value is a property the object literal it reads does not have (`options.method` of `{}`): `undefined` at run time. */
  readonly absent?: boolean | undefined;
}

const MAX_DEPTH = 10;

/** Follows `node` through `const`s, bound parameters and static members of object literals. */
export function follow(sourceCode: SourceCode, node: TSESTree.Node, env: Env, depth = 0): Located {
  const value = skipWrappers(node, { awaits: true, optionalChains: true });
  if (depth > MAX_DEPTH) return { node: value, env };
  if (value.type === AST_NODE_TYPES.MemberExpression) {
    const name = getStaticPropertyName(value);
    if (name === undefined) return { node: value, env };
    const object = follow(sourceCode, value.object, env, depth + 1);
    if (object.node.type !== AST_NODE_TYPES.ObjectExpression) return { node: value, env };
    const property = findProperty(object.node, name);
    if (property) return follow(sourceCode, property.value, object.env, depth + 1);
    return { node: value, env, absent: !hasSpread(object.node) };
  }
  if (value.type !== AST_NODE_TYPES.Identifier) return { node: value, env };
  const variable = ASTUtils.findVariable(sourceCode.getScope(value), value);
  if (!variable) return { node: value, env };
  const binding = env.get(variable);
  if (binding) return followBinding(sourceCode, binding, depth);
  const def = variable.defs.length === 1 ? variable.defs[0] : undefined;
  if (def?.type !== 'Variable' || def.node.id.type !== AST_NODE_TYPES.Identifier || !def.node.init) return { node: value, env };
  if (variable.references.some((reference) => reference.isWrite() && !reference.init)) return { node: value, env };
  return follow(sourceCode, def.node.init, env, depth + 1);
}

function followBinding(sourceCode: SourceCode, binding: Binding, depth: number): Located {
  const argument = follow(sourceCode, binding.node, binding.env, depth + 1);
  if (binding.property === undefined) return argument;
  const object = argument.node.type === AST_NODE_TYPES.ObjectExpression ? argument.node : undefined;
  const property = object && findProperty(object, binding.property);
  if (property) return follow(sourceCode, property.value, argument.env, depth + 1);
  if (object && !hasSpread(object) && binding.fallback) return follow(sourceCode, binding.fallback, EMPTY_ENV, depth + 1);
  return { node: argument.node, env: argument.env, absent: object !== undefined && !hasSpread(object) };
}

/** The object literal `node` is written as, if any. */
export function followObject(sourceCode: SourceCode, node: TSESTree.Node | undefined, env: Env): Located<TSESTree.ObjectExpression> | undefined {
  if (!node) return undefined;
  const found = follow(sourceCode, node, env);
  return found.node.type === AST_NODE_TYPES.ObjectExpression ? (found as Located<TSESTree.ObjectExpression>) : undefined;
}

/**
 * The bindings of `fn`'s parameters at `call` (plain, defaulted and destructured parameters;
 * rest parameters and nested patterns are left unbound, so they read as not visible).
 */
export function bindParameters(
  sourceCode: SourceCode,
  fn: TSESTree.FunctionLike,
  call: TSESTree.CallExpression | TSESTree.NewExpression,
  env: Env,
): Env {
  const bound = new Map(env);
  const declared = sourceCode.getDeclaredVariables(fn);
  const variableOf = (identifier: TSESTree.Identifier): Variable | undefined => declared.find((variable) => variable.identifiers.includes(identifier));
  for (const [index, param] of fn.params.entries()) {
    const argument = call.arguments[index];
    if (argument?.type === AST_NODE_TYPES.SpreadElement || call.arguments.slice(0, index).some((a) => a.type === AST_NODE_TYPES.SpreadElement)) break;
    const [target, fallback] = param.type === AST_NODE_TYPES.AssignmentPattern ? [param.left, param.right] : [param, undefined];
    const value = argument ?? fallback;
    if (target.type === AST_NODE_TYPES.Identifier) {
      const variable = variableOf(target);
      if (variable && value) bound.set(variable, { node: value, env: argument ? env : EMPTY_ENV });
    } else if (target.type === AST_NODE_TYPES.ObjectPattern && value) {
      for (const property of target.properties) {
        if (property.type !== AST_NODE_TYPES.Property) continue;
        const name = getPropertyKeyName(property, sourceCode);
        const [inner, innerFallback] =
          property.value.type === AST_NODE_TYPES.AssignmentPattern ? [property.value.left, property.value.right] : [property.value, undefined];
        const variable = inner.type === AST_NODE_TYPES.Identifier ? variableOf(inner) : undefined;
        if (variable && name !== undefined) bound.set(variable, { node: value, env: argument ? env : EMPTY_ENV, property: name, fallback: innerFallback });
      }
    }
  }
  return bound;
}

/** The static string a node is written as: a literal, a template without holes, a `const` holding one. */
export function followString(sourceCode: SourceCode, node: TSESTree.Node | undefined, env: Env): string | undefined {
  if (!node) return undefined;
  if (node.type === AST_NODE_TYPES.LogicalExpression && (node.operator === '??' || node.operator === '||')) {
    const left = follow(sourceCode, node.left, env);
    return left.absent ? followString(sourceCode, node.right, env) : followString(sourceCode, left.node, left.env);
  }
  const located = follow(sourceCode, node, env);
  if (located.absent) return undefined;
  const found = located.node;
  // `name === 'send_email' ? 'send' : 'draft'`, decided under the bindings.
  if (found.type === AST_NODE_TYPES.ConditionalExpression) {
    const decided = decideEquality(sourceCode, found.test, located.env);
    return decided === undefined ? undefined : followString(sourceCode, decided ? found.consequent : found.alternate, located.env);
  }
  if (found.type === AST_NODE_TYPES.Literal) return typeof found.value === 'string' ? found.value : undefined;
  if (found.type === AST_NODE_TYPES.TemplateLiteral && found.expressions.length === 0) return found.quasis[0]?.value.cooked ?? undefined;
  const value = ASTUtils.getStaticValue(found, sourceCode.getScope(found))?.value;
  return typeof value === 'string' ? value : undefined;
}

/** `x === 'send'` (or `!==`, `==`, `!=`) where both sides are static strings under the bindings; `undefined` when not known. */
export function decideEquality(sourceCode: SourceCode, test: TSESTree.Expression, env: Env): boolean | undefined {
  if (env.size === 0 || test.type !== AST_NODE_TYPES.BinaryExpression || !['===', '!==', '==', '!='].includes(test.operator)) return undefined;
  if (test.left.type === AST_NODE_TYPES.PrivateIdentifier) return undefined;
  const left = followString(sourceCode, test.left, env);
  const right = followString(sourceCode, test.right, env);
  if (left === undefined || right === undefined) return undefined;
  const equal = left === right;
  return test.operator === '===' || test.operator === '==' ? equal : !equal;
}

/** A binding of `variable` to a string known from outside the code (a low-level tool's own name). */
export function bindString(env: Env, variable: Variable, value: string): Env {
  const literal = { type: AST_NODE_TYPES.Literal, value, raw: JSON.stringify(value) } as unknown as TSESTree.StringLiteral;
  return new Map(env).set(variable, { node: literal, env: EMPTY_ENV });
}
