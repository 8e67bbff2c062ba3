/**
 * Retry decisions as data.
 *
 * The seed: "The loop can then make decisions automatically — retry the safe ones, refuse to
 * auto-retry the unsafe ones, escalate instead." `decideRetry` is that decision, computed from
 * the tool's declared policy and the failure, never from the tool's name or a convention.
 *
 * @module
 */
import type { PolicyShape } from './policy.js';

/**
 * What the loop should do after a failed call.
 * - `retry`: call again with the same input (for a with_key tool the same key, so a completed
 *   attempt is replayed rather than repeated), after `delayMs` if given.
 * - `refuse`: do not call again automatically; hand the error back to the model. Nothing is left
 *   in an unknown state (a read failed, the input is invalid).
 * - `escalate`: stop and hand over to a person: the effect may have happened and cannot safely
 *   be repeated, or the tool's declaration or its store needs fixing.
 */
export type RetryAction = 'retry' | 'refuse' | 'escalate';

/** `decideRetry`'s answer. */
export interface RetryDecision {
  readonly action: RetryAction;
  /** One sentence, for logs and for the model: why, and what happens next. */
  readonly reason: string;
  /** For `retry`: wait this long first, ms (only when the failure says how long). */
  readonly delayMs?: number;
}

/** A failed call as `decideRetry` needs it; `runner.tryCall` returns these fields. */
export interface CallFailure {
  /** What the call threw. */
  readonly error: unknown;
  /**
   * Attempts made so far, this one included. For with_key tools the runner reads it from the dedup
   * record, so it counts attempts by every process; for other tools the loop counts.
   */
  readonly attempt: number;
}

// Errors that mean the declaration or its wiring is wrong: retrying gives the same answer.
const DECLARATION_ERRORS: Readonly<Record<string, string>> = {
  KeyReuseError: 'the key was first used with a different input: a repeat with changed arguments must not run as new work (a person checks), or the key does not tell two pieces of work apart (fix how it is derived)',
  InvalidKeyError: 'the derived key is empty or too long: fix the key function',
  InputNotFingerprintableError: 'the validated input is not JSON data: fix the input schema',
  UnserializableResultError: 'the effect ran once but its result is not JSON data: fix the tool, do not repeat the call',
  ToolPolicyError: 'the tool declares a contradictory policy: fix the declaration',
  DurabilityConfigError: 'the store or run configuration would let records vanish before a retry (nothing ran): fix the configuration or opt in explicitly',
  IndeterminateOutcomeError: "an earlier attempt may have run and the tool's reconcile hook could not tell: check the downstream system before running the work again",
};

/**
 * Decide whether the loop retries a failed call, from the tool's declared policy (`retry`,
 * `max_attempts`, `side_effects`) and the failure. Pure: no clock, no I/O.
 *
 * In order:
 * 1. `ConcurrentCallError` → `retry` after the other call's lock (`delayMs`): no effect ran and
 *    no attempt was used; the retry replays the other call's result once it completes.
 * 2. `InputValidationError` → `refuse`: give the issues back to the model; the same input fails again.
 * 3. `StoreUnavailableError` → `escalate`: the runner failed closed (nothing ran); the store needs
 *    attention (its message says what to check). Retrying once it is back is safe.
 * 4. `InvalidIdentifierError` (not an outage: nothing ran) → `refuse` for a key (built from the
 *    input: give it back to the model), `escalate` for a namespace, tool name or run origin (the
 *    caller's configuration).
 * 5. Declaration errors (`KeyReuseError`, `InvalidKeyError`, `InputNotFingerprintableError`,
 *    `UnserializableResultError`, `ToolPolicyError`), `DurabilityConfigError` and
 *    `IndeterminateOutcomeError` → `escalate`.
 * 6. `AttemptsExhaustedError` → `escalate`: the per-key limit is used up across processes.
 * 7. The tool's own error: `retry: 'never'` (every not-safely-repeatable tool) is never retried:
 *    `escalate`, or `refuse` when `side_effects` is `'none'`. Otherwise `retry` while
 *    `attempt < max_attempts`, then the same `escalate`/`refuse` split.
 *
 * @throws TypeError if `failure.attempt` is not a positive integer.
 */
export function decideRetry(policy: PolicyShape, failure: CallFailure): RetryDecision {
  const { attempt } = failure;
  if (!Number.isInteger(attempt) || attempt < 1) {
    throw new TypeError(`decideRetry: failure.attempt must be a positive integer (attempts made, this one included); got ${String(attempt)}`);
  }
  const name = errorName(failure.error);
  if (name === 'ConcurrentCallError') {
    const retryAfterMs = (failure.error as { retryAfterMs?: unknown }).retryAfterMs;
    return {
      action: 'retry',
      reason: 'another call with the same key is in progress; retry later with the same key to get its result (no effect ran, no attempt used)',
      ...(typeof retryAfterMs === 'number' ? { delayMs: retryAfterMs } : {}),
    };
  }
  if (name === 'InputValidationError') {
    return { action: 'refuse', reason: 'the input does not match the tool schema; return the issues to the model instead of retrying the same input' };
  }
  if (name === 'StoreUnavailableError') {
    return { action: 'escalate', reason: `the dedup store is unavailable, so the effect did not run (fail closed); ${messageOf(failure.error)}` };
  }
  if (name === 'InvalidIdentifierError') {
    const field = (failure.error as { field?: unknown }).field;
    return field === 'key'
      ? { action: 'refuse', reason: 'the key built from the input holds text a store cannot keep exactly (an unpaired surrogate or U+0000); nothing ran: return the error to the model' }
      : { action: 'escalate', reason: `the ${typeof field === 'string' ? field : 'identifier'} holds text a store cannot keep exactly (an unpaired surrogate or U+0000); nothing ran, this is not an outage: fix the configuration` };
  }
  const declarationProblem = DECLARATION_ERRORS[name];
  if (declarationProblem !== undefined) return { action: 'escalate', reason: declarationProblem };
  if (name === 'AttemptsExhaustedError') {
    return { action: 'escalate', reason: `every attempt allowed for this key (max_attempts: ${policy.max_attempts}) is used; check the downstream system for this key before running the work again` };
  }
  const stop = (why: string): RetryDecision =>
    policy.side_effects === 'none'
      ? { action: 'refuse', reason: `${why}; the tool has no side effects, so return the error to the model` }
      : { action: 'escalate', reason: `${why}; the effect (${policy.side_effects}) may have happened, so a person decides` };
  if (policy.retry === 'never' || policy.idempotent === false) {
    return stop(policy.idempotent === false ? 'the tool is not safely repeatable (idempotent: false, retry: never)' : 'the tool declares retry: never');
  }
  if (attempt >= policy.max_attempts) {
    return stop(`attempt ${attempt} of max_attempts ${policy.max_attempts}${policy.idempotent === 'with_key' ? ' (per key)' : ''} failed`);
  }
  return {
    action: 'retry',
    reason:
      policy.retry === 'safe_with_same_key'
        ? `attempt ${attempt} of ${policy.max_attempts} failed; retry with the same key (a completed attempt is replayed, not repeated)`
        : `attempt ${attempt} of ${policy.max_attempts} failed; the tool is naturally idempotent (retry: safe)`,
  };
}

function errorName(error: unknown): string {
  return typeof error === 'object' && error !== null && typeof (error as { name?: unknown }).name === 'string'
    ? (error as { name: string }).name
    : '';
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
