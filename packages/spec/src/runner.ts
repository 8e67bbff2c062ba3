/**
 * The runner: executes tools according to their declared idempotency class.
 *
 * This is the seed's handler made generic: for a with_key tool, "if existing := find(key): return
 * {**existing, replayed: true}; result = provider(..., key); record(key, result); return result",
 * with the gaps closed that the seed's sketch leaves open: the find and the claim are one atomic
 * store step (so two concurrent calls cannot both run the effect), the key is bound to the input's
 * fingerprint, a failed effect releases its claim, and a claim whose process died is reclaimed
 * after its lock lapses, with the same key passed downstream again.
 *
 * @module
 */
import { randomUUID } from 'node:crypto';
import { emitWarning } from 'node:process';
import {
  AttemptsExhaustedError,
  ConcurrentCallError,
  IndeterminateOutcomeError,
  InputNotFingerprintableError,
  isRetrysafeError,
  KeyReuseError,
  LeaseLostError,
  StoreUnavailableError,
  UnserializableResultError,
  type StoreOperation,
} from './errors.js';
import { findNonJson, NOT_PLAIN, recordFingerprint, storedCopy } from './fingerprint.js';
import { assertStorableIdentifier, type DeterministicKey } from './key.js';
import type { RunContext } from './run.js';
import { waitWhileInFlight } from './runtime/inFlight.js';
import { indeterminateAttempt, readReconcileAnswer, RECONCILE_UNKNOWN, type ReconcileAnswer } from './runtime/reconcile.js';
import type { ClaimRequest, ClaimResult, DedupRecord, DedupStore, RecordId } from './stores/types.js';
import { createCallTelemetry, type TelemetryOptions } from './telemetry/otel.js';
import type { AnyKeyedTool, AnyTool } from './tool.js';
import { validateInput, validateInputNow } from './validate.js';

/** Default record TTL: 24 hours, as long as Stripe keeps idempotency keys. */
export const DEFAULT_TTL_MS = 24 * 60 * 60 * 1000;
/** Default lock: 30 s, renewed every 10 s while the effect runs (see `RunnerOptions.lockMs`). */
export const DEFAULT_LOCK_MS = 30_000;

/** Options for `createRunner`. */
export interface RunnerOptions {
  /** Where dedup records live: `createSqliteStore()`, `createPostgresStore(...)`, `createRedisStore(...)`. */
  readonly store: DedupStore;
  /** Tenant or namespace every key is scoped to (default `''`); a call may override it. */
  readonly namespace?: string;
  /** How long a record is kept after its last write, ms; default 24 h. Expired records are treated as absent. */
  readonly ttlMs?: number;
  /**
   * How long a claim's lease lasts without renewal, ms; default 30 s. While the effect runs the
   * runner renews it every `lockMs / 3`, and each renewal also keeps the record from expiring
   * under it. A process that dies, freezes or is cut off from the store lets it lapse; a retry
   * may then reclaim the key after `lockMs`, and the first holder's effect gets an abort
   * (`KeyedExecuteContext.signal`) once `lockMs` has passed since the last renewal the store
   * confirmed. It is a lease, not a lock: see docs/runtime.md ("Leases, not locks").
   */
  readonly lockMs?: number;
  /**
   * The clock, epoch ms; default `Date.now`. The SQLite and memory stores decide expiry by it;
   * the PostgreSQL and Redis stores by the server's own clock (unless built with
   * `clock: 'caller'`), so skew between machines cannot make one reclaim another's live claim.
   * The runner also measures its own lease by it (time since the last confirmed renewal).
   */
  readonly now?: () => number;
  /** Renew the lock while an effect runs (default true). Turn off only with `lockMs` above the longest effect. */
  readonly heartbeat?: boolean;
  /** Purge expired records in the background at most this often, ms; default 1 h, 0 turns it off. */
  readonly purgeEveryMs?: number;
  /**
   * OpenTelemetry: a span per call and the `retrysafe.*` metrics (docs/runtime.md, Telemetry).
   * Default: on when `@opentelemetry/api` is installed, sent to its global providers (nothing is
   * recorded until the application registers an SDK); pass providers to send elsewhere, `false`
   * to turn it off.
   */
  readonly telemetry?: TelemetryOptions | false;
  /**
   * When another call holds the key, wait up to this long (ms, real time) for it to complete and
   * return its result as a replay (`replayed: true`), polling the record with a short backoff
   * (5 ms doubling to 200 ms). Default 0: answer `ConcurrentCallError` at once. If the other
   * call fails or dies meanwhile, this call claims the next attempt as a retry would. A call may
   * override it (`CallOptions.waitForInFlightMs`).
   */
  readonly waitForInFlightMs?: number;
}

/** Per-call options. */
export interface CallOptions {
  /** The run the call belongs to, from `openRun(store, origin)`; keys are derived from it. */
  readonly run: RunContext;
  /** Overrides the runner's namespace (tenant) for this call. */
  readonly namespace?: string;
  /**
   * For tools without a record (naturally idempotent, not safely repeatable): which attempt the
   * loop is on, default 1, echoed in the result. With_key tools count attempts in the record.
   */
  readonly attempt?: number;
  /** Overrides `RunnerOptions.waitForInFlightMs` for this call, ms. */
  readonly waitForInFlightMs?: number;
}

/** The result of `execute`, awaited. */
export type ResultOf<T extends AnyTool> = Awaited<ReturnType<T['execute']>>;

/** What a call returns. */
export interface CallResult<R = unknown> {
  /** The tool's result: the effect's, or the stored one when `replayed`. */
  readonly result: R;
  /** True when the effect did not run because this key already completed (the seed's replay flag). */
  readonly replayed: boolean;
  /** The key, for with_key tools. */
  readonly key?: DeterministicKey;
  /** The attempt that produced the result (from the record for with_key tools). */
  readonly attempt: number;
  /**
   * Set only when the effect ran but its result was not recorded, so a retry with the same key is
   * not replayed: the store failed on the completion (`store_unavailable`; the record stays in
   * progress until `lockMs` passes, then a retry reclaims it and runs the effect again, or with
   * `max_attempts: 1` escalates with `AttemptsExhaustedError`), or the lock lapsed mid-effect and
   * another call reclaimed the key (`lock_lost`). The result is still this effect's: the caller
   * gets the truth. The same is written as a process warning (code `RETRYSAFE_RECORD`). Check with
   * the provider (or the tool's `reconcile` hook) before repeating the work.
   */
  readonly unrecorded?: UnrecordedOutcome;
}

/** Why an effect that ran has no record (`CallResult.unrecorded`). */
export interface UnrecordedOutcome {
  readonly reason: 'store_unavailable' | 'lock_lost';
  /** What happened and what a retry will do, as in the process warning. */
  readonly detail: string;
}

/** `tryCall`'s answer: the result, or the error with the attempt it ended for `decideRetry`. */
export type CallOutcome<R = unknown> =
  | ({ readonly ok: true } & CallResult<R>)
  | { readonly ok: false; readonly error: unknown; readonly attempt: number; readonly key?: DeterministicKey };

/** Runs tools by class; see `createRunner`. */
export interface Runner {
  /** The namespace (tenant) calls are scoped to unless a call names its own (`RunnerOptions.namespace`). */
  readonly namespace: string;
  /** How long a dedup record is kept after its last write, ms (`RunnerOptions.ttlMs`); pass it to `openRun` as `dedupTtlMs`. */
  readonly ttlMs: number;
  /**
   * Validate the input and run the tool by its class. With_key: claim the key, replay a completed
   * call (`replayed: true`), or run the effect once and record its result. Naturally idempotent
   * and not-safely-repeatable tools run directly, once per call, with no record.
   *
   * The result is the stored form: what `JSON.parse(JSON.stringify(value))` gives, on the first
   * call as on every replay, so `deepStrictEqual(replay.result, first.result)` holds (`-0` comes
   * back as `0`, a null-prototype object as a plain one, an `undefined` property is left out).
   * A value JSON cannot keep (a `Date`, `Map`, `Set`, class instance, `bigint`, `NaN`, sparse
   * array, cycle) is refused with `UnserializableResultError`, on the first call and on replays.
   *
   * @throws InvalidIdentifierError (a namespace, tool name or key with an unpaired surrogate or
   *   U+0000; nothing ran), InputValidationError, InvalidKeyError (empty or over 255 characters:
   *   rejected, not hashed), InputNotFingerprintableError, ConcurrentCallError (409; after
   *   `waitForInFlightMs` if set), KeyReuseError (422), AttemptsExhaustedError,
   *   IndeterminateOutcomeError (the `reconcile` hook could not tell; nothing ran),
   *   DurabilityConfigError (a volatile store; nothing ran), StoreUnavailableError (the effect
   *   did not run), UnserializableResultError (the effect ran once; not repeated), or the tool's
   *   own error (after releasing the claim so a retry can run; kept in the record's history).
   */
  call<T extends AnyTool>(tool: T, rawInput: unknown, options: CallOptions): Promise<CallResult<ResultOf<T>>>;
  /** `call` that resolves with `{ ok: false, error, attempt }` instead of throwing; feed it to `decideRetry`. */
  tryCall<T extends AnyTool>(tool: T, rawInput: unknown, options: CallOptions): Promise<CallOutcome<ResultOf<T>>>;
  /** The dedup record a call with this input would use (undefined if none or expired); for audits and tests. */
  recordFor(tool: AnyKeyedTool, rawInput: unknown, options: CallOptions): Promise<DedupRecord | undefined>;
  /** Delete expired records now; returns how many went. */
  purgeExpired(): Promise<number>;
}

/**
 * Create a runner over a dedup store.
 *
 * @example
 * const runner = createRunner({ store: createSqliteStore(), namespace: tenantId });
 * const run = await openRun(store, { kind: 'job', id: job.id });
 * const { result, replayed } = await runner.call(issueRefund, args, { run });
 * @throws RangeError if `ttlMs` or `lockMs` is not a positive integer, `lockMs > ttlMs`, or
 *   `waitForInFlightMs` is negative.
 * @throws InvalidIdentifierError if `namespace` holds an unpaired surrogate or U+0000.
 */
export function createRunner(options: RunnerOptions): Runner {
  if (typeof options !== 'object' || options === null || !isDedupStore(options.store)) {
    throw new TypeError(
      'createRunner needs { store }: a dedup store from createSqliteStore, createPostgresStore or createRedisStore ' +
        '(@retrysafe/spec/stores/*), or createNonDurableMemoryStore (@retrysafe/spec/stores/memory) for tests',
    );
  }
  if (options.namespace !== undefined && typeof options.namespace !== 'string') {
    throw new TypeError(`createRunner: namespace must be a string (the tenant or deployment), got ${typeof options.namespace}`);
  }
  const { store } = options;
  const ttlMs = options.ttlMs ?? DEFAULT_TTL_MS;
  const lockMs = options.lockMs ?? DEFAULT_LOCK_MS;
  const now = options.now ?? Date.now;
  const purgeEveryMs = options.purgeEveryMs ?? 60 * 60 * 1000;
  if (!isPositiveInteger(ttlMs) || !isPositiveInteger(lockMs) || lockMs > ttlMs) {
    throw new RangeError(`createRunner: ttlMs (${ttlMs}) and lockMs (${lockMs}) must be positive integers with lockMs <= ttlMs`);
  }
  const waitForInFlightMs = options.waitForInFlightMs ?? 0;
  if (!(waitForInFlightMs >= 0)) throw new RangeError(`createRunner: waitForInFlightMs (${waitForInFlightMs}) must be 0 or more`);
  const runnerNamespace = assertStorableIdentifier('namespace', options.namespace ?? '');
  let lastPurge = now();
  // The attempt each thrown error ended, for tryCall, without another read of the record.
  const failedAttempts = new WeakMap<object, { attempt: number; key: DeterministicKey }>();
  const telemetry = createCallTelemetry(options.telemetry);
  const leaseSettings: LeaseSettings = { store, lockMs, everyMs: Math.max(1, Math.floor(lockMs / 3)), now, renewing: options.heartbeat ?? true, timer: leaseTimer() };
  const failureFacts = (error: unknown) => (typeof error === 'object' && error !== null ? failedAttempts.get(error) : undefined);

  const guard = async <T>(step: Promise<T>, operation: StoreOperation, subject: string): Promise<T> => {
    try {
      return await step;
    } catch (error) {
      // A store's own refusal (a volatile Redis: DurabilityConfigError) is not an outage.
      if (isRetrysafeError(error)) throw error;
      throw new StoreUnavailableError(store.info, operation, error, subject);
    }
  };

  /**
   * The call's identity and fingerprint. Identifiers are checked here, for every store alike,
   * before the store sees them (issue 13), and before the input is validated.
   */
  function prepare(tool: AnyKeyedTool, rawInput: unknown, options: CallOptions) {
    const namespace = options.namespace === undefined ? runnerNamespace : assertStorableIdentifier('namespace', options.namespace);
    assertStorableIdentifier('tool', tool.name);
    // A synchronous schema (the common case) costs no promise: the input is identified at once.
    const validated = validateInputNow(tool, rawInput);
    return validated instanceof Promise ? validated.then((input: unknown) => identify(tool, input, namespace, options)) : identify(tool, validated, namespace, options);
  }

  function identify(tool: AnyKeyedTool, input: unknown, namespace: string, options: CallOptions) {
    const key = assertStorableIdentifier('key', tool.deriveKey(input, options.run));
    let print: string;
    try {
      print = recordFingerprint({ namespace, tool: tool.name }, input);
    } catch (error) {
      throw new InputNotFingerprintableError(tool.name, (error as Error).message);
    }
    const id: RecordId = { namespace, tool: tool.name, key };
    return { input, key, print, id };
  }

  async function callKeyed(tool: AnyKeyedTool, rawInput: unknown, callOptions: CallOptions): Promise<CallResult> {
    const prepared = prepare(tool, rawInput, callOptions);
    const { input, key, print, id } = prepared instanceof Promise ? await prepared : prepared;
    maybePurge();
    // Written out rather than spread from `id`: on Node 20 an object spread followed by new
    // properties costs about 0.5 µs per property, on every keyed call (bench/runtime.mjs).
    const request: ClaimRequest = {
      namespace: id.namespace,
      tool: id.tool,
      key: id.key,
      fingerprint: print,
      owner: nextOwnerToken(),
      now: now(),
      lockMs,
      ttlMs,
      maxAttempts: tool.policy.max_attempts,
    };
    let claim: ClaimResult = await claimOnce(request, tool.name);
    let sentAt = request.now;
    let retryAfterMs: number | undefined;
    const waitMs = callOptions.waitForInFlightMs ?? waitForInFlightMs;
    if (claim.outcome === 'in_progress' && waitMs > 0) {
      const poll = () => {
        const again = { ...request, now: now() };
        sentAt = again.now;
        return claimOnce(again, tool.name);
      };
      const waited = await waitWhileInFlight(claim, poll, waitMs);
      claim = waited.claim;
      retryAfterMs = waited.nextPauseMs;
    }
    const { record } = claim;
    switch (claim.outcome) {
      case 'completed':
        return replayOf(record, id);
      case 'in_progress':
        throw new ConcurrentCallError({ ...id, attempt: record.attempts, lockExpiresAt: record.lockExpiresAt ?? now(), now: now(), ...(retryAfterMs === undefined ? {} : { retryAfterMs }) });
      case 'mismatch':
        throw new KeyReuseError({ ...id, fingerprint: print, storedFingerprint: record.fingerprint });
      case 'exhausted':
        throw new AttemptsExhaustedError({ ...id, attempts: record.attempts, maxAttempts: tool.policy.max_attempts, errors: record.errors });
      case 'claimed': {
        const lost = claim.reclaimed && tool.reconcile !== undefined ? indeterminateAttempt(record) : undefined;
        if (lost !== undefined) return reconcileClaimed(tool, input, callOptions.run, key, record, lost, sentAt);
        return await runClaimed(tool, input, callOptions.run, key, record, sentAt);
      }
    }
  }

  /**
   * The claim, re-sent once with the same owner token when it fails: it may have reached the store
   * and only its reply been lost (a dropped connection), and the store then recognises the record
   * as this claim's own. When both fail, the claim may still stand in the store with an effect
   * that never started: it is abandoned in the background once the store answers again, so that
   * it neither blocks the key for `lockMs` nor counts as an attempt, and the call fails closed
   * (`StoreUnavailableError`, as `guard` words it; one async frame for both, on every keyed call).
   */
  async function claimOnce(request: ClaimRequest, toolName: string) {
    try {
      return await store.claim(request);
    } catch {
      try {
        return await store.claim({ ...request, now: now() });
      } catch (error) {
        abandonLater(request);
        // A store's own refusal (a volatile Redis: DurabilityConfigError) is not an outage.
        if (isRetrysafeError(error)) throw error;
        throw new StoreUnavailableError(store.info, 'claim', error, `The effect of ${toolName} did not run (fail closed); retrying once the store is back is safe.`);
      }
    }
  }

  function abandonLater(request: ClaimRequest, tries = 0): void {
    const { abandon } = store;
    if (abandon === undefined || tries >= ABANDON_DELAYS_MS.length) return;
    const timer = setTimeout(() => {
      abandon.call(store, request, request.owner, now()).then(
        () => {}, // abandoned, or the record is not this claim's (it never landed, or another call holds it)
        () => abandonLater(request, tries + 1),
      );
    }, ABANDON_DELAYS_MS[tries]);
    timer.unref();
  }

  /** A completed record's result, parsed from its stored JSON (the first call returned the same form). */
  function replayOf(record: DedupRecord, id: RecordId): CallResult {
    if (record.resultError !== undefined) {
      throw new UnserializableResultError({ ...id, reason: record.resultError, replayed: true });
    }
    return { result: record.result === undefined ? undefined : JSON.parse(record.result), replayed: true, key: id.key as DeterministicKey, attempt: record.attempts };
  }

  /**
   * Ask the tool's `reconcile` hook whether the lost attempt's effect happened, holding the lock
   * (renewed) meanwhile, and act on the answer (see `ReconcileAnswer`).
   */
  async function reconcileClaimed(tool: AnyKeyedTool, input: unknown, run: RunContext, key: DeterministicKey, claimed: DedupRecord, lost: { attempt: number; at: number }, sentAt: number) {
    const heartbeat = new Lease(leaseSettings, claimed, sentAt, key);
    let answer: ReconcileAnswer | string;
    let cause: unknown;
    try {
      answer = readReconcileAnswer(await (tool.reconcile as NonNullable<AnyKeyedTool['reconcile']>)(input, { run, key, attempt: lost.attempt, since: lost.at }));
    } catch (error) {
      cause = error;
      answer = `the hook threw ${errorName(error)}: ${errorMessage(error)}`;
    }
    const held = await heartbeat.stop();
    // The lease lapsed while the hook ran: another call may hold the key now; run nothing.
    const lostWith = heartbeat.lostWith();
    if (lostWith !== undefined) throw lostWith;
    if (typeof answer !== 'string' && answer.status === 'not_done') return runClaimed(tool, input, run, key, held, heartbeat.confirmedAt());
    if (typeof answer !== 'string' && answer.status === 'done') return recordResult(tool, key, held, answer.result, true);
    const detail = typeof answer === 'string' ? answer : `it answered unknown${answer.reason ? `: ${answer.reason}` : ''}`;
    // Names the attempt whose outcome is still unknown, so the next claim asks about it again.
    const note = { attempt: lost.attempt, at: now(), name: RECONCILE_UNKNOWN, message: safeText(detail) };
    await store.release(held, { now: now(), error: note }).then(
      (released) => released ?? warnLockLost(tool.name, key),
      (storeError: unknown) => warn(`could not record that ${tool.name} key ${key} is indeterminate (${errorMessage(storeError)}); its lock lapses after lockMs and the next claim asks reconcile again`),
    );
    const error = new IndeterminateOutcomeError({ namespace: claimed.namespace, tool: tool.name, key, attempt: lost.attempt, detail, cause });
    failedAttempts.set(error, { attempt: held.attempts, key });
    throw error;
  }

  async function runClaimed(tool: AnyKeyedTool, input: unknown, run: RunContext, key: DeterministicKey, claimed: DedupRecord, sentAt: number) {
    const heartbeat = new Lease(leaseSettings, claimed, sentAt, key);
    let value: unknown;
    try {
      value = await tool.execute(input, new EffectContext(run, key, heartbeat));
    } catch (error) {
      const held = await heartbeat.stop();
      const failure = { attempt: held.attempts, at: now(), name: safeText(errorName(error)), message: safeText(errorMessage(error)) };
      await store.release(held, { now: now(), error: failure }).then(
        (released) => released ?? warnLockLost(tool.name, key),
        (storeError: unknown) => warn(`could not release ${tool.name} key ${key} after its effect failed (${errorMessage(storeError)}); a retry can reclaim it after lockMs`),
      );
      if (typeof error === 'object' && error !== null) failedAttempts.set(error, { attempt: held.attempts, key });
      throw error;
    }
    const stopped = heartbeat.stop();
    return await recordResult(tool, key, stopped instanceof Promise ? await stopped : stopped, value, false);
  }

  /**
   * Record the effect's result and return its stored form, the value every replay returns too
   * (`JSON.parse` of the stored text), so the first call and its replays agree exactly.
   */
  async function recordResult(tool: AnyKeyedTool, key: DeterministicKey, held: DedupRecord, value: unknown, replayed: boolean): Promise<CallResult> {
    // Plain JSON data (the common case) is checked and copied to its stored form in one walk;
    // anything else is described by findNonJson, or round-trips through JSON as before.
    const copy = value === undefined ? undefined : storedCopy(value);
    const resultError = copy === NOT_PLAIN ? findNonJson(value, { allowDates: false }) : undefined;
    const result = resultError === undefined && value !== undefined ? JSON.stringify(value) : undefined;
    // The effect ran: whatever the store says now, the caller gets the truth.
    // (An await in a try rather than .then with two closures: no closure or derived promise per call.)
    let unrecorded: UnrecordedOutcome | undefined;
    try {
      if ((await store.complete(held, { now: now(), ttlMs, result, resultError })) === undefined) unrecorded = { reason: 'lock_lost', detail: warnLockLost(tool.name, key) };
    } catch (storeError) {
      unrecorded = {
        reason: 'store_unavailable',
        detail: warn(`the effect of ${tool.name} key ${key} ran but its result could not be recorded (${errorMessage(storeError)}); ${afterLostResult(tool.policy.max_attempts)}`),
      };
    }
    if (resultError !== undefined) {
      throw new UnserializableResultError({ namespace: held.namespace, tool: tool.name, key, reason: resultError, replayed, result: value });
    }
    const stored = copy !== NOT_PLAIN ? copy : result === undefined ? undefined : JSON.parse(result);
    const answer: CallResult = { result: stored, replayed, key, attempt: held.attempts };
    return unrecorded === undefined ? answer : { ...answer, unrecorded };
  }

  async function callDirect(tool: AnyTool, rawInput: unknown, callOptions: CallOptions): Promise<CallResult> {
    const input: unknown = await validateInput(tool, rawInput);
    const result = await (tool.execute as (i: unknown, c: { run: RunContext }) => Promise<unknown>)(input, { run: callOptions.run });
    return { result, replayed: false, attempt: callOptions.attempt ?? 1 };
  }

  function maybePurge() {
    if (purgeEveryMs <= 0 || now() - lastPurge < purgeEveryMs) return;
    lastPurge = now();
    store.purgeExpired(lastPurge).catch(() => {}); // housekeeping only: expired records already read as absent
  }

  const runner: Runner = {
    namespace: runnerNamespace,
    ttlMs,
    // Not an async method: the call's own promise is returned as it is (an async method adds one
    // that settles two microtasks later), and a misuse still rejects rather than throws.
    call(tool, rawInput, callOptions) {
      try {
        assertCallOptions('call', tool, callOptions);
        const call = () => (isKeyed(tool) ? callKeyed(tool, rawInput, callOptions) : callDirect(tool, rawInput, callOptions));
        const observed = telemetry ? telemetry.observe(tool, callOptions.namespace ?? runnerNamespace, call, failureFacts) : call();
        return observed as Promise<CallResult<ResultOf<typeof tool>>>;
      } catch (error) {
        return Promise.reject(error);
      }
    },
    async tryCall(tool, rawInput, callOptions) {
      assertCallOptions('tryCall', tool, callOptions);
      try {
        return { ok: true, ...(await runner.call(tool, rawInput, callOptions)) };
      } catch (error) {
        return { ok: false, error, ...(await attemptOf(tool, rawInput, callOptions, error)) };
      }
    },
    async recordFor(tool, rawInput, callOptions) {
      const { id } = await prepare(tool, rawInput, callOptions);
      return guard(store.get(id, now()), 'read', 'Nothing ran.');
    },
    purgeExpired: () => guard(store.purgeExpired(now()), 'purge', 'Nothing ran.'),
  };

  // The attempt a failure belongs to: the record's count for with_key tools, the loop's otherwise.
  async function attemptOf(tool: AnyTool, rawInput: unknown, callOptions: CallOptions, error: unknown) {
    if (!isKeyed(tool)) return { attempt: callOptions.attempt ?? 1 };
    const known = typeof error === 'object' && error !== null ? failedAttempts.get(error) : undefined;
    if (known) return known;
    if (error instanceof ConcurrentCallError) return { attempt: error.attempt, key: error.key as DeterministicKey };
    if (error instanceof AttemptsExhaustedError) return { attempt: error.attempts, key: error.key as DeterministicKey };
    try {
      const record = await runner.recordFor(tool, rawInput, callOptions);
      return record ? { attempt: record.attempts, key: record.key as DeterministicKey } : { attempt: 1 };
    } catch {
      return { attempt: 1 }; // invalid input or key, or the store is down: no attempt was recorded
    }
  }

  return runner;
}

function isKeyed(tool: AnyTool): tool is AnyKeyedTool {
  if (tool.policy.idempotent !== 'with_key') return false;
  if (typeof tool.deriveKey !== 'function') {
    throw new TypeError(`${tool.name} is declared idempotent: 'with_key' but has no deriveKey: build it with defineTool and a key function`);
  }
  return true;
}

/**
 * What a keyed effect receives (`KeyedExecuteContext`). `signal` is a getter on the prototype, so
 * the lease makes its AbortController only if the effect reads it (most never do): with it, the
 * runner's own CPU per first call fell from ~9.3 to ~7.5 µs (a backend that does nothing, same
 * process). An object literal with a getter costs more than the AbortController it saves (V8
 * builds it on its slow path: ~11 µs).
 */
class EffectContext {
  readonly run: RunContext;
  readonly key: DeterministicKey;
  readonly #lease: { signal(): AbortSignal };

  constructor(run: RunContext, key: DeterministicKey, lease: { signal(): AbortSignal }) {
    this.run = run;
    this.key = key;
    this.#lease = lease;
  }

  get signal(): AbortSignal {
    return this.#lease.signal();
  }
}

/**
 * A fresh owner token for each claim: this process's random prefix (one `randomUUID()`, 122
 * random bits, drawn when the module loads) and a counter, so no two claims of any two processes
 * share one, as with a `randomUUID()` per claim. A `randomUUID()` per claim cost about a tenth of
 * the runner's own instructions per first call on the memory store (bench/runner-instructions.mjs),
 * most of it the allocation behind it; a token is only compared, never parsed.
 */
const OWNER_PREFIX = randomUUID();
let ownerCount = 0;
const nextOwnerToken = (): string => `${OWNER_PREFIX}.${(ownerCount += 1).toString(36)}`;

/** A lease as the runner's `LeaseTimer` sees it: when it next wants waking (`performance.now()` ms). */
interface LeaseWaker {
  wakeAt: number;
  readonly wake: () => void;
}

/** One timer for all of a runner's leases (see `leaseTimer`). */
interface LeaseTimer {
  /** Wake `lease` at `at` (`performance.now()` ms, or a moment later), once, unless it is forgotten first. */
  wakeAt(lease: LeaseWaker, at: number): void;
  /** Stop waking `lease` (its effect ended, or its lease was lost). */
  forget(lease: LeaseWaker): void;
}

/**
 * One timer for all of a runner's leases, armed for the earliest wake any live lease asked for.
 * A lease that ends before its first renewal (most do) costs a `Set` entry, not a timer: the
 * timer already armed for an earlier lease is left as it is (a later lease never wakes sooner),
 * and when it fires with no lease due it re-arms for the earliest one left, or not at all. A
 * timer armed and cleared per call (and the list Node keeps per duration) was about a fifth of
 * the runner's own instructions per first call on the memory store (bench/runner-instructions.mjs).
 * Each lease is woken at its own time as with a timer of its own; the timer is unref'd.
 */
function leaseTimer(): LeaseTimer {
  const live = new Set<LeaseWaker>();
  let timer: NodeJS.Timeout | undefined;
  let armedFor = Number.POSITIVE_INFINITY;
  let firing = false;
  const arm = (at: number) => {
    if (timer !== undefined) clearTimeout(timer);
    armedFor = at;
    timer = setTimeout(fire, Math.max(1, Math.ceil(at - performance.now())));
    timer.unref();
  };
  const fire = () => {
    timer = undefined;
    armedFor = Number.POSITIVE_INFINITY;
    firing = true;
    try {
      const at = performance.now();
      for (const lease of live) if (lease.wakeAt <= at) lease.wake();
    } finally {
      firing = false;
    }
    let next = Number.POSITIVE_INFINITY;
    for (const lease of live) if (lease.wakeAt < next) next = lease.wakeAt;
    if (next !== Number.POSITIVE_INFINITY) arm(next);
  };
  return {
    wakeAt(lease, at) {
      lease.wakeAt = at;
      live.add(lease);
      if (!firing && at < armedFor) arm(at);
    },
    forget(lease) {
      live.delete(lease);
    },
  };
}

/** Delays of the background attempts to abandon a claim whose reply was lost, ms. */
const ABANDON_DELAYS_MS = [200, 1_000, 5_000, 30_000] as const;

/** What every lease of one runner shares (made once per runner, not per call). */
interface LeaseSettings {
  readonly store: DedupStore;
  readonly lockMs: number;
  /** Renewal period, ms: `lockMs / 3`, at least 1. */
  readonly everyMs: number;
  readonly now: () => number;
  readonly renewing: boolean;
  readonly timer: LeaseTimer;
}

/**
 * The lease on a claimed key while its effect runs: renews it every `lockMs / 3` (when
 * `renewing`), and aborts `signal` with a `LeaseLostError` when a renewal finds another holder or
 * when `lockMs` has passed, by the runner's clock, since the last renewal the store confirmed was
 * sent (`sentAt` for the claim itself): from then on the store may hand the key to another call.
 * `stop` returns the latest held record.
 *
 * Per call it costs one object: no timer of its own (the runner's one `LeaseTimer` wakes it for
 * the next renewal or the deadline, whichever comes first; the lease is its own `LeaseWaker`), no
 * closures, and no `AbortController` until someone reads `signal`: most effects end long before
 * their first renewal and never look at the signal, and an AbortController per call was the
 * largest single item of the runner's own CPU per first call (`node --cpu-prof`,
 * bench/runtime.mjs). The closures of the earlier function form (a dozen per call) were the
 * garbage collector's largest share of a first call.
 */
class Lease implements LeaseWaker {
  wakeAt = 0;
  readonly #settings: LeaseSettings;
  readonly #key: string;
  #controller: AbortController | undefined = undefined;
  #lostWith: LeaseLostError | undefined = undefined;
  #held: DedupRecord;
  #confirmedAt: number;
  #inflight: Promise<void> | undefined = undefined;
  #stopped = false;
  // Woken for its next renewal (every `everyMs` of real time, as an interval would) or for its
  // deadline (`lockMs` after the last confirmation, by `now`, checked once per confirmation as a
  // deadline timer would), whichever is sooner. Every wake checks the deadline.
  #nextTickAt: number;
  #armedDeadlineOf: number | undefined = undefined;
  #checkedDeadlineOf: number | undefined = undefined;

  constructor(settings: LeaseSettings, claimed: DedupRecord, sentAt: number, key: string) {
    this.#settings = settings;
    this.#key = key;
    this.#held = claimed;
    this.#confirmedAt = sentAt;
    this.#nextTickAt = performance.now() + settings.everyMs;
    this.#arm();
  }

  #lose(reason: 'reclaimed' | 'expired'): void {
    if (this.#lostWith !== undefined || this.#stopped) return;
    const { namespace, tool, attempts } = this.#held;
    this.#lostWith = new LeaseLostError({ namespace, tool, key: this.#key, attempt: attempts, reason, lockMs: this.#settings.lockMs });
    this.#controller?.abort(this.#lostWith);
  }

  #renew(): void {
    if (!this.#settings.renewing || this.#inflight || this.#lostWith !== undefined) return;
    const sent = this.#settings.now();
    this.#inflight = this.#settings.store
      .renew(this.#held, { now: sent, lockMs: this.#settings.lockMs })
      .then((renewed) => {
        if (this.#stopped) return;
        if (renewed === undefined) return this.#lose('reclaimed');
        this.#held = renewed;
        this.#confirmedAt = sent;
      }, () => {}) // a missed renewal is retried on the next tick; the lease has two more in hand
      .finally(() => {
        this.#inflight = undefined;
      });
  }

  #arm(): void {
    const at = performance.now();
    const tickIn = this.#nextTickAt - at;
    const deadlineIn = this.#checkedDeadlineOf === this.#confirmedAt ? Number.POSITIVE_INFINITY : this.#confirmedAt + this.#settings.lockMs - this.#settings.now();
    this.#armedDeadlineOf = deadlineIn < tickIn ? this.#confirmedAt : undefined;
    // Whole milliseconds, at least one, as a timer of its own was armed.
    this.#settings.timer.wakeAt(this, at + Math.max(1, Math.ceil(Math.min(tickIn, deadlineIn))));
  }

  /** Called by the runner's LeaseTimer at (or a moment after) `wakeAt`. */
  wake(): void {
    if (this.#stopped) return;
    if (this.#armedDeadlineOf !== undefined) this.#checkedDeadlineOf = this.#armedDeadlineOf;
    if (this.#lostWith === undefined && this.#settings.now() - this.#confirmedAt >= this.#settings.lockMs) this.#lose('expired');
    const at = performance.now();
    // A timer may fire a fraction of a millisecond before performance.now() reaches its time.
    if (at >= this.#nextTickAt - 1) {
      this.#renew();
      this.#nextTickAt = at + this.#settings.everyMs;
    }
    if (this.#lostWith === undefined) this.#arm();
    else this.#settings.timer.forget(this);
  }

  /** Aborted with the `LeaseLostError` once the lease is lost; made on the first call. */
  signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#lostWith !== undefined) this.#controller.abort(this.#lostWith);
    }
    return this.#controller.signal;
  }

  /** The `LeaseLostError` the lease was lost with, if it was. */
  lostWith(): LeaseLostError | undefined {
    return this.#lostWith;
  }

  /** When the lease was last confirmed by the store (the claim's or a renewal's send time), by `now`. */
  confirmedAt(): number {
    return this.#confirmedAt;
  }

  /** The latest held record, once no renewal is in flight: at once when none is (the common case). */
  stop(): DedupRecord | Promise<DedupRecord> {
    this.#settings.timer.forget(this);
    if (this.#inflight === undefined) {
      this.#stopped = true;
      return this.#held;
    }
    return this.#inflight.then(() => {
      this.#stopped = true;
      return this.#held;
    });
  }
}

/** What a retry does after an effect ran but its result was not recorded (see docs/runtime.md, reclaim). */
function afterLostResult(maxAttempts: number): string {
  return maxAttempts <= 1
    ? 'the record stays in progress, and a retry after lockMs finds its one attempt used and escalates (AttemptsExhaustedError) instead of running it again: check with the provider whether it happened'
    : 'a retry after lockMs reclaims it and runs it again with the same key, so the provider must dedupe by key';
}

/** Warns that the lock on `key` was lost mid-effect; returns the message. */
function warnLockLost(tool: string, key: string): string {
  return warn(`the lock on ${tool} key ${key} lapsed while its effect ran and another call reclaimed it; the outcome was not recorded by this call. Raise lockMs or keep the heartbeat on.`);
}

/** Writes `message` as a process warning (code `RETRYSAFE_RECORD`) and returns it. */
function warn(message: string): string {
  emitWarning(`retrysafe: ${message}`, { code: 'RETRYSAFE_RECORD' });
  return message;
}

const isPositiveInteger = (n: number) => Number.isInteger(n) && n > 0;

/** Whether `value` has the shape of a `DedupStore` (its info and the operations the runner calls). */
function isDedupStore(value: unknown): value is DedupStore {
  if (typeof value !== 'object' || value === null) return false;
  const store = value as Partial<Record<keyof DedupStore, unknown>>;
  return typeof store.info === 'object' && store.info !== null && ['claim', 'complete', 'release', 'renew', 'get'].every((name) => typeof store[name as keyof DedupStore] === 'function');
}

/** Throws `TypeError` where the call is written when its options carry no run (a programming error, not an outcome). */
function assertCallOptions(method: 'call' | 'tryCall', tool: unknown, callOptions: unknown): void {
  const run = typeof callOptions === 'object' && callOptions !== null ? (callOptions as { run?: { id?: unknown } }).run : undefined;
  if (typeof run?.id !== 'string') {
    throw new TypeError(
      `runner.${method}(${describeToolName(tool)}, input, { run }) needs the call's run: the RunContext openRun(store, origin) returns ` +
        '(or runContextForTests in tests), whose id the key is derived from (docs/runtime.md, The run id)',
    );
  }
}

/** A tool's name for a message, or `tool` when the value is not a tool. */
const describeToolName = (tool: unknown): string =>
  typeof tool === 'object' && tool !== null && typeof (tool as { name?: unknown }).name === 'string' ? (tool as { name: string }).name : 'tool';
/**
 * A tool's error text as every store keeps it: PostgreSQL's JSONB refuses U+0000 and drivers turn
 * an unpaired surrogate into U+FFFD (SQLite into three), so both are replaced here, alike on every store.
 */
const safeText = (text: string) => (text as unknown as { toWellFormed(): string }).toWellFormed().replaceAll('\0', '\uFFFD');
const errorName = (error: unknown) => (error instanceof Error ? error.name : typeof error);
const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));
