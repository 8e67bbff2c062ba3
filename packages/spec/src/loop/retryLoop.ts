/**
 * The loop that acts on the policy: call, and after a failure do what {@link decideRetry} says
 * (retry the same call, so the same key; refuse; escalate). The seed: "The loop can then make
 * decisions automatically — retry the safe ones, refuse to auto-retry the unsafe ones, escalate
 * instead." This is the reference loop's logic (`examples/reference-loop`) as a public function,
 * for a loop of your own, a queue worker, or a client that re-sends a call whose answer was lost.
 *
 * @module
 */
import type { DeterministicKey } from '../key.js';
import type { PolicyShape } from '../policy.js';
import { decideRetry, type RetryDecision } from '../retry.js';
import type { CallOptions, CallOutcome, ResultOf, Runner } from '../runner.js';
import type { AnyTool } from '../tool.js';

/** Options for {@link retryByPolicy} and {@link callWithPolicy}. */
export interface RetryLoopOptions {
  /** Waits before a retry; default real time (`setTimeout`). */
  readonly sleep?: (ms: number) => Promise<void>;
  /**
   * The wait before retry `n + 1` after attempt `n` failed, ms, when the failure does not say how
   * long (a `ConcurrentCallError` does); default `50 * 2 ** (n - 1)`.
   */
  readonly backoffMs?: (attempt: number) => number;
  /** The longest single wait, ms; default 1000. A longer `delayMs` is cut to it. */
  readonly maxDelayMs?: number;
  /**
   * Retries of a call still in progress elsewhere (`ConcurrentCallError`, MCP's
   * `idempotency_key_in_progress`) before escalating; default 20. The waits back off: the k-th is
   * the error's `retryAfterMs` times 2^(k-1), cut to `maxDelayMs`. With the default 100 ms hint and
   * `maxDelayMs` 1000 that is 100, 200, 400, 800, then 1000 ms: about 17.5 s in all, one request
   * each, where a fixed 100 ms gave up after 2 s (a tool that runs 3 s was escalated) and polled
   * ten times a second.
   */
  readonly maxConcurrentWaits?: number;
  /** Called after every failed attempt with the decision taken, for logs. */
  readonly onFailure?: (failure: { readonly error: unknown; readonly attempt: number; readonly decision: RetryDecision }) => void;
}

/** How {@link retryByPolicy} ended. */
export type RetryReport<R = unknown> =
  | {
      readonly status: 'ok';
      readonly result: R;
      /** True when the effect had already happened and its stored result was returned. */
      readonly replayed: boolean;
      /** The attempt that produced the result. */
      readonly attempts: number;
      readonly key?: DeterministicKey | undefined;
    }
  | {
      /** `refused`: hand the error back to the model; `escalated`: stop for a person. */
      readonly status: 'refused' | 'escalated';
      readonly error: unknown;
      readonly decision: RetryDecision;
      readonly attempts: number;
      readonly key?: DeterministicKey | undefined;
    };

/**
 * Makes attempts until one succeeds, or {@link decideRetry} refuses or escalates. Each attempt is
 * `attempt(n)` (n from 1): make the same call again, with the same key; for a with_key tool the
 * runner reads the attempt count from the record, so `n` is only the loop's own count. A
 * `ConcurrentCallError` waits its `retryAfterMs`, doubled on each further wait for the same call
 * in progress and cut to `maxDelayMs`, and uses no attempt; after `maxConcurrentWaits` such waits
 * the loop escalates.
 *
 * @param policy - the tool's declared policy (`tool.policy`, `policyOf(frameworkTool)`).
 * @param attempt - one attempt, resolving as `runner.tryCall` or `runGuarded` do.
 * @returns `{ status: 'ok', result, replayed, attempts }`, or `{ status: 'refused' | 'escalated',
 *   error, decision, attempts }`. Never rejects for a failed call.
 * @throws whatever `attempt` throws (it should resolve `{ ok: false }` instead), and TypeError
 *   from `decideRetry` if an outcome's attempt is not a positive integer.
 */
export async function retryByPolicy<R>(
  policy: PolicyShape,
  attempt: (n: number) => Promise<CallOutcome<R>>,
  options: RetryLoopOptions = {},
): Promise<RetryReport<R>> {
  const { sleep = realSleep, backoffMs = (n: number) => 50 * 2 ** (n - 1), maxDelayMs = 1_000, maxConcurrentWaits = 20 } = options;
  let n = 1;
  let waits = 0;
  for (;;) {
    const outcome = await attempt(n);
    if (outcome.ok) {
      return { status: 'ok', result: outcome.result, replayed: outcome.replayed, attempts: outcome.attempt, key: outcome.key };
    }
    const decision = decideRetry(policy, outcome);
    options.onFailure?.({ error: outcome.error, attempt: outcome.attempt, decision });
    const stop = (status: 'refused' | 'escalated', why: RetryDecision) =>
      ({ status, error: outcome.error, decision: why, attempts: outcome.attempt, key: outcome.key }) as const;
    if (decision.action === 'refuse') return stop('refused', decision);
    if (decision.action === 'escalate') return stop('escalated', decision);
    if (decision.delayMs !== undefined && (waits += 1) > maxConcurrentWaits) {
      return stop('escalated', { action: 'escalate', reason: `the call stayed in progress elsewhere through ${maxConcurrentWaits} waits` });
    }
    // A call in progress is polled with a growing pause: the hint, then twice it, ... (maxConcurrentWaits).
    const delayMs = decision.delayMs === undefined ? backoffMs(outcome.attempt) : decision.delayMs * 2 ** (waits - 1);
    await sleep(Math.min(delayMs, maxDelayMs));
    // A wait for a call in progress used no attempt; a failure did.
    if (decision.delayMs === undefined) n = outcome.attempt + 1;
  }
}

/**
 * `retryByPolicy` over `runner.tryCall` for a `defineTool` tool: the reference loop's call.
 *
 * @example
 * const report = await callWithPolicy(runner, issueRefund, { orderId: 'o_1', amountCents: 500 }, { run });
 * if (report.status === 'escalated') await pageSomeone(report.decision.reason);
 */
export function callWithPolicy<T extends AnyTool>(
  runner: Runner,
  tool: T,
  input: unknown,
  options: CallOptions & RetryLoopOptions,
): Promise<RetryReport<ResultOf<T>>> {
  const { run, namespace } = options;
  return retryByPolicy(
    tool.policy,
    (attempt) => runner.tryCall(tool, input, { run, attempt, ...(namespace !== undefined ? { namespace } : {}) }),
    options,
  );
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
