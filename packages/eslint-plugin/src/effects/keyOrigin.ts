import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES, ASTUtils } from '@typescript-eslint/utils';

import { ExpressionWalk, findVariableOf, isReassigned, type PropertyPath, resolveLocalFunction } from '../ast/index.js';
import { findConstantKey, type KeyNameMatcher } from '../keys/index.js';
import { isInside, isKeyName, type KeyedHandler } from './keyedHandlers.js';

// Whether the key a handler passes to a provider is its tool's key. The shared expression walk
// follows the value (templates, `??` and `?:`, wrappers, bindings and destructuring, member paths);
// this walk says what the handler's key, its context and a call are, and, since it must see every
// part of the value to call it something else, marks what it cannot follow.

/** Where a value comes from, as far as the tool's key goes. */
export type KeyOrigin = 'key' | 'other' | 'unknown';

/** How far one origin walk goes: deeper than this, the value is not visible. */
const LIMITS = { maxDepth: 20, maxSteps: 2000 };

/**
 * Values a key is not built from, and whose parts are not worth following: a literal object or
 * array, an assignment, a sequence, an update, a `typeof` or `!`, a spread argument.
 */
const NOT_FOLLOWED: ReadonlySet<AST_NODE_TYPES> = new Set([
  AST_NODE_TYPES.ArrayExpression,
  AST_NODE_TYPES.AssignmentExpression,
  AST_NODE_TYPES.ObjectExpression,
  AST_NODE_TYPES.SequenceExpression,
  AST_NODE_TYPES.SpreadElement,
  AST_NODE_TYPES.UnaryExpression,
  AST_NODE_TYPES.UpdateExpression,
]);

/**
 * Whether `expression` is the tool's key or built from it (`key`, `ctx.key`, `` `${key}:charge` ``,
 * `String(key)`, a `const` holding one of those), visibly something else (a literal, the input, the
 * run id, an import), or not visible (a parameter of a nested function, a call to a local function).
 */
export function traceKeyOrigin(
  expression: TSESTree.Node,
  handler: KeyedHandler,
  sourceCode: Readonly<TSESLint.SourceCode>,
  matchKeyName: KeyNameMatcher,
): KeyOrigin {
  const walk = new KeyOriginWalk(sourceCode, handler, matchKeyName);
  if (walk.at(expression) === 'key') return 'key';
  return walk.sawUnknown ? 'unknown' : 'other';
}

/**
 * Whether a key a provider call passes is visibly not the tool's key (require-key-passthrough's
 * `foreignKey`): for a `defineTool` handler, a value traced to something else (the input, the run
 * id, a literal); a framework tool derives its own key, so only a constant that is not read under a
 * key name is visibly not it. A string constant ({@link findConstantKey}) is never the tool's key,
 * whatever it is named: `const idempotencyKey = 'fixed'` is one key for every call.
 */
export function isForeignKey(value: TSESTree.Expression, handler: KeyedHandler, sourceCode: Readonly<TSESLint.SourceCode>, matchKeyName: KeyNameMatcher): boolean {
  if (findConstantKey(value, sourceCode)) return true;
  if (handler.key.kind === 'named') {
    return traceKeyOrigin(value, handler, sourceCode, matchKeyName) !== 'key' && ASTUtils.getStaticValue(value, sourceCode.getScope(value)) !== null;
  }
  return traceKeyOrigin(value, handler, sourceCode, matchKeyName) === 'other';
}

/** Finds `'key'`; a part it cannot follow sets {@link sawUnknown}, so that "all other" is known. */
class KeyOriginWalk extends ExpressionWalk<'key'> {
  sawUnknown = false;

  constructor(
    sourceCode: Readonly<TSESLint.SourceCode>,
    private readonly handler: KeyedHandler,
    private readonly matchKeyName: KeyNameMatcher,
  ) {
    super(sourceCode, LIMITS);
  }

  /** A framework tool's key is any value read under a key name: `input.idempotencyKey`, `opts.dedupeKey`. */
  protected override step(node: TSESTree.Node, path: PropertyPath): 'key' | undefined {
    if (this.handler.key.kind === 'named' && node.type === AST_NODE_TYPES.MemberExpression && this.readsKeyName(node)) return 'key';
    return this.visit(node, path);
  }

  protected override visit(node: TSESTree.Node, path: PropertyPath): 'key' | undefined {
    if (NOT_FOLLOWED.has(node.type)) return this.opaque();
    // Only concatenation builds a key from a key; `key === other` and `key * 2` are something else.
    if (node.type === AST_NODE_TYPES.BinaryExpression && node.operator !== '+') return undefined;
    return super.visit(node, path);
  }

  protected override opaque(): undefined {
    this.sawUnknown = true;
    return undefined;
  }

  protected override cutShort(): undefined {
    return this.opaque();
  }

  protected identifier(node: TSESTree.Identifier, path: PropertyPath): 'key' | undefined {
    const variable = findVariableOf(node, this.sourceCode);
    if (!variable || variable.defs.length === 0) return undefined; // `undefined`, a global
    const { key, fn } = this.handler;
    if (key.kind === 'variable' && variable === key.variable) return 'key';
    // The context: `ctx.key` is the key, `ctx.run` is not; `ctx` read whole, or by a computed name, is not visible.
    if (key.kind === 'context' && variable === key.variable) return path[0] === 'key' ? 'key' : path.length === 0 ? this.opaque() : undefined;
    if (key.kind === 'named' && isKeyName(variable.name, this.matchKeyName) && isInside(variable, fn)) return 'key';
    const def = variable.defs[0];
    if (variable.defs.length > 1 || !def) return this.opaque();
    if (def.type === 'ImportBinding') return undefined;
    if (def.type === 'Parameter') return def.node === fn ? undefined : this.opaque();
    if (def.type !== 'Variable' || !def.node.init || isReassigned(variable)) return this.opaque();
    return this.variable(variable, path);
  }

  /**
   * A call is built from the key when the key is an argument or the receiver (`key.slice(0, 40)`);
   * a function of this file may read the key from its closure, so one that is given nothing from
   * the key is not visible.
   */
  protected call(node: TSESTree.CallExpression): 'key' | undefined {
    const outer = this.sawUnknown;
    this.sawUnknown = false;
    const receiver = node.callee.type === AST_NODE_TYPES.MemberExpression ? [node.callee.object] : [];
    const found = this.first([...node.arguments, ...receiver]);
    const partsUnknown = this.sawUnknown;
    this.sawUnknown = outer || partsUnknown;
    if (found === undefined && !partsUnknown && isLocalHelper(node.callee, this.sourceCode)) this.opaque();
    return found;
  }

  protected thisMember(): undefined {
    return this.opaque();
  }

  protected newExpression(): undefined {
    return this.opaque();
  }

  protected unfollowedParameter(): undefined {
    return this.opaque();
  }

  private readsKeyName(node: TSESTree.MemberExpression): boolean {
    return !node.computed && node.property.type === AST_NODE_TYPES.Identifier && isKeyName(node.property.name, this.matchKeyName);
  }
}

/** `helper(...)` where `helper` is a function of this file (a declaration or a `const` function). */
function isLocalHelper(callee: TSESTree.Node, sourceCode: Readonly<TSESLint.SourceCode>): boolean {
  return callee.type === AST_NODE_TYPES.Identifier && resolveLocalFunction(callee, sourceCode) !== undefined;
}
