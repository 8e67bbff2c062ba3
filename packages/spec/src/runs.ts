/**
 * The durable run id.
 *
 * The seed: "Run resumption — the key must be derived from durable state, not from anything
 * regenerated at resume time" and "Queue redelivery — ... Keys scoped to the run make this
 * survivable." `openRun` creates a run id once for whatever durable thing started the run (a job
 * id, a queue message id, a workflow id), stores it, and returns the stored id on every later open
 * of the same origin: a resumed run, a redelivered message and a restarted worker all get the
 * same id, so every key built from `run.id` is the same too. It is the runtime source of the
 * type level's `Durable` run fields: the id is vouched durable because it was read back from the
 * store.
 *
 * @module
 */
import { randomUUID } from 'node:crypto';
import { vouchDurable } from './durable.js';
import { DurabilityConfigError, isRetrysafeError, StoreUnavailableError } from './errors.js';
import { assertStorableIdentifier } from './key.js';
import type { RunContext, RunOrigin, RunOriginKind } from './run.js';
import { DEFAULT_TTL_MS } from './runner.js';
import type { DedupStore } from './stores/types.js';

/** Default life of a run record: 7 days, extended by every open (longer than the 24 h dedup TTL). */
export const DEFAULT_RUN_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** Options for `openRun`. */
export interface OpenRunOptions {
  /** Tenant or namespace; the same origin in two namespaces is two runs. Default `''`. */
  readonly namespace?: string;
  /**
   * Keep the run record at least this long from now, ms; default 7 days. Must be at least
   * `dedupTtlMs`: a run record that expires before the dedup records built on it gives a
   * redelivery a new run id, so new keys, and the effect runs again.
   */
  readonly ttlMs?: number;
  /**
   * The dedup TTL of the runner whose keys are built from this run (`runner.ttlMs`), ms; default
   * `DEFAULT_TTL_MS` (24 h). `ttlMs` below it is refused.
   */
  readonly dedupTtlMs?: number;
  /** The clock, epoch ms; default `Date.now`. */
  readonly now?: () => number;
}

/** An opened run: the `RunContext` tools see, plus where it came from. */
export interface OpenedRun extends RunContext {
  /** The origin it was opened for. */
  readonly origin: RunOrigin;
  /** False the first time the origin was seen; true on every resume or redelivery. */
  readonly resumed: boolean;
  /** When the run id was created, epoch ms. */
  readonly createdAt: number;
}

const KINDS: readonly RunOriginKind[] = ['job', 'queue_message', 'workflow', 'request', 'custom'];

/**
 * Load the run for `origin` from the store, or create and store it the first time. Atomic: two
 * workers opening the same origin at once get the same id. The id is `run_<uuid>`, made once.
 *
 * @example
 * // In a queue consumer: the message id is the same on redelivery, so the run (and its keys) is too.
 * const run = await openRun(store, { kind: 'queue_message', id: message.MessageId });
 * await runner.call(issueRefund, args, { run });
 * @throws TypeError if the origin is not `{ kind, id }` with a known kind and a non-empty id.
 * @throws RangeError if `ttlMs` or `dedupTtlMs` is not a positive integer.
 * @throws DurabilityConfigError (`run_ttl_below_dedup_ttl`) if `ttlMs` is below `dedupTtlMs`:
 *   nothing is opened.
 * @throws InvalidIdentifierError if the namespace or the origin's id holds an unpaired surrogate
 *   or U+0000 (text some store cannot keep exactly).
 * @throws StoreUnavailableError if the store cannot be reached. Do not fall back to a made-up id:
 *   keys built from it would differ after a resume.
 */
export async function openRun(store: DedupStore, origin: RunOrigin, options: OpenRunOptions = {}): Promise<OpenedRun> {
  if (typeof origin !== 'object' || origin === null || !KINDS.includes(origin.kind) || typeof origin.id !== 'string' || origin.id === '') {
    throw new TypeError(
      `openRun: origin must be { kind, id } with kind one of ${KINDS.join(', ')} and a non-empty id that stays the same across redeliveries and resumes (a job id, a queue message id, a workflow id)`,
    );
  }
  const ttlMs = options.ttlMs ?? DEFAULT_RUN_TTL_MS;
  const dedupTtlMs = options.dedupTtlMs ?? DEFAULT_TTL_MS;
  if (!Number.isInteger(ttlMs) || ttlMs <= 0 || !Number.isInteger(dedupTtlMs) || dedupTtlMs <= 0) {
    throw new RangeError(`openRun: ttlMs (${ttlMs}) and dedupTtlMs (${dedupTtlMs}) must be positive integers`);
  }
  if (ttlMs < dedupTtlMs) {
    throw new DurabilityConfigError(
      'run_ttl_below_dedup_ttl',
      `openRun: the run record's ttlMs (${ttlMs} ms) is shorter than the dedup TTL (${dedupTtlMs} ms). A redelivery after ` +
        'the run record expired would get a new run id, so new keys, and run its effects again although their dedup ' +
        'records still exist. Keep the run at least as long as the dedup records (the default run TTL is 7 days, ' +
        'the default dedup TTL 24 h), and pass the runner\'s ttlMs as dedupTtlMs.',
    );
  }
  const namespace = assertStorableIdentifier('namespace', options.namespace ?? '');
  assertStorableIdentifier('origin', origin.id);
  const now = (options.now ?? Date.now)();
  const origin_ = `${origin.kind}:${origin.id}`;
  let record;
  try {
    record = await store.openRun({
      namespace,
      origin: origin_,
      candidateId: `run_${randomUUID()}`,
      now,
      ttlMs,
    });
  } catch (error) {
    if (isRetrysafeError(error)) throw error; // a store's own refusal, such as a volatile Redis
    throw new StoreUnavailableError(
      store.info,
      'openRun',
      error,
      `The run for ${origin_} could not be loaded or created; do not make up a run id instead (keys built from it would change on resume).`,
    );
  }
  return { id: vouchDurable(record.id), origin: { kind: origin.kind, id: origin.id }, resumed: !record.created, createdAt: record.createdAt };
}
