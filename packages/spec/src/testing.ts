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
import type { AnyTool } from './tool.js';

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
 * Call `tool` twice with identical arguments through a runner and report what happened; asserts
 * nothing. Both calls must succeed (a thrown error propagates).
 */
export async function callTwice<T extends AnyTool>(
  tool: T,
  rawInput: unknown,
  options: CalledTwiceOptions = {},
): Promise<CalledTwiceReport<ResultOf<T>>> {
  const runner = options.runner ?? createRunner({ store: createNonDurableMemoryStore() });
  // One new run per called-twice test: the two calls inside it share it (that is the test), and a
  // durable store that outlives the suite holds no record of this run from an earlier suite run.
  const run = options.run ?? { id: vouchDurable(`called-twice-test:${randomUUID()}`) };
  let executions = 0;
  const execute = tool.execute as (...args: unknown[]) => Promise<unknown>;
  // Tools are plain frozen objects: a copy with a counting execute behaves the same.
  const counted = {
    ...tool,
    execute: (...args: unknown[]) => {
      executions += 1;
      return execute(...args);
    },
  } as T;
  const callOptions = { run, ...(options.namespace !== undefined ? { namespace: options.namespace } : {}) };
  const before = options.effects ? await options.effects() : 0;
  const first = await runner.call(counted, rawInput, callOptions);
  const between = options.effects ? await options.effects() : 0;
  const second = await runner.call(counted, rawInput, callOptions);
  const after = options.effects ? await options.effects() : 0;
  const counts = options.effects ? { effects: after - before, effectsOfSecondCall: after - between } : {};
  return { first, second, executions, ...counts };
}

/**
 * The called-twice test: call `tool` twice with identical arguments and assert it is safe.
 *
 * - with_key tools: `execute` ran once, the effect landed once (when `options.effects` is
 *   given), the first result has `replayed: false`, the second `replayed: true` and the same result.
 * - naturally idempotent tools (`idempotent: true`): both calls run (there is no record) and must
 *   return the same result: the same end state.
 * - not safely repeatable tools (`idempotent: false`): fails without calling, because calling
 *   twice runs the effect twice. Redesign the tool (an absolute write, or a key).
 *
 * @returns the report, for further assertions.
 * @throws AssertionError (`node:assert`) naming what went wrong.
 */
export async function expectSingleEffect<T extends AnyTool>(
  tool: T,
  rawInput: unknown,
  options: CalledTwiceOptions = {},
): Promise<CalledTwiceReport<ResultOf<T>>> {
  const { idempotent } = tool.policy;
  if (idempotent === false) {
    fail(`${tool.name} is not safely repeatable (idempotent: false): calling it twice runs its effect twice. Make it set an absolute value, or give it a key (idempotent: 'with_key').`, 2, 1);
  }
  const report = await callTwice(tool, rawInput, options);
  const { first, second, executions, effects, effectsOfSecondCall } = report;
  if (idempotent === true) {
    if (effectsOfSecondCall !== undefined && effectsOfSecondCall !== 0) {
      fail(`${tool.name} is declared naturally idempotent, but the second identical call changed what \`effects\` counts (by ${effectsOfSecondCall}): it creates or accumulates. Give it a key (idempotent: 'with_key') or declare it not safely repeatable.`, effectsOfSecondCall, 0);
    }
    if (!isDeepStrictEqual(first.result, second.result)) {
      fail(`${tool.name} is declared naturally idempotent, but two identical calls returned different results`, first.result, second.result);
    }
    return report;
  }
  if (executions === 0 && first.replayed === true) {
    fail(`${tool.name}: execute ran 0 times for two identical calls: both replayed a record the store already held for this key and run (from an earlier test or suite run on a durable store); pass a fresh \`run\` or leave it out (the default is a new run per test)`, executions, 1);
  }
  if (executions !== 1) fail(`${tool.name}: execute ran ${executions} times for two identical calls; expected once`, executions, 1);
  if (effects !== undefined && effects !== 1) fail(`${tool.name}: ${effects} effects landed for two identical calls; expected 1`, effects, 1);
  if (first.replayed !== false) fail(`${tool.name}: the first call says replayed: ${String(first.replayed)}; expected false (a record from an earlier test? use a fresh runner or run)`, first.replayed, false);
  if (second.replayed !== true) fail(`${tool.name}: the second call says replayed: ${String(second.replayed)}; expected true`, second.replayed, true);
  if (!isDeepStrictEqual(first.result, second.result)) {
    fail(`${tool.name}: the replayed result differs from the first call's`, second.result, first.result);
  }
  return report;
}

/** `actual`: what the calls did (for a tool refused without calling, the effects two calls would land); `expected`: what a safe tool does. */
function fail(message: string, actual: unknown, expected: unknown): never {
  throw new AssertionError({ message, actual, expected, operator: 'calledTwice' });
}
