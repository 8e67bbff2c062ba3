import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import { findVariableOf, getChildNodes, getConstantInitializer, isSpecKeyCallee, skipWrappers } from '../ast/index.js';
import type { KeyPosition } from './keyPositions.js';

// A key that falls back to a constant: `currentCall()?.key ?? ''`, `input.key ?? 'default'`,
// `opts.idempotencyKey || 'refund'`, `k ? k : ''`, `function refund(key = '')`. Every call that
// lacks the real key sends the same one, so a later, different call gets the first one's result
// (or the provider rejects the reused key): the opposite of a random key, and as wrong. Only a
// constant the file shows counts (a string or number literal, a template without expressions, a
// `const` bound to one), and only where the whole key is then that constant: a fallback inside a
// key that keeps another varying part (`${runId}:${note ?? ''}`) still differs between calls.
// A key that is a constant outright (`idempotencyKey: 'refund'`, `const KEY = 'refund-key'`) is one
// key for every call too, with no real key to fall back from: findConstantKey.

type SourceCode = Readonly<TSESLint.SourceCode>;

/** A fallback that makes a key one constant for every call that lacks the real key. */
export interface ConstantFallback {
  /** The fallback: `key ?? ''`, `k ? k : ''`, a default `key = ''`, an assignment `opts.idempotencyKey ??= 'x'`. */
  readonly node: TSESTree.Node;
  /** The constant as written (`''`, `'default'`, `DEFAULT_KEY`). */
  readonly fallback: TSESTree.Node;
  /** What it falls back from (`currentCall()?.key`, `input.key`, `k`). */
  readonly primary: TSESTree.Node;
  /** The whole key when the fallback is taken (`''`, `'refund:'`). */
  readonly key: string | number;
}

/** A key that is one string constant for every call: `'refund'`, `` `refund` ``, or a `const` bound to one. */
export interface ConstantKey {
  /** The string as written, where the constant is (`'refund-key'` of `const KEY = 'refund-key'`). */
  readonly literal: TSESTree.StringLiteral | TSESTree.TemplateLiteral;
  /** The name the key reads, when it reads one (`KEY`); the first of a chain of `const`s. */
  readonly name: TSESTree.Identifier | undefined;
  /** The key's value. */
  readonly value: string;
}

/**
 * The string constant `value` (a key position's value) is, with nothing that varies between calls:
 * a string literal, a template without expressions, or a name bound once to one of those and never
 * written again (`const KEY = 'refund-key'`, followed through further `const`s), or the spec's `key`
 * template with no substitution (`` key`refund` ``). Nothing else: a
 * concatenation, a number, a member of a `const` object or an import is not read as one.
 */
export function findConstantKey(value: TSESTree.Node, sourceCode: SourceCode): ConstantKey | undefined {
  let name: TSESTree.Identifier | undefined;
  let node = skipWrappers(value);
  for (let depth = 0; node.type === AST_NODE_TYPES.Identifier && depth < MAX_DEPTH; depth++) {
    const init = getConstantInitializer(findVariableOf(node, sourceCode));
    if (!init) return undefined;
    name ??= node;
    node = skipWrappers(init);
  }
  if (node.type === AST_NODE_TYPES.Literal && typeof node.value === 'string') return { literal: node as TSESTree.StringLiteral, name, value: node.value };
  // The spec's key template with nothing in it (`` key`refund` ``): a DeterministicKey, but one for every call.
  const template = node.type === AST_NODE_TYPES.TaggedTemplateExpression && isSpecKeyCallee(sourceCode, node.tag) ? node.quasi : node;
  if (template.type === AST_NODE_TYPES.TemplateLiteral && template.expressions.length === 0) {
    const [quasi] = template.quasis;
    return { literal: template, name, value: quasi ? (quasi.value.cooked ?? quasi.value.raw) : '' };
  }
  return undefined;
}

/** What a value is when every fallback in it is taken: a constant, and the first fallback that made it one. */
interface Evaluated {
  readonly value: string | number;
  readonly fallback: ConstantFallback | undefined;
}

const MAX_DEPTH = 10;

/**
 * The constant fallback that `value` (a key position's value) can take, when the whole key is then
 * that constant; `undefined` when the key has no such fallback, keeps a varying part, or falls back
 * to something that is not a constant the file shows (`?? generateKeyFromRun(run)`,
 * `` ?? `${runId}:${orderId}:refund` ``). Follows `const` bindings (and `let`s never written
 * again), templates and `+`.
 */
export function findConstantFallback(value: TSESTree.Node, sourceCode: SourceCode): ConstantFallback | undefined {
  // `opts.idempotencyKey ??= 'refund'`: the key position's value is the right side.
  const assignment = value.parent;
  if (assignment?.type === AST_NODE_TYPES.AssignmentExpression && assignment.right === value && (assignment.operator === '??=' || assignment.operator === '||=')) {
    const constant = evaluate(value, sourceCode, 0);
    if (constant) return { ...(constant.fallback ?? { node: assignment, fallback: value, primary: assignment.left }), key: constant.value };
  }
  return wholeKey(evaluate(value, sourceCode, 0));
}

/**
 * The constant fallback of a key position ({@link findConstantFallback} of its value). A part of the
 * spec's `` key`...` `` template is not the whole key: the template is, so a fallback in one part is
 * reported (at that part) only when every other part is a constant too.
 */
export function findPositionFallback(position: KeyPosition, sourceCode: SourceCode): ConstantFallback | undefined {
  if (position.kind !== 'specKey') return findConstantFallback(position.value, sourceCode);
  const template = position.value.parent;
  if (template?.type !== AST_NODE_TYPES.TemplateLiteral || template.parent?.type !== AST_NODE_TYPES.TaggedTemplateExpression) return undefined;
  const whole = wholeKey(evaluate(template, sourceCode, 0));
  return whole && evaluate(position.value, sourceCode, 0)?.fallback?.node === whole.node ? whole : undefined;
}

/** The fallback with the whole key it makes (a part's fallback makes `'refund:'` of `` `refund:${k ?? ''}` ``). */
function wholeKey(evaluated: Evaluated | undefined): ConstantFallback | undefined {
  return evaluated?.fallback && { ...evaluated.fallback, key: evaluated.value };
}

function evaluate(expression: TSESTree.Node, sourceCode: SourceCode, depth: number): Evaluated | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const node = skipWrappers(expression);
  const next = (child: TSESTree.Node): Evaluated | undefined => evaluate(child, sourceCode, depth + 1);
  switch (node.type) {
    case AST_NODE_TYPES.Literal:
      return typeof node.value === 'string' || typeof node.value === 'number' ? { value: node.value, fallback: undefined } : undefined;
    case AST_NODE_TYPES.TemplateLiteral:
      return concatenate(node.quasis.map((quasi) => quasi.value.cooked ?? quasi.value.raw), node.expressions.map(next));
    case AST_NODE_TYPES.BinaryExpression: {
      if (node.operator !== '+') return undefined;
      const left = next(node.left);
      const right = left && next(node.right);
      if (!left || !right) return undefined;
      const sum = typeof left.value === 'number' && typeof right.value === 'number' ? left.value + right.value : `${left.value}${right.value}`;
      return { value: sum, fallback: left.fallback ?? right.fallback };
    }
    case AST_NODE_TYPES.LogicalExpression:
      return node.operator === '&&' ? undefined : fallbackTo(node, node.left, node.right, sourceCode, depth);
    case AST_NODE_TYPES.ConditionalExpression:
      return conditionalFallback(node, sourceCode, depth);
    case AST_NODE_TYPES.Identifier:
      return binding(node, sourceCode, depth);
    default:
      return undefined;
  }
}

/** A template's value when every part is a constant (`` `refund:${key ?? ''}` `` → `'refund:'`). */
function concatenate(quasis: readonly string[], parts: readonly (Evaluated | undefined)[]): Evaluated | undefined {
  let value = quasis[0] ?? '';
  let fallback: ConstantFallback | undefined;
  for (const [index, part] of parts.entries()) {
    if (!part) return undefined;
    value += `${part.value}${quasis[index + 1] ?? ''}`;
    fallback ??= part.fallback;
  }
  return { value, fallback };
}

/**
 * `primary ?? constant` (also `||`, a default, a conditional): a constant only when the primary is
 * not one itself (then there is nothing to fall back from). `primaryIsCallers`: the primary is what
 * a caller passes (a default's own name), not a value to evaluate.
 */
function fallbackTo(node: TSESTree.Node, primary: TSESTree.Node, alternative: TSESTree.Node, sourceCode: SourceCode, depth: number, primaryIsCallers = false): Evaluated | undefined {
  const constant = evaluate(alternative, sourceCode, depth + 1);
  if (!constant || (!primaryIsCallers && evaluate(primary, sourceCode, depth + 1))) return undefined;
  return { value: constant.value, fallback: constant.fallback ?? { node, fallback: alternative, primary, key: constant.value } };
}

/**
 * `k ? k : ''`, `!k ? '' : k`, `k != null ? k : ''`: one branch a constant, the other a value the
 * test reads, so the constant is what the key is when that value is missing. A conditional between
 * two values chosen by something else (`live ? liveKey : 'test'`) is a choice, not a fallback.
 */
function conditionalFallback(node: TSESTree.ConditionalExpression, sourceCode: SourceCode, depth: number): Evaluated | undefined {
  for (const [primary, alternative] of [[node.consequent, node.alternate], [node.alternate, node.consequent]] as const) {
    if (readsValue(node.test, skipWrappers(primary, { optionalChains: true }), sourceCode)) {
      const found = fallbackTo(node, primary, alternative, sourceCode, depth);
      if (found) return found;
    }
  }
  return undefined;
}

/** Whether `test` holds an expression written as `value` is (`k` in `!k`, `k != null`, `k.length > 0`). */
function readsValue(test: TSESTree.Node, value: TSESTree.Node, sourceCode: SourceCode): boolean {
  const text = sourceCode.getText(value);
  const pending: TSESTree.Node[] = [test];
  for (let node = pending.pop(); node; node = pending.pop()) {
    const unwrapped = skipWrappers(node, { optionalChains: true });
    if (unwrapped.type === value.type && sourceCode.getText(unwrapped) === text) return true;
    pending.push(...getChildNodes(node, sourceCode));
  }
  return false;
}

/**
 * A name bound once and never written again: its initialiser (`const key = currentCall()?.key ??
 * ''`), or a default (`function refund(key = '')`, `const { key = 'x' } = input`): a caller that
 * passes no key gets the constant.
 */
function binding(node: TSESTree.Identifier, sourceCode: SourceCode, depth: number): Evaluated | undefined {
  const variable = findVariableOf(node, sourceCode);
  // `if (!key) throw ...`: the code checks the value, so the fallback may never reach the key.
  if (variable && isTested(variable)) return undefined;
  const init = getConstantInitializer(variable);
  if (init) return evaluate(init, sourceCode, depth + 1);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  const pattern = def?.name.parent;
  if (!variable || variable.references.some((reference) => reference.isWrite() && !reference.init)) return undefined;
  if ((def?.type !== 'Parameter' && def?.type !== 'Variable') || pattern?.type !== AST_NODE_TYPES.AssignmentPattern || pattern.left !== def.name) return undefined;
  return fallbackTo(pattern, pattern.left, pattern.right, sourceCode, depth, true);
}

/** Calls that check a value and throw when it is wrong (`assert(key)`, `invariant(key, ...)`). */
const CHECK_CALL = /^(assert\w*|invariant|ok|ensure\w*|strictEqual|notStrictEqual|notEqual|equal|expect)$/;

/**
 * Whether the code tests the variable's value anywhere: an `if`, loop or `switch` test, a
 * conditional's test, the left of `||`/`&&`/`??` (`key || fail()`), or a check call. A key read
 * after `if (!key) throw ...` or `if (key === '') return` never carries the fallback; the rule cannot
 * follow the control flow, so any test makes it stay silent rather than guess.
 */
function isTested(variable: NonNullable<ReturnType<typeof findVariableOf>>): boolean {
  return variable.references.some((reference) => {
    let child: TSESTree.Node = reference.identifier;
    for (let parent: TSESTree.Node | undefined = child.parent; parent; child = parent, parent = parent.parent) {
      switch (parent.type) {
        case AST_NODE_TYPES.IfStatement:
        case AST_NODE_TYPES.WhileStatement:
        case AST_NODE_TYPES.DoWhileStatement:
        case AST_NODE_TYPES.ForStatement:
        case AST_NODE_TYPES.ConditionalExpression:
          if (parent.test === child) return true;
          break;
        case AST_NODE_TYPES.SwitchStatement:
          if (parent.discriminant === child) return true;
          break;
        case AST_NODE_TYPES.LogicalExpression:
          if (parent.left === child) return true;
          break;
        case AST_NODE_TYPES.CallExpression: {
          const callee = parent.callee.type === AST_NODE_TYPES.MemberExpression ? parent.callee.property : parent.callee;
          if (parent.arguments.includes(child as TSESTree.CallExpressionArgument) && callee.type === AST_NODE_TYPES.Identifier && CHECK_CALL.test(callee.name)) return true;
          break;
        }
        default:
          break;
      }
      if (parent.type.endsWith('Statement') || parent.type.endsWith('Declaration') || isFunctionNode(parent)) return false;
    }
    return false;
  });
}

function isFunctionNode(node: TSESTree.Node): boolean {
  return node.type === AST_NODE_TYPES.ArrowFunctionExpression || node.type === AST_NODE_TYPES.FunctionExpression || node.type === AST_NODE_TYPES.FunctionDeclaration;
}
