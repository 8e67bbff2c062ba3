import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import { findProperty, findVariableOf, hasSpread, resolveConst, resolveObject, staticString } from '../ast/index.js';
import { getKeyPositions, type KeyNameMatcher } from '../keys/index.js';
import { isStripeOptions, type KeyedProviderCall } from './keyedProviders.js';

// Whether a provider call passes an idempotency key where the provider reads one, and, when it does
// not, where a key could be added: an options property, a header, a new argument.

type SourceCode = Readonly<TSESLint.SourceCode>;
type Invocation = TSESTree.CallExpression | TSESTree.NewExpression;

/** How to add a missing key. */
export type KeyInsertion =
  /** Add the key property or header to this object literal. */
  | { readonly kind: 'property'; readonly object: TSESTree.ObjectExpression }
  /** Add `headers: { ... }` to this request config literal. */
  | { readonly kind: 'headers'; readonly object: TSESTree.ObjectExpression }
  /** Add the options or config as argument `index` of `call`, after `fillers` for the arguments before it. */
  | { readonly kind: 'argument'; readonly call: Invocation; readonly fillers: readonly string[] };

/** Whether a call passes a key, and the key's expression or how to add one. */
export type PassedKey =
  | { readonly kind: 'passed'; readonly value: TSESTree.Expression }
  /** No key; `insertion` is missing when there is no safe place to add one. */
  | { readonly kind: 'missing'; readonly insertion: KeyInsertion | undefined }
  /** The options or headers are not visible (spread, a parameter, built by a call). */
  | { readonly kind: 'unknown' };

/**
 * Whether `call` passes a key where its provider reads one. For headers, any key name of
 * `matchKeyName` counts (in any letter case), set in the config literal, in `new Headers(...)`, or on
 * a headers variable with `headers.set(...)` / `headers[name] = ...`.
 */
export function findPassedKey(call: KeyedProviderCall, sourceCode: SourceCode, matchKeyName: KeyNameMatcher): PassedKey {
  const { target, argument } = call;
  const args = target.arguments;
  if (args.slice(0, argument + 1).some((a) => a.type === AST_NODE_TYPES.SpreadElement)) return { kind: 'unknown' };
  if (call.carrier.kind === 'option') {
    const property = call.carrier.property;
    for (const [index, candidate] of args.entries()) {
      const object = resolveObject(sourceCode, candidate);
      if (index !== argument && !(call.keyInAnyArgument && object && isStripeOptions(object))) continue;
      const found = findProperty(object, property);
      if (found) return { kind: 'passed', value: found.value as TSESTree.Expression };
    }
  }
  const configNode = args[argument];
  if (!configNode) {
    // One filler at most (Stripe's params, axios's data): a missing id or URL is not ours to invent.
    const fillers = Array.from({ length: argument - args.length }, () => call.filler);
    const insertion: KeyInsertion | undefined = fillers.length <= 1 ? { kind: 'argument', call: target, fillers } : undefined;
    return { kind: 'missing', insertion };
  }
  const config = resolveObject(sourceCode, configNode);
  if (!config) return { kind: 'unknown' };
  if (call.carrier.kind === 'option') {
    return hasSpread(config) ? { kind: 'unknown' } : { kind: 'missing', insertion: { kind: 'property', object: config } };
  }
  const headers = findProperty(config, 'headers');
  if (!headers) {
    return hasSpread(config) ? { kind: 'unknown' } : { kind: 'missing', insertion: { kind: 'headers', object: config } };
  }
  const header = call.carrier.header;
  return findHeaderKey(sourceCode, headers.value, (name) => matchKeyName(name) ?? (sameHeader(name, header) ? name : undefined));
}

/** A key among headers given as an object, `new Headers(...)`, an array of pairs, or a variable set later. */
function findHeaderKey(sourceCode: SourceCode, node: TSESTree.Node, matchKeyName: KeyNameMatcher, depth = 0): PassedKey {
  const setLater = node.type === AST_NODE_TYPES.Identifier ? findHeaderSetOn(sourceCode, node, matchKeyName) : undefined;
  if (setLater) return { kind: 'passed', value: setLater };
  const value = resolveConst(sourceCode, node);
  const context = { sourceCode, matchKeyName };
  if (value.type === AST_NODE_TYPES.ObjectExpression) {
    for (const property of value.properties) {
      const [position] = getKeyPositions(property, context);
      if (position) return { kind: 'passed', value: position.value };
    }
    return hasSpread(value) ? { kind: 'unknown' } : { kind: 'missing', insertion: { kind: 'property', object: value } };
  }
  if (value.type === AST_NODE_TYPES.NewExpression && depth < 2) {
    const [position] = getKeyPositions(value, context); // new Headers([['Idempotency-Key', key]])
    if (position) return { kind: 'passed', value: position.value };
    const [init] = value.arguments;
    if (!init) return { kind: 'missing', insertion: undefined };
    return init.type === AST_NODE_TYPES.SpreadElement ? { kind: 'unknown' } : findHeaderKey(sourceCode, init, matchKeyName, depth + 1);
  }
  if (value.type === AST_NODE_TYPES.ArrayExpression) return findKeyInHeaderArray(sourceCode, value, matchKeyName);
  return { kind: 'unknown' };
}

/** undici's flat `['name', value, ...]` and the entries form `[['name', value], ...]`. */
function findKeyInHeaderArray(sourceCode: SourceCode, array: TSESTree.ArrayExpression, matchKeyName: KeyNameMatcher): PassedKey {
  const elements = array.elements;
  for (const [index, element] of elements.entries()) {
    if (!element || element.type === AST_NODE_TYPES.SpreadElement) return { kind: 'unknown' };
    const pair = element.type === AST_NODE_TYPES.ArrayExpression ? element.elements : [element, elements[index + 1]];
    const [name, value] = pair;
    const headerName = name && name.type !== AST_NODE_TYPES.SpreadElement ? staticString(sourceCode, name) : undefined;
    if (headerName !== undefined && matchKeyName(headerName) !== undefined && value && value.type !== AST_NODE_TYPES.SpreadElement) {
      return { kind: 'passed', value };
    }
  }
  return { kind: 'missing', insertion: undefined };
}

/** `headers.set('Idempotency-Key', v)` or `headers['Idempotency-Key'] = v` on the variable `node` reads. */
function findHeaderSetOn(sourceCode: SourceCode, node: TSESTree.Identifier, matchKeyName: KeyNameMatcher): TSESTree.Expression | undefined {
  const variable = findVariableOf(node, sourceCode);
  for (const reference of variable?.references ?? []) {
    const member = reference.identifier.parent;
    if (member?.type !== AST_NODE_TYPES.MemberExpression || member.object !== reference.identifier) continue;
    const user = member.parent;
    if (user.type !== AST_NODE_TYPES.CallExpression && user.type !== AST_NODE_TYPES.AssignmentExpression) continue;
    const [position] = getKeyPositions(user, { sourceCode, matchKeyName });
    if (position) return position.value;
  }
  return undefined;
}

function sameHeader(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}
