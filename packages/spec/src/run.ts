/**
 * The run: the unit of work a retry, a resume or a queue redelivery repeats.
 *
 * The seed: "Keys scoped to the run make this survivable" and "the key must be derived from durable
 * state, not from anything regenerated at resume time". So the run id is not generated per process:
 * `openRun(store, origin)` loads it from the store for the run's origin, or creates and persists it.
 *
 * @packageDocumentation
 */
import type { Durable } from './durable.js';

/**
 * What a tool's `key` and `execute` know about the run they belong to. Everything in it is
 * {@link Durable}: a resumed or redelivered run sees the same values.
 */
export interface RunContext {
  /**
   * The run id, stored the first time the run's origin was seen and read back on every resume or
   * redelivery, so `key\`${run.id}:...\`` is the same on every attempt.
   */
  readonly id: Durable<string>;
}

/** What started a run; see {@link RunOrigin}. */
export type RunOriginKind = 'job' | 'queue_message' | 'workflow' | 'request' | 'custom';

/**
 * The durable identity of whatever started a run: a job id, a queue message id (the same on
 * redelivery), a workflow execution id, a request's own idempotency key, or an id of your own.
 * `openRun(store, origin)` maps each origin to one run id, so repeating the origin resumes the run
 * instead of starting a new one.
 */
export interface RunOrigin {
  /** The kind of thing that started the run. */
  readonly kind: RunOriginKind;
  /** Its id, stable across redeliveries and resumes (never a value generated per attempt). */
  readonly id: string;
}
