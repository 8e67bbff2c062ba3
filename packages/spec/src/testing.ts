/**
 * `@retrysafe/spec/testing`: the called-twice test.
 *
 * The seed's audit, question 5: "Is there a test that calls it twice and asserts a single
 * effect? ✅ That last one is the whole audit in a line." `expectSingleEffect` is that line:
 *
 * ```ts
 * import { expectSingleEffect } from '@retrysafe/spec/testing';
 * test('issue_refund is safe to call twice', async () => {
 *   await expectSingleEffect(issueRefund, { orderId: 'o_1', amountCents: 500 }, { effects: () => payments.refunds.length });
 * });
 * ```
 *
 * It takes a `defineTool` tool, called through the runner, and the framework tools the guards
 * take, called through their guard as the framework calls them: an AI SDK `tool()`, an OpenAI
 * Agents function `tool()`, a LangChain tool or a Mastra `createTool()` tool whose policy was
 * declared with `declarePolicy`, or the copy `guardAiSdkTools`, `guardOpenAIAgentsTools`,
 * `guardLangChainTools` or `guardMastraTools` returned.
 *
 * Works in any test runner: it throws `node:assert`'s `AssertionError` and imports no test
 * framework.
 *
 * @module
 */
import { AssertionError } from 'node:assert';
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { vouchDurable } from './durable.js';
import type { RunContext } from './run.js';
import { createRunner, type CallResult, type ResultOf, type Runner } from './runner.js';
import { createNonDurableMemoryStore } from './stores/memory.js';
import { isStandardSchema, type AnyTool } from './tool.js';
import type { ToolPolicy } from './policy.js';

export { runContextForTests } from './testing-types.js';

/** Options for `callTwice` and `expectSingleEffect`. */
export interface CalledTwiceOptions {
  /** The runner to call through; default a fresh runner on a non-durable memory store. */
  readonly runner?: Runner;
  /**
   * The run both calls belong to; default a new run for each `callTwice` / `expectSingleEffect`
   * (`called-twice-test:<uuid>`), so that a durable `runner` (SQLite, PostgreSQL, Redis) that keeps
   * its records between test runs starts each test with no record. Pass a fixed run only to test a
   * replay across runs; the second suite run then replays the first one's record.
   */
  readonly run?: RunContext;
  /** The namespace (tenant) for both calls. */
  readonly namespace?: string;
  /**
   * The tool's name, for a tool that has none of its own: an AI SDK `tool()` is named by its key in
   * the tool set, which the object does not carry, so without this the messages call it `tool`.
   * The helpers guard it under this name, as `guardAiSdkTools({ [name]: tool }, { runner, run })` does, and name it
   * in every failure (`issue_refund: execute ran 2 times ...`). Passing a one-entry tool set
   * (`callTwice({ issueRefund }, input)`) names it by its key the same way; this option wins over
   * the key. A tool with a name of its own (`defineTool`'s `name`, an OpenAI Agents or LangChain
   * tool's `name`, a Mastra tool's `id`) is named by it; a different `name` here is a TypeError.
   */
  readonly name?: string;
  /**
   * Counts the effect where it lands (rows in a table, a fake provider's charges, emails sent), read
   * before the first call, after it, and after the second. Without it only `execute` calls are
   * counted. For a naturally idempotent tool it must measure end state, not calls: the second call
   * may run, but must not change the count (an `append` declared `idempotent: true` fails here).
   */
  readonly effects?: () => number | Promise<number>;
}

/** What happened across the two calls. */
export interface CalledTwiceReport<R = unknown> {
  readonly first: CallResult<R>;
  readonly second: CallResult<R>;
  /** How many times the tool's `execute` ran. */
  readonly executions: number;
  /** How many effects `options.effects` saw land across both calls, if given. */
  readonly effects?: number;
  /** How many of those landed during the second call, if `options.effects` is given. */
  readonly effectsOfSecondCall?: number;
}

/**
 * Call `tool` twice with identical arguments and report what happened; asserts nothing. Both
 * calls must succeed (a thrown error propagates: the tool's own error, unchanged).
 *
 * - A `defineTool` tool is called through the runner (`runner.call`).
 * - A framework tool with a declared policy (`declarePolicy(tool({...}), policy)`: AI SDK, OpenAI
 *   Agents, LangChain, Mastra) is guarded with its framework's guard (`guardAiSdkTools`,
 *   `guardOpenAIAgentsTools`, `guardLangChainTools`, `guardMastraTools`) on `options.runner` and
 *   `options.run`, and called as its framework calls a tool (`execute(input, { toolCallId })`,
 *   `invoke(runContext, JSON.stringify(input), details)`, `invoke(input)`, `execute(input, context)`),
 *   each call with a new tool-call id, as a model repeating itself makes it. `rawInput` is what the
 *   framework hands the tool (for the AI SDK, the arguments its schema already validated).
 * - A tool a guard returned is tested as the tool it guards, through the same guard, on
 *   `options.runner` and `options.run` (not the guard's own runner and run: a test should not write
 *   to the production store).
 *
 * - One entry of a tool set (`{ issueRefund }`, `{ issueRefund: tools.issueRefund }`) is the tool
 *   it holds, named by its key where the tool has no name of its own (an AI SDK tool; see
 *   `options.name`).
 *
 * @param tool - a `defineTool` tool, a framework tool as above, or a one-entry tool set of one.
 * @param rawInput - the arguments of both calls.
 * @returns the two calls' results (`result` is what the tool returned: for a framework tool, its
 *   native result, without the guard's `{ result, replayed }` wrapper), `executions` (how many
 *   times the tool's own `execute`, `invoke` or `_call` ran) and the effect counts.
 * @throws ToolPolicyError if a framework tool declares no policy; TypeError if `tool` is neither a
 *   `defineTool` tool nor a framework tool the guards take (the message lists what is accepted), or
 *   `options.name` is not a non-empty string or contradicts the tool's own name.
 */
export async function callTwice<T extends AnyTool>(tool: T, rawInput: unknown, options?: CalledTwiceOptions): Promise<CalledTwiceReport<ResultOf<T>>>;
/** One entry of a tool set of `defineTool` tools (`{ issueRefund }`): typed by the tool's result. */
export async function callTwice<T extends AnyTool>(tool: Readonly<Record<string, T>>, rawInput: unknown, options?: CalledTwiceOptions): Promise<CalledTwiceReport<ResultOf<T>>>;
/** A framework tool with a declared policy, or a guard's copy of one: its result type is not known here. */
export async function callTwice(tool: object, rawInput: unknown, options?: CalledTwiceOptions): Promise<CalledTwiceReport>;
export async function callTwice(tool: object, rawInput: unknown, options: CalledTwiceOptions = {}): Promise<CalledTwiceReport> {
  return (await subjectOf(tool, options, 'callTwice')).callTwice(rawInput);
}

// One tool, ready to be called twice: a `defineTool` tool through the runner, or a framework tool
// through its guard.
interface Subject {
  readonly name: string;
  readonly policy: ToolPolicy;
  /** True for a framework tool: its guard records a not-safely-repeatable call, so a repeat replays. */
  readonly guarded: boolean;
  readonly callTwice: (rawInput: unknown) => Promise<CalledTwiceReport>;
}

async function subjectOf(given: object, options: CalledTwiceOptions, helper: string): Promise<Subject> {
  if (options.name !== undefined && (typeof options.name !== 'string' || options.name === '')) {
    throw new TypeError(`${helper}(): the name option must be a non-empty string; got ${typeof options.name === 'string' ? 'an empty string' : typeof options.name}.`);
  }
  const entry = toolSetEntry(given);
  const tool = entry?.tool ?? given;
  const runner = options.runner ?? createRunner({ store: createNonDurableMemoryStore() });
  // One new run per called-twice test: the two calls inside it share it (that is the test), and a
  // durable store that outlives the suite holds no record of this run from an earlier suite run.
  const run = options.run ?? { id: vouchDurable(`called-twice-test:${randomUUID()}`) };
  const measure = async () => (options.effects ? await options.effects() : 0);
  const twice = async (call: (callNumber: number) => Promise<CallResult>, executions: () => number): Promise<CalledTwiceReport> => {
    const before = await measure();
    const first = await call(1);
    const between = await measure();
    const second = await call(2);
    const after = await measure();
    const counts = options.effects ? { effects: after - before, effectsOfSecondCall: after - between } : {};
    return { first, second, executions: executions(), ...counts };
  };
  if (!isDefineTool(tool)) {
    // Loaded only for a framework tool: a test of defineTool tools reaches no guard, and so no
    // framework's types (tests/adapters/packaging.test.ts).
    const { frameworkSubject } = await import('./adapters/calledTwice.js');
    const subject = frameworkSubject(tool, { runner, run, namespace: options.namespace, name: options.name, setKey: entry?.key }, helper);
    return { ...subject, guarded: true, callTwice: (rawInput) => twice((n) => subject.call(rawInput, n), subject.executions) };
  }
  if (options.name !== undefined && options.name !== tool.name) {
    throw new TypeError(`${helper}(): the tool is named "${tool.name}" (defineTool); the name option says "${options.name}". Leave the option out, or make it "${tool.name}".`);
  }
  let executions = 0;
  const execute = tool.execute as (...args: unknown[]) => Promise<unknown>;
  // Tools are plain frozen objects: a copy with a counting execute behaves the same.
  const counted = {
    ...tool,
    execute: (...args: unknown[]) => {
      executions += 1;
      return execute(...args);
    },
  } as AnyTool;
  const callOptions = { run, ...(options.namespace !== undefined ? { namespace: options.namespace } : {}) };
  return {
    name: tool.name,
    policy: tool.policy,
    guarded: false,
    callTwice: (rawInput) => twice(() => runner.call(counted, rawInput, callOptions), () => executions),
  };
}

/**
 * `{ issueRefund }`: a plain object with one entry whose value is an object, while the object
 * itself has nothing a tool is called by (`execute`, `invoke`, `_call`): a tool set of one tool.
 */
function toolSetEntry(value: object): { readonly key: string; readonly tool: object } | undefined {
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return undefined;
  const shape = value as Record<string, unknown>;
  if (['execute', 'invoke', '_call'].some((method) => typeof shape[method] === 'function')) return undefined;
  const entries = Object.entries(shape);
  const [first] = entries;
  if (entries.length !== 1 || first === undefined) return undefined;
  const [key, tool] = first;
  return typeof tool === 'object' && tool !== null ? { key, tool } : undefined;
}

// A `defineTool` tool: its policy is a property (a framework tool's is attached by declarePolicy).
function isDefineTool(tool: object): tool is AnyTool {
  const candidate = tool as Partial<AnyTool>;
  return typeof candidate.name === 'string' && typeof candidate.execute === 'function' && typeof candidate.policy === 'object' && candidate.policy !== null && isStandardSchema(candidate.input);
}

/**
 * The called-twice test: call `tool` twice with identical arguments and assert it is safe.
 *
 * - with_key tools: `execute` ran once, the effect landed once (when `options.effects` is
 *   given), the first result has `replayed: false`, the second `replayed: true` and the same result.
 * - naturally idempotent tools (`idempotent: true`): both calls run (there is no record) and must
 *   return the same result: the same end state.
 * - not safely repeatable tools (`idempotent: false`): a `defineTool` tool fails without calling,
 *   because the runner runs it on every call, so calling twice runs the effect twice. Redesign the
 *   tool (an absolute write, or a key). A framework tool is called through its guard, which keeps a
 *   record of a not-safely-repeatable call (one attempt per run and arguments), so it is held to
 *   the with_key checks: the guard must replay the second call.
 *
 * `tool` is what {@link callTwice} takes: a `defineTool` tool, a framework tool (AI SDK, OpenAI
 * Agents, LangChain, Mastra) whose policy was declared with `declarePolicy`, called through its
 * framework's guard, or a guard's copy of one.
 *
 * ```ts
 * const issueRefund = declarePolicy(tool({ description: 'Refund', inputSchema, execute }), {
 *   side_effects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key',
 * });
 * await expectSingleEffect(issueRefund, { orderId: 'o_1', amountCents: 500 }, { effects: () => payments.refunds.length });
 * ```
 *
 * @returns the report, for further assertions.
 * @throws AssertionError (`node:assert`) naming what went wrong.
 * @throws ToolPolicyError if a framework tool declares no policy; TypeError if `tool` is not a tool
 *   the helper takes (both messages list what is accepted), or `options.name` is not a non-empty
 *   string or contradicts the tool's own name.
 */
export async function expectSingleEffect<T extends AnyTool>(tool: T, rawInput: unknown, options?: CalledTwiceOptions): Promise<CalledTwiceReport<ResultOf<T>>>;
/** One entry of a tool set of `defineTool` tools (`{ issueRefund }`), see {@link callTwice}. */
export async function expectSingleEffect<T extends AnyTool>(tool: Readonly<Record<string, T>>, rawInput: unknown, options?: CalledTwiceOptions): Promise<CalledTwiceReport<ResultOf<T>>>;
/** A framework tool with a declared policy, or a guard's copy of one (see {@link callTwice}). */
export async function expectSingleEffect(tool: object, rawInput: unknown, options?: CalledTwiceOptions): Promise<CalledTwiceReport>;
export async function expectSingleEffect(tool: object, rawInput: unknown, options: CalledTwiceOptions = {}): Promise<CalledTwiceReport> {
  const subject = await subjectOf(tool, options, 'expectSingleEffect');
  const { idempotent } = subject.policy;
  if (idempotent === false && !subject.guarded) {
    fail(`${subject.name} is not safely repeatable (idempotent: false): calling it twice runs its effect twice. Make it set an absolute value, or give it a key (idempotent: 'with_key').`, 2, 1);
  }
  const report = await subject.callTwice(rawInput);
  const { first, second, executions, effects, effectsOfSecondCall } = report;
  if (idempotent === true) {
    if (effectsOfSecondCall !== undefined && effectsOfSecondCall !== 0) {
      fail(`${subject.name} is declared naturally idempotent, but the second identical call changed what \`effects\` counts (by ${effectsOfSecondCall}): it creates or accumulates. Give it a key (idempotent: 'with_key') or declare it not safely repeatable.`, effectsOfSecondCall, 0);
    }
    if (!isDeepStrictEqual(first.result, second.result)) {
      fail(`${subject.name} is declared naturally idempotent, but two identical calls returned different results`, second.result, first.result);
    }
    return report;
  }
  if (executions === 0 && first.replayed === true) {
    fail(`${subject.name}: execute ran 0 times for two identical calls: both replayed a record the store already held for this key and run (from an earlier test or suite run on a durable store); pass a fresh \`run\` or leave it out (the default is a new run per test)`, executions, 1);
  }
  if (executions !== 1) fail(`${subject.name}: execute ran ${executions} times for two identical calls; expected once`, executions, 1);
  if (effects !== undefined && effects !== 1) fail(`${subject.name}: ${effects} effects landed for two identical calls; expected 1`, effects, 1);
  if (first.replayed !== false) fail(`${subject.name}: the first call says replayed: ${String(first.replayed)}; expected false (a record from an earlier test? use a fresh runner or run)`, first.replayed, false);
  if (second.replayed !== true) fail(`${subject.name}: the second call says replayed: ${String(second.replayed)}; expected true`, second.replayed, true);
  if (!isDeepStrictEqual(first.result, second.result)) {
    fail(`${subject.name}: the replayed result differs from the first call's`, second.result, first.result);
  }
  return report;
}

/** `actual`: what the calls did (for a tool refused without calling, the effects two calls would land); `expected`: what a safe tool does. */
function fail(message: string, actual: unknown, expected: unknown): never {
  throw new AssertionError({ message, actual, expected, operator: 'calledTwice' });
}
