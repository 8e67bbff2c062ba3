import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import { findProperty, findPropertyThroughSpreads, findVariableOf, type FunctionNode, getConstantInitializer, getImportedModules, getStaticPropertyName, isFunctionNode, resolveObject, resolveReference, skipWrappers, staticString, walk } from '../ast/index.js';
import { getRunnerUse } from './runners.js';
import { findTestReach, type TestReach } from './testReach.js';

// The called-twice test, the seed's fifth audit question: "Is there a test that calls it twice and
// asserts a single effect? ✅ That last one is the whole audit in a line." Recognised in three
// shapes: `expectSingleEffect(tool, ...)` from @retrysafe/spec/testing; `callTwice(tool, ...)`
// followed by an assertion of one; and two identical calls of a tool (through a runner, its
// `execute`/`invoke`, or an MCP client's `callTool`) followed by an assertion that a count is 1.

type SourceCode = Readonly<TSESLint.SourceCode>;

/** What a called-twice test calls: a tool expression, or an MCP tool by its registered name. */
export type CalledTwiceTarget =
  | { readonly kind: 'expression'; readonly node: TSESTree.Node }
  | { readonly kind: 'name'; readonly name: string; readonly node: TSESTree.Node };

/** A test that calls something twice with identical arguments. */
export interface CalledTwiceTest {
  readonly shape: 'callTwice' | 'expectSingleEffect' | 'repeatedCall';
  readonly target: CalledTwiceTarget;
  /** The (first) call. */
  readonly node: TSESTree.CallExpression;
  /** The assertion of a single effect: the `expectSingleEffect` call itself, or a count asserted to be 1 after the calls. */
  readonly assertion: TSESTree.Node | undefined;
  /** What keeps the test from showing an effect (a skip, a condition, a catch that swallows the failure); absent when nothing does. */
  readonly reach?: TestReach;
  /**
   * `expectSingleEffect` only: whether its options visibly give no `effects` count (no options, or
   * an object with no `effects` and no spread or computed key that may set it). For a tool declared
   * naturally idempotent the helper then compares the two results only: a doubled effect passes.
   */
  readonly withoutEffects?: true;
}

const TESTING_MODULE = '@retrysafe/spec/testing';
/** A test by its name: `*.test.*`, `*.spec.*`, a file under `__tests__/` (what vitest and jest pick up by default). */
const TEST_FILE_NAME = /(^|[\\/])(__tests__[\\/].*|[^\\/]*\.(test|spec)\.[cm]?[jt]sx?)$/;
/** Also `refund-spec.ts`, `refund-test.js`: a name that may be a test, for a file the audit could not read. */
const MAYBE_TEST_FILE_NAME = /(^|[\\/])(__tests__[\\/].*|[^\\/]*[.-](test|spec)\.[cm]?[jt]sx?)$/;
const TEST_RUNNER_MODULES = ['vitest', '@jest/globals', 'node:test', 'test', 'mocha', 'ava', 'bun:test', 'uvu', TESTING_MODULE];
/** Methods that run a tool: the spec's and the frameworks' (`execute`, LangChain `invoke`, OpenAI Agents `invoke`). */
const TOOL_METHODS = new Set(['execute', 'invoke', 'call', 'func', 'handler']);
/** Matchers and assertions that compare their subject with an expected value (`1`, `'1'`, or a one-element array for the deep ones). */
const COUNT_MATCHERS = new Set(['toBe', 'toEqual', 'toStrictEqual', 'toHaveLength', 'toHaveBeenCalledTimes', 'toBeCalledTimes', 'lengthOf', 'length', 'equal', 'equals', 'eq', 'eql', 'is']);
const ONCE_MATCHERS = new Set(['toHaveBeenCalledOnce', 'toBeCalledOnce', 'calledOnce', 'toHaveBeenCalledExactlyOnceWith']);
const ASSERT_FUNCTIONS = new Set(['equal', 'strictEqual', 'deepEqual', 'deepStrictEqual', 'is']);
/** Those that take a number only (a length, a number of calls): `toHaveLength('1')` asserts nothing of the kind. */
const NUMBER_ONLY = new Set(['toHaveLength', 'toHaveBeenCalledTimes', 'toBeCalledTimes', 'lengthOf', 'length']);
/** Deep equality: `toEqual([row])`, `assert.deepStrictEqual(rows, [row])` assert a list of one effect. */
const DEEP_EQUALITY = new Set(['toEqual', 'toStrictEqual', 'eql', 'deepEqual', 'deepStrictEqual']);
/**
 * A subject that reads as a count, for a count compared with the string `'1'` (PostgreSQL's
 * `count(*)` and Redis's `GET` answer strings): `count`, `rows[0].count`, `redis.get('refunds:count')`,
 * `total`, `n`. A string `'1'` compared with anything else (`result.id`) is not a count.
 */
const COUNT_SUBJECT = /count|total|times|calls|length|size|hits|tally|executions|effects|(^|[^A-Za-z0-9_$])n($|[^A-Za-z0-9_$])/i;

/**
 * Whether a file is named like it may be a test (`*.test.ts`, `*.spec.js`, `refund-spec.ts`, a file
 * under `__tests__/`): what can be told of a file without reading it (the audit asks it of a file
 * that did not parse, which may then hold the called-twice test).
 */
export function isTestFileName(filename: string): boolean {
  return MAYBE_TEST_FILE_NAME.test(filename);
}

/**
 * Whether a file is a test: named `*.test.*` or `*.spec.*` or under `__tests__/`, or importing a
 * test runner. A hyphen alone (`openapi-spec.ts`, `ab-test.ts`) does not make an ordinary module a
 * test: its tools are audited (new-user trial 6: `src/faulty-spec.ts`'s nine tools were dropped).
 */
export function isTestFile(sourceCode: SourceCode, filename: string): boolean {
  if (TEST_FILE_NAME.test(filename)) return true;
  const modules = getImportedModules(sourceCode);
  return TEST_RUNNER_MODULES.some((module) => modules.has(module));
}

/**
 * `{ issueRefund }`, `{ issueRefund: tools.issueRefund }`: the helpers take one entry of a tool set
 * as the tool it holds (its key names an AI SDK tool), so the test is of that value.
 */
function toolSetEntry(argument: TSESTree.Node): TSESTree.Node | undefined {
  const object = skipWrappers(argument);
  if (object.type !== AST_NODE_TYPES.ObjectExpression || object.properties.length !== 1) return undefined;
  const [entry] = object.properties;
  return entry?.type === AST_NODE_TYPES.Property && entry.kind === 'init' && !entry.method ? entry.value : undefined;
}

/** Every called-twice test in a file. */
export function findCalledTwiceTests(sourceCode: SourceCode): CalledTwiceTest[] {
  const found: CalledTwiceTest[] = [];
  const callsByFunction = new Map<FunctionNode | TSESTree.Program, TSESTree.CallExpression[]>();
  walk(sourceCode.ast, sourceCode, (node) => {
    if (node.type !== AST_NODE_TYPES.CallExpression) return true;
    const helper = testingHelper(sourceCode, node);
    const [first] = node.arguments;
    if (helper && first) {
      // `assert.rejects(expectSingleEffect(...))` asserts the opposite: a second effect.
      if (isExpectedToFail(node)) return true;
      const assertion = helper === 'expectSingleEffect' ? node : findCountAssertion(sourceCode, enclosingFunction(node), node);
      const withoutEffects = helper === 'expectSingleEffect' && givesNoEffects(sourceCode, node.arguments[2]);
      found.push({ shape: helper, target: { kind: 'expression', node: toolSetEntry(first) ?? first }, node, assertion, ...(withoutEffects ? { withoutEffects } : {}) });
      return true;
    }
    const scope = enclosingFunction(node);
    let calls = callsByFunction.get(scope);
    if (!calls) callsByFunction.set(scope, (calls = []));
    calls.push(node);
    return true;
  });
  for (const [scope, calls] of callsByFunction) found.push(...findRepeatedCalls(sourceCode, scope, calls));
  return found
    .map((test) => {
      const reach = findTestReach(sourceCode, test.node, test.assertion);
      return reach ? { ...test, reach } : test;
    })
    .sort((a, b) => a.node.range[0] - b.node.range[0]);
}

/** Whether `expectSingleEffect`'s options visibly give no `effects`: none given, or an object that states none; false when that is not known (a parameter, a spread of one). */
function givesNoEffects(sourceCode: SourceCode, options: TSESTree.CallExpressionArgument | undefined): boolean {
  if (!options) return true;
  const object = resolveObject(sourceCode, options);
  return object !== undefined && findPropertyThroughSpreads(sourceCode, object, 'effects') === undefined;
}

const FAILURE_ASSERTIONS = new Set(['rejects', 'throws', 'throwsAsync', 'toThrow', 'toThrowError', 'toReject', 'isRejected']);

/**
 * Whether a call is asserted to fail: the argument (directly, awaited, or as an arrow's body) of
 * `assert.rejects` / `assert.throws` / `t.throwsAsync`, or inside `expect(...)` followed by
 * `.rejects` or `.toThrow`. Such a test shows that the tool is not safe to call twice.
 */
function isExpectedToFail(call: TSESTree.CallExpression): boolean {
  let node: TSESTree.Node = call;
  for (let parent = node.parent; parent; node = parent, parent = parent.parent) {
    // `expectSingleEffect(...).catch(...)`, `.then(ok, failed)`: the test handles its rejection,
    // so it passes whether the helper found one effect or two (new-user trial: `.then(() => null,
    // (err) => err)` and then `expect(e).toBeInstanceOf(Error)`).
    if (parent.type === AST_NODE_TYPES.MemberExpression && parent.object === node && parent.parent?.type === AST_NODE_TYPES.CallExpression && parent.parent.callee === parent) {
      const method = getStaticPropertyName(parent);
      return method === 'catch' || (method === 'then' && parent.parent.arguments.length >= 2);
    }
    if (
      parent.type === AST_NODE_TYPES.AwaitExpression ||
      parent.type === AST_NODE_TYPES.ChainExpression ||
      parent.type === AST_NODE_TYPES.TSAsExpression ||
      parent.type === AST_NODE_TYPES.TSNonNullExpression ||
      (parent.type === AST_NODE_TYPES.ArrowFunctionExpression && parent.body === node)
    ) {
      continue;
    }
    if (parent.type !== AST_NODE_TYPES.CallExpression || !parent.arguments.includes(node as TSESTree.CallExpressionArgument)) return false;
    const callee = parent.callee;
    if (callee.type === AST_NODE_TYPES.MemberExpression) {
      const name = getStaticPropertyName(callee);
      return name !== undefined && FAILURE_ASSERTIONS.has(name);
    }
    if (callee.type === AST_NODE_TYPES.Identifier && callee.name === 'expect') {
      // expect(x).rejects.toThrow(), expect(() => x).toThrow()
      for (let up: TSESTree.Node | undefined = parent.parent; up?.type === AST_NODE_TYPES.MemberExpression; up = up.parent) {
        const name = getStaticPropertyName(up);
        if (name !== undefined && FAILURE_ASSERTIONS.has(name)) return true;
      }
      return false;
    }
    return callee.type === AST_NODE_TYPES.Identifier && FAILURE_ASSERTIONS.has(callee.name);
  }
  return false;
}

function testingHelper(sourceCode: SourceCode, node: TSESTree.CallExpression): 'callTwice' | 'expectSingleEffect' | undefined {
  const reference = resolveReference(sourceCode, node.callee);
  if (reference?.source !== TESTING_MODULE || reference.path.length !== 1) return undefined;
  const [name] = reference.path;
  return name === 'expectSingleEffect' || name === 'callTwice' ? name : undefined;
}

/** Two calls of the same tool with identical arguments in one function, the second followed by a count of one. */
function findRepeatedCalls(sourceCode: SourceCode, scope: FunctionNode | TSESTree.Program, calls: readonly TSESTree.CallExpression[]): CalledTwiceTest[] {
  const seen = new Map<string, TSESTree.CallExpression>();
  const found: CalledTwiceTest[] = [];
  const reported = new Set<string>();
  for (const call of calls) {
    const target = toolCallTarget(sourceCode, call);
    if (!target) continue;
    const text = sourceCode.getText(call).replace(/\s+/g, '');
    const first = seen.get(text);
    if (!first) {
      seen.set(text, call);
      continue;
    }
    if (reported.has(text)) continue;
    reported.add(text);
    found.push({ shape: 'repeatedCall', target, node: first, assertion: findCountAssertion(sourceCode, scope, call) });
  }
  return found;
}

/** What a call runs, if it runs a tool: `runner.call(tool, ...)`, `tool.execute(...)`, `client.callTool({ name })`. */
function toolCallTarget(sourceCode: SourceCode, call: TSESTree.CallExpression): CalledTwiceTarget | undefined {
  const use = getRunnerUse(sourceCode, call);
  if (use?.via.startsWith('runner.')) return { kind: 'expression', node: use.tool };
  const callee = skipWrappers(call.callee, { optionalChains: true });
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const method = getStaticPropertyName(callee);
  if (method === 'callTool') {
    const nameNode = findProperty(resolveObject(sourceCode, call.arguments[0]), 'name')?.value;
    const name = staticString(sourceCode, nameNode);
    return name === undefined || !nameNode ? undefined : { kind: 'name', name, node: nameNode };
  }
  return method !== undefined && TOOL_METHODS.has(method) && callee.object.type !== AST_NODE_TYPES.ThisExpression
    ? { kind: 'expression', node: callee.object }
    : undefined;
}

function enclosingFunction(node: TSESTree.Node): FunctionNode | TSESTree.Program {
  for (let current = node.parent; current; current = current.parent) {
    if (isFunctionNode(current) || current.type === AST_NODE_TYPES.Program) return current;
  }
  throw new Error('unreachable: every node is inside a Program');
}

/** An assertion that some count is 1, after `after` in `scope` (not in nested functions). */
function findCountAssertion(sourceCode: SourceCode, scope: FunctionNode | TSESTree.Program, after: TSESTree.Node): TSESTree.Node | undefined {
  let found: TSESTree.Node | undefined;
  walk(scope, sourceCode, (node) => {
    if (found || (isFunctionNode(node) && node !== scope)) return false;
    if (node.type === AST_NODE_TYPES.CallExpression && node.range[0] >= after.range[1] && isCountOfOne(sourceCode, node)) found = node;
    return !found;
  });
  return found;
}

/**
 * An assertion of a single effect: `expect(x).toHaveLength(1)`, `expect(x).toBe(1)`,
 * `expect(spy).toHaveBeenCalledOnce()`, `assert.equal(x, 1)`, `t.is(x, 1)`; a count compared with
 * the string `'1'` (`expect(count).toBe('1')`, `assert.equal(rows[0].count, '1')`); a deep equality
 * with a one-element array (`assert.deepStrictEqual(rows, [row])`). Not under `.not`, and not a
 * comparison with another count (`0`, `2`).
 */
function isCountOfOne(sourceCode: SourceCode, call: TSESTree.CallExpression): boolean {
  const callee = skipWrappers(call.callee, { optionalChains: true });
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return false;
  const method = getStaticPropertyName(callee);
  if (method === undefined) return false;
  const matcher = COUNT_MATCHERS.has(method) || ONCE_MATCHERS.has(method) ? matcherCall(callee) : undefined;
  if (matcher?.negated) return false;
  if (ONCE_MATCHERS.has(method)) return true;
  const compared =
    COUNT_MATCHERS.has(method) && call.arguments.length === 1
      ? { subject: matcher?.subject, expected: call.arguments[0] }
      : ASSERT_FUNCTIONS.has(method) && call.arguments.length >= 2
        ? { subject: call.arguments[0], expected: call.arguments[1] }
        : undefined;
  if (!compared?.expected) return false;
  if (isConstant(sourceCode, compared.subject)) return false;
  const expected = skipWrappers(compared.expected);
  if (isNumberOne(expected)) return true;
  if (NUMBER_ONLY.has(method)) return false;
  if (DEEP_EQUALITY.has(method) && expected.type === AST_NODE_TYPES.ArrayExpression) {
    const [only] = expected.elements;
    return expected.elements.length === 1 && only !== null && only !== undefined && only.type !== AST_NODE_TYPES.SpreadElement;
  }
  return staticString(sourceCode, expected)?.trim() === '1' && compared.subject !== undefined && COUNT_SUBJECT.test(sourceCode.getText(compared.subject));
}

/**
 * Whether the asserted value cannot count anything: a literal (`expect(1).toBe(1)`), or a
 * variable whose only value is a literal it was declared with (`let refunds = 1`, never written
 * again, so no effect can have changed it). Such an assertion passes whatever the tool did.
 */
function isConstant(sourceCode: SourceCode, subject: TSESTree.Node | undefined): boolean {
  if (subject === undefined) return false;
  const value = skipWrappers(subject);
  if (value.type === AST_NODE_TYPES.Literal) return true;
  if (value.type !== AST_NODE_TYPES.Identifier) return false;
  return getConstantInitializer(findVariableOf(value, sourceCode))?.type === AST_NODE_TYPES.Literal;
}

function isNumberOne(node: TSESTree.Node): boolean {
  return node.type === AST_NODE_TYPES.Literal && (node.value === 1 || ('bigint' in node && node.bigint === '1'));
}

/** For a matcher's callee (`expect(x).not.toBe`, chai's `expect(x).to.have.lengthOf`): the subject, and whether a `.not` negates it. */
function matcherCall(callee: TSESTree.MemberExpression): { subject: TSESTree.Node | undefined; negated: boolean } | undefined {
  let negated = false;
  let current: TSESTree.Node = skipWrappers(callee.object, { optionalChains: true });
  for (let depth = 0; depth < 6; depth += 1) {
    if (current.type === AST_NODE_TYPES.MemberExpression) {
      if (getStaticPropertyName(current) === 'not') negated = true;
      current = skipWrappers(current.object, { optionalChains: true });
      continue;
    }
    if (current.type === AST_NODE_TYPES.CallExpression) {
      const inner = skipWrappers(current.callee, { optionalChains: true });
      // `expect(x)`, `expect.soft(x)`, `t.expect(x)`, chai's `expect(x)`.
      const name = inner.type === AST_NODE_TYPES.Identifier ? inner.name : inner.type === AST_NODE_TYPES.MemberExpression ? getStaticPropertyName(inner) : undefined;
      if (name === 'expect' || name === 'soft' || name === 'assert') return { subject: current.arguments[0], negated };
      // `expect(x).resolves.toBe(1)` and the like go through members only; another call ends the chain.
      return { subject: undefined, negated };
    }
    break;
  }
  return { subject: undefined, negated };
}
