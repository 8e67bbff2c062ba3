/**
 * Indeterminate outcomes and the `reconcile` hook.
 *
 * A with_key attempt whose holder's lock lapsed without a recorded outcome is *indeterminate*: the
 * process may have died after the provider call and before the record (the seed's "if your
 * record-keeping fails between the call and the write"). A keyed provider absorbs the rerun, as
 * the key goes downstream again. A provider that takes no key cannot, so a tool may declare a
 * `reconcile` hook that the runner asks "did this happen?" (for example: look the payment up by
 * its metadata) before a reclaimed attempt runs again. Its answer is recorded: `done` completes
 * the record with the result it found (replayed to this and every later call), `not_done` lets
 * the attempt run, `unknown` (or a throw) keeps the record indeterminate and escalates with
 * `IndeterminateOutcomeError`.
 *
 * @module
 */
import type { DeterministicKey } from '../key.js';
import type { RunContext } from '../run.js';
import { isLocked } from '../stores/transitions.js';
import type { AttemptError, DedupRecord } from '../stores/types.js';

/** The history entry a claim adds when it reclaims a lock that lapsed without an outcome (`decideClaim`). */
export const LOCK_EXPIRED = 'LockExpired';
/** The history entry the runner adds when a tool's `reconcile` hook could not tell (answered `unknown` or threw). */
export const RECONCILE_UNKNOWN = 'ReconcileUnknown';

/**
 * What a `reconcile` hook answers about an earlier attempt whose outcome is unknown:
 * - `{ status: 'done', result }`: the effect happened; `result` is what `execute` would have
 *   returned (it is recorded as the completed result and replayed, `replayed: true`);
 * - `{ status: 'not_done' }`: it did not happen; the attempt runs now;
 * - `{ status: 'unknown', reason? }`: cannot tell; nothing runs, the record stays indeterminate
 *   and the call throws `IndeterminateOutcomeError` (escalate).
 */
export type ReconcileAnswer<Result = unknown> =
  | { readonly status: 'done'; readonly result: Result }
  | { readonly status: 'not_done' }
  | { readonly status: 'unknown'; readonly reason?: string };

/** What a `reconcile` hook receives besides the validated input. */
export interface ReconcileContext {
  /** The run the call belongs to. */
  readonly run: RunContext;
  /** The call's key (the same key the lost attempt had). */
  readonly key: DeterministicKey;
  /** The attempt whose outcome is unknown. */
  readonly attempt: number;
  /** When the lost attempt's lock lapsed or the last reconcile could not tell, epoch ms. */
  readonly since: number;
}

/** Where a dedup record stands, for people and audits; see {@link describeRecord}. */
export type RecordState = 'completed' | 'in_progress' | 'indeterminate' | 'free';

/** {@link describeRecord}'s answer. */
export interface RecordDescription {
  readonly state: RecordState;
  /** The attempt the state is about (the record's `attempts`, or the indeterminate one). */
  readonly attempt: number;
  /** One sentence: what the state means for the effect. */
  readonly reason: string;
}

/**
 * Describe a dedup record (from `runner.recordFor` or a store's `get`) at time `now` (epoch ms,
 * default `Date.now()`):
 * - `completed`: the effect ran and its result (or `resultError`) is recorded; calls replay it.
 * - `in_progress`: a live holder is running the effect.
 * - `indeterminate`: an attempt stopped without a recorded outcome (its lock lapsed, or the
 *   tool's `reconcile` hook answered `unknown`), or a holder is reclaiming such an attempt
 *   (reconciling, or re-running it with the same key). Whether the effect happened is unknown
 *   until an attempt completes or a `reconcile` hook answers.
 * - `free`: the last attempt failed and released its lock; a retry claims the next attempt.
 */
export function describeRecord(record: DedupRecord, now: number = Date.now()): RecordDescription {
  if (record.status === 'completed') {
    return { state: 'completed', attempt: record.attempts, reason: 'the effect ran and its outcome is recorded; calls with this key replay it' };
  }
  const lost = indeterminateAttempt(record);
  if (isLocked(record, now)) {
    return lost === undefined
      ? { state: 'in_progress', attempt: record.attempts, reason: 'a live holder is running the effect' }
      : { state: 'indeterminate', attempt: lost.attempt, reason: `attempt ${lost.attempt} stopped without an outcome; attempt ${record.attempts} holds the key to reconcile or re-run it` };
  }
  if (record.owner !== undefined) {
    return { state: 'indeterminate', attempt: record.attempts, reason: `attempt ${record.attempts}'s lock lapsed without a recorded outcome: the effect may or may not have happened` };
  }
  const last = record.errors.at(-1);
  if (last?.name === RECONCILE_UNKNOWN) {
    return { state: 'indeterminate', attempt: last.attempt, reason: `the reconcile hook could not tell whether the effect happened: ${last.message}` };
  }
  return { state: 'free', attempt: record.attempts, reason: 'the last attempt failed and released the key; a retry runs the next attempt' };
}

/**
 * The history entry that leaves a record's outcome indeterminate, naming the attempt whose effect
 * is unknown: the last entry is a lapsed lock (added by the claim that reclaimed it) or an
 * unknown reconcile answer. Any later outcome would come after it: a failure adds its own entry,
 * a completion ends the record's attempts.
 */
export function indeterminateAttempt(record: DedupRecord): AttemptError | undefined {
  const last = record.errors.at(-1);
  return last !== undefined && (last.name === LOCK_EXPIRED || last.name === RECONCILE_UNKNOWN) ? last : undefined;
}

/** `value` as a {@link ReconcileAnswer}, or why it is not one. */
export function readReconcileAnswer(value: unknown): ReconcileAnswer | string {
  const status = typeof value === 'object' && value !== null ? (value as { status?: unknown }).status : undefined;
  if (status === 'done') {
    if (!Object.hasOwn(value as object, 'result')) return "the hook answered { status: 'done' } without a result";
    return value as ReconcileAnswer;
  }
  if (status === 'not_done') return value as ReconcileAnswer;
  if (status === 'unknown') {
    const reason = (value as { reason?: unknown }).reason;
    return { status: 'unknown', ...(typeof reason === 'string' ? { reason } : {}) };
  }
  return `the hook answered ${describeValue(value)}, not { status: 'done' | 'not_done' | 'unknown' }`;
}

const describeValue = (value: unknown) => {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
};
