import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import { describeNode, findProperty, getStaticPropertyName, getStaticValueOf, isFunctionNode, resolveObject, skipWrappers, walk } from '../ast/index.js';

// Whether a test's calls and its assertion run, and can fail: a called-twice test inside
// `it.skip(...)` never runs, one inside `it.skipIf(cond)(...)` or `if (process.env.X) { it(...) }` is
// not known to run, and one whose assertion sits in a `try` whose `catch` swallows the failure
// passes whatever the tool did. None of them shows a single effect (new-user trial 4: the audit
// answered question 5 yes from each).

type SourceCode = Readonly<TSESLint.SourceCode>;

/** Why a test shows nothing: it never runs, it is not known to run, or its failure is swallowed. */
export interface TestReach {
  readonly kind: 'conditional' | 'skipped' | 'swallowed';
  /** The skip, the condition or the `catch` clause, as the report names it (`it.skip`, `if (process.env.X)`). */
  readonly text: string;
  readonly node: TSESTree.Node;
}

/** The test functions' names, and the ones that are skipped by their name alone (`xit`). */
const TEST_FUNCTIONS = new Set(['it', 'test', 'describe', 'suite', 'context', 'specify', 'bench', 'xit', 'xtest', 'xdescribe', 'xcontext', 'xspecify']);
const SKIPPED_FUNCTIONS = new Set(['xit', 'xtest', 'xdescribe', 'xcontext', 'xspecify']);
const SKIPPED_MODIFIERS = new Set(['skip', 'todo']);
const CONDITIONAL_MODIFIERS = new Set(['skipIf', 'runIf']);
/** Calls in a `catch` that make the test fail after all (`expect.fail(...)`, `assert.fail()`, `t.fail()`, a `done(error)`), or assert on what was caught. */
const FAILING_CALLS = new Set(['fail', 'expect', 'assert', 'ok', 'equal', 'strictEqual', 'deepEqual', 'deepStrictEqual', 'is', 'throws', 'rejects', 'done']);

/**
 * What keeps the test around `call` (and its `assertion`) from showing an effect: a skipped or
 * conditional test or suite around it (`it.skip`, `test.todo`, `xit`, `describe.skip`,
 * `it.skipIf(…)`, `it.runIf(…)`, node:test's `{ skip: true }` option, an `if` around the test or
 * inside it), or, for the assertion, a `try` whose `catch` neither rethrows nor fails. `undefined`
 * when nothing does. The outermost skip wins over an inner condition: a skipped suite never runs.
 */
export function findTestReach(sourceCode: SourceCode, call: TSESTree.Node, assertion: TSESTree.Node | undefined): TestReach | undefined {
  const around = [call, ...(assertion && assertion !== call ? [assertion] : [])].map((node) => reachOf(sourceCode, node));
  return around.find((found) => found?.kind === 'skipped') ?? around.find((found) => found?.kind === 'conditional') ?? (assertion ? swallowingCatch(sourceCode, assertion) : undefined);
}

function reachOf(sourceCode: SourceCode, node: TSESTree.Node): TestReach | undefined {
  let conditional: TestReach | undefined;
  let child: TSESTree.Node = node;
  for (let parent = node.parent; parent; child = parent, parent = parent.parent) {
    if (parent.type === AST_NODE_TYPES.CallExpression && isFunctionNode(child) && parent.arguments.includes(child as TSESTree.CallExpressionArgument)) {
      const found = testCallReach(sourceCode, parent);
      if (found?.kind === 'skipped') return found;
      conditional ??= found;
    }
    if ((parent.type === AST_NODE_TYPES.IfStatement || parent.type === AST_NODE_TYPES.ConditionalExpression) && parent.test !== child && !isVitestInSource(parent.test)) {
      conditional ??= { kind: 'conditional', text: `if (${describeNode(parent.test, sourceCode)})`, node: parent.test };
    }
    if (parent.type === AST_NODE_TYPES.LogicalExpression && parent.right === child && parent.operator === '&&') {
      conditional ??= { kind: 'conditional', text: `${describeNode(parent.left, sourceCode)} &&`, node: parent.left };
    }
    if (parent.type === AST_NODE_TYPES.BlockStatement && conditional === undefined) {
      conditional = earlyExitBefore(sourceCode, parent.body, child);
    }
  }
  return conditional;
}

/**
 * An `if` among the statements before `child` in its block that leaves the block's function without
 * failing: `if (!db) return;`, or a test context's skip (`if (!db) ctx.skip()`, node:test's
 * `t.skip()`). What follows it runs only when the condition is false, as under an `if` around it
 * (new-user trial 5: an early return read as a test that runs). A `throw` fails the test, so it
 * is not such an exit.
 */
function earlyExitBefore(sourceCode: SourceCode, statements: readonly TSESTree.Statement[], child: TSESTree.Node): TestReach | undefined {
  for (const statement of statements) {
    if (statement === child) return undefined;
    if (statement.type !== AST_NODE_TYPES.IfStatement) continue;
    const exit = quietExit(statement.consequent) ?? (statement.alternate ? quietExit(statement.alternate) : undefined);
    if (exit) return { kind: 'conditional', text: `if (${describeNode(statement.test, sourceCode)}) ${exit}`, node: statement.test };
  }
  return undefined;
}

/** How a branch ends the function without failing it, as the report names it: `return`, or a test context's `skip()`. */
function quietExit(branch: TSESTree.Statement): 'return' | 'skip()' | undefined {
  if (branch.type === AST_NODE_TYPES.ReturnStatement) return 'return';
  if (branch.type === AST_NODE_TYPES.BlockStatement) {
    for (const statement of branch.body) {
      const exit = quietExit(statement);
      if (exit) return exit;
    }
    return undefined;
  }
  if (branch.type !== AST_NODE_TYPES.ExpressionStatement) return undefined;
  const expression = skipWrappers(branch.expression);
  const call = expression.type === AST_NODE_TYPES.AwaitExpression ? skipWrappers(expression.argument) : expression;
  return call.type === AST_NODE_TYPES.CallExpression && call.callee.type === AST_NODE_TYPES.MemberExpression && getStaticPropertyName(call.callee) === 'skip' ? 'skip()' : undefined;
}

/** `if (import.meta.vitest)`: vitest's in-source tests, which run under vitest. */
function isVitestInSource(test: TSESTree.Node): boolean {
  const node = skipWrappers(test);
  return node.type === AST_NODE_TYPES.MemberExpression && getStaticPropertyName(node) === 'vitest' && node.object.type === AST_NODE_TYPES.MetaProperty;
}

/** A test or suite call that skips its callback (`it.skip(...)`), or runs it only under a condition (`it.skipIf(c)(...)`). */
function testCallReach(sourceCode: SourceCode, call: TSESTree.CallExpression): TestReach | undefined {
  const chain = calleeChain(call.callee);
  if (!chain || !TEST_FUNCTIONS.has(chain.base)) return undefined;
  const text = [chain.base, ...chain.members].join('.');
  if (SKIPPED_FUNCTIONS.has(chain.base) || chain.members.some((member) => SKIPPED_MODIFIERS.has(member))) return { kind: 'skipped', text, node: call.callee };
  const condition = chain.members.find((member) => CONDITIONAL_MODIFIERS.has(member));
  if (condition) return { kind: 'conditional', text: `${text}(${chain.condition ? describeNode(chain.condition, sourceCode) : '…'})`, node: call.callee };
  // node:test and mocha-like options: `it('x', { skip: true }, fn)`, `{ todo: 'later' }`, `{ skip: process.env.CI }`.
  for (const argument of call.arguments) {
    const options = argument.type === AST_NODE_TYPES.ObjectExpression ? resolveObject(sourceCode, argument) : undefined;
    for (const name of ['skip', 'todo']) {
      const value = findProperty(options, name)?.value;
      if (!value) continue;
      const known = getStaticValueOf(sourceCode, value);
      if (known === undefined) return { kind: 'conditional', text: `${text}(…, { ${name}: ${describeNode(value, sourceCode)} })`, node: value };
      if (known) return { kind: 'skipped', text: `${text}(…, { ${name}: ${describeNode(value, sourceCode)} })`, node: value };
    }
  }
  return undefined;
}

/** `it.skip` → `{ base: 'it', members: ['skip'] }`; `it.skipIf(c)` (the callee of the call that takes the test) → `skipIf` with `c`. */
function calleeChain(callee: TSESTree.Node): { base: string; members: string[]; condition?: TSESTree.Node } | undefined {
  let node = skipWrappers(callee);
  let condition: TSESTree.Node | undefined;
  if (node.type === AST_NODE_TYPES.CallExpression) {
    const [first] = node.arguments;
    condition = first;
    node = skipWrappers(node.callee);
  }
  const members: string[] = [];
  while (node.type === AST_NODE_TYPES.MemberExpression) {
    const name = getStaticPropertyName(node);
    if (name === undefined) return undefined;
    members.unshift(name);
    node = skipWrappers(node.object);
  }
  if (node.type !== AST_NODE_TYPES.Identifier) return undefined;
  return { base: node.name, members, ...(condition ? { condition } : {}) };
}

/** The `catch` of a `try` around the assertion that swallows its failure: it neither rethrows nor fails the test. */
function swallowingCatch(sourceCode: SourceCode, assertion: TSESTree.Node): TestReach | undefined {
  let child: TSESTree.Node = assertion;
  for (let parent = assertion.parent; parent && !isFunctionNode(parent); child = parent, parent = parent.parent) {
    if (parent.type !== AST_NODE_TYPES.TryStatement || parent.block !== child || !parent.handler) continue;
    if (!failsOrRethrows(sourceCode, parent.handler.body)) {
      const param = parent.handler.param ? ` (${sourceCode.getText(parent.handler.param)})` : '';
      return { kind: 'swallowed', text: `catch${param} { … }`, node: parent.handler };
    }
  }
  return undefined;
}

/** Whether a catch block throws, or calls something that fails the test or asserts on the error (not in nested functions). */
function failsOrRethrows(sourceCode: SourceCode, block: TSESTree.BlockStatement): boolean {
  let fails = false;
  walk(block, sourceCode, (node) => {
    if (fails || isFunctionNode(node)) return false;
    if (node.type === AST_NODE_TYPES.ThrowStatement) fails = true;
    if (node.type === AST_NODE_TYPES.CallExpression) {
      const callee = skipWrappers(node.callee, { optionalChains: true });
      const name = callee.type === AST_NODE_TYPES.Identifier ? callee.name : callee.type === AST_NODE_TYPES.MemberExpression ? getStaticPropertyName(callee) : undefined;
      const base = callee.type === AST_NODE_TYPES.MemberExpression ? skipWrappers(callee.object) : undefined;
      // `expect(e).toBe(...)`, `assert.equal(...)`, `t.fail()`: the test still fails where the catch says so.
      if ((name !== undefined && FAILING_CALLS.has(name)) || (base?.type === AST_NODE_TYPES.CallExpression && calleeChain(base.callee)?.base === 'expect')) fails = true;
    }
    return !fails;
  });
  return fails;
}
