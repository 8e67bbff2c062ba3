/**
 * The shapes every dedup store shares: the dedup record, the run record, and `DedupStore`, the
 * interface the runner calls (SQLite, PostgreSQL, Redis, the non-durable memory store for unit
 * tests, and any store you write yourself).
 *
 * The runner owns the policy (what a claim means, when an effect runs); a store owns atomicity and
 * durability. Every method of `DedupStore` is one atomic step: a store must never let two callers
 * both get `outcome: 'claimed'` for the same record while its lock is live. The stores in this
 * package are `createDedupStore(backend)` from `./protocol.js` over a backend's primitives, so the
 * decisions (`decideClaim` and the transitions in `./transitions.js`) are written once; the
 * conformance suite in `tests/stores.conformance.test.ts` holds every store to them.
 *
 * All times are epoch milliseconds. The PostgreSQL and Redis stores decide expiry and locks by
 * the server's clock (`now()`, Redis `TIME` inside the script) and stamp what they write by it, so
 * skew between application machines cannot make one reclaim another's live claim; the SQLite and
 * memory stores (one machine) use the runner's clock (`now`, injectable for tests). A backend
 * reports a clock of its own through `DedupStoreBackend`.
 *
 * @module
 */

/** Where a dedup record stands. See docs/runtime.md for the state machine. */
export type DedupStatus = 'in_progress' | 'completed';

/** Identifies one dedup record: keys are scoped by tool name and namespace (tenant). */
export interface RecordId {
  /** Tenant or namespace; `''` when the runner has none. One namespace never sees another's records. */
  readonly namespace: string;
  /** The tool's `name`. */
  readonly tool: string;
  /** The deterministic idempotency key (1–255 characters, checked by the runner). */
  readonly key: string;
}

/** One failed attempt, kept in the record's error history. */
export interface AttemptError {
  /** The attempt that failed (1 for the first). */
  readonly attempt: number;
  /** When the failure was recorded, epoch ms. */
  readonly at: number;
  /** The error's `name` (`'Error'`, `'TypeError'`, ...) or `'LockExpired'` for a reclaimed attempt. */
  readonly name: string;
  /** The error's message, truncated to 1000 characters. */
  readonly message: string;
}

/**
 * The dedup record (ARCHITECTURE.md's shape plus the lock). A record is `in_progress` from its
 * claim until its effect is recorded; while `owner` is set and `lockExpiresAt` is in the future,
 * nobody else may run the effect. A failed effect releases the lock (`owner` and `lockExpiresAt`
 * cleared) and leaves the record `in_progress`, so a retry can claim it again.
 */
export interface DedupRecord extends RecordId {
  /** SHA-256 of the canonical JSON of the validated input (see `fingerprint`). */
  readonly fingerprint: string;
  readonly status: DedupStatus;
  /** The effect's result as JSON text; `undefined` when not completed or when the tool returned `undefined`. */
  readonly result?: string | undefined;
  /**
   * Set when the effect completed but its result could not be stored as JSON: the effect ran
   * once, the record blocks a second run, and replays throw `UnserializableResultError`.
   */
  readonly resultError?: string | undefined;
  /** Failed attempts, oldest first (the last 20). */
  readonly errors: readonly AttemptError[];
  /** Attempts claimed so far under this key, first included; the per-key `max_attempts` counter. */
  readonly attempts: number;
  /** Epoch ms of the first claim. */
  readonly createdAt: number;
  /** Epoch ms of the last write. */
  readonly updatedAt: number;
  /**
   * Epoch ms after which the record is treated as absent and may be purged, unless a live lock
   * still holds it (a renewal keeps `expiresAt >= lockExpiresAt`).
   */
  readonly expiresAt: number;
  /** Epoch ms at which the current claim's lock lapses; `undefined` when nobody holds it. */
  readonly lockExpiresAt?: number | undefined;
  /** Random token of the claim holder; `undefined` when nobody holds it. */
  readonly owner?: string | undefined;
}

/** Ask to claim a record so that this caller, and only this caller, may run the effect. */
export interface ClaimRequest extends RecordId {
  readonly fingerprint: string;
  /** A fresh random token identifying this claim (not the key: it only names the lock holder). */
  readonly owner: string;
  readonly now: number;
  /** How long the claim's lock lasts without a renewal, ms. */
  readonly lockMs: number;
  /** How long the record is kept after its last write, ms. */
  readonly ttlMs: number;
  /** The tool's `max_attempts`: a claim that would start attempt `maxAttempts + 1` is refused. */
  readonly maxAttempts: number;
}

/**
 * The outcome of a claim, with the record as it stands after it.
 * - `claimed`: the caller holds the lock and must run the effect, then `complete` or `release`.
 *   `reclaimed` is true when an earlier attempt existed (failed, or its process died).
 * - `completed`: the effect already ran with this input; replay `record.result`.
 * - `in_progress`: another caller holds a live lock (IETF Idempotency-Key draft: 409 Conflict).
 * - `mismatch`: the key is in use with a different fingerprint (the draft's 422).
 * - `exhausted`: the record is free, but `attempts` has reached `maxAttempts`.
 */
export type ClaimResult =
  | { readonly outcome: 'claimed'; readonly reclaimed: boolean; readonly record: DedupRecord }
  | {
      readonly outcome: 'completed' | 'in_progress' | 'mismatch' | 'exhausted';
      readonly record: DedupRecord;
    };

/** How an effect ended, for `complete`. */
export interface CompleteRequest {
  readonly now: number;
  readonly ttlMs: number;
  /** JSON text of the result, or `undefined` when the tool returned `undefined`. */
  readonly result?: string | undefined;
  /** Why the result could not be stored (see `DedupRecord.resultError`). */
  readonly resultError?: string | undefined;
}

/** A run record as a store keeps it: the durable run id stored under its origin (see `openRun`). */
export interface StoredRun {
  readonly namespace: string;
  /** The origin's stable text, e.g. `job:8412` or `queue_message:sqs:abc`. */
  readonly origin: string;
  /** The run id, created once and reloaded on every later open of the same origin. */
  readonly id: string;
  /** Epoch ms of the open that created the run. */
  readonly createdAt: number;
  /** Epoch ms after which the run record is treated as absent and may be purged. */
  readonly expiresAt: number;
}

/** A run record as an open returns it. */
export interface RunRecord extends StoredRun {
  /** True only for the open that created the record. */
  readonly created: boolean;
}

/** Create-or-load a run record atomically. */
export interface OpenRunRequest {
  readonly namespace: string;
  readonly origin: string;
  /** The id to store if none exists yet (ignored when one does). */
  readonly candidateId: string;
  readonly now: number;
  /** Keep the run record at least this long from now, ms (an open extends, never shortens). */
  readonly ttlMs: number;
}

/** Describes a store for error messages and docs. */
export interface StoreInfo {
  readonly kind: 'sqlite' | 'postgres' | 'redis' | 'memory' | (string & {});
  /** Where the records live: a file path, a URL without password, a key prefix. */
  readonly location: string;
  /**
   * Whether the records survive a restart, as far as the store knows. On a store's own `info`, what
   * the store is built to be: false for the in-memory store, true for SQLite, PostgreSQL and Redis
   * (a Redis server's persistence is checked on first use, not when the store is built). On the
   * `store` of a `DurabilityConfigError` (`volatile_store`), what the check found: false, the
   * server keeps nothing across a restart.
   */
  readonly durable: boolean;
  /** What to check when the store cannot be reached; ends up in `StoreUnavailableError`. */
  readonly checkHint: string;
}

/**
 * A dedup store. Methods reject (with the driver's error) when the backend cannot be reached;
 * the runner turns that into `StoreUnavailableError` and does not run the effect (fail closed).
 *
 * `complete`, `release` and `renew` take the record as the holder last saw it (returned by
 * `claim` or a previous `renew`) and succeed only while that holder still owns the lock; they
 * return the updated record, or `undefined` when the lock was lost (it expired and someone
 * reclaimed it).
 */
export interface DedupStore {
  readonly info: StoreInfo;
  /** Connect and create or migrate the schema now rather than on first use. Idempotent. */
  ready(): Promise<void>;
  /** Atomically create, reclaim or report the record; see `ClaimResult` and `decideClaim` (`./transitions.js`). */
  claim(request: ClaimRequest): Promise<ClaimResult>;
  /** Mark the held record completed with its result and release the lock. */
  complete(held: DedupRecord, request: CompleteRequest): Promise<DedupRecord | undefined>;
  /** The effect failed: release the lock and append `error` to the history. */
  release(
    held: DedupRecord,
    request: { readonly now: number; readonly error: AttemptError },
  ): Promise<DedupRecord | undefined>;
  /**
   * Extend the held lock to `now + lockMs` (the runner's heartbeat while an effect runs), and the
   * record's expiry at least as far, so a record never expires under a live lease.
   */
  renew(
    held: DedupRecord,
    request: { readonly now: number; readonly lockMs: number },
  ): Promise<DedupRecord | undefined>;
  /**
   * Read a record; expired records (`expiresAt <= now` and no live lock: `isExpired`) read as
   * `undefined`. A store with a clock of its own (PostgreSQL, Redis) judges by its clock.
   */
  get(id: RecordId, now: number): Promise<DedupRecord | undefined>;
  /**
   * Give up the claim `owner` made on `id` if it still holds it and its effect never started (the
   * runner calls this when a claim's reply was lost): the lock is released and the attempt is not
   * counted (`abandonRecord`). Resolves `true` when it did, `false` when the record is not this
   * owner's. Optional: a store without it leaves such a claim to lapse after `lockMs`, counted.
   */
  abandon?(id: RecordId, owner: string, now: number): Promise<boolean>;
  /**
   * Delete records and run records that expired at or before `now` (by the store's clock where it
   * has one), never a record whose lock is live; returns how many went.
   */
  purgeExpired(now: number): Promise<number>;
  /** Create the run record for `origin` if absent (or expired), else load it. Atomic. */
  openRun(request: OpenRunRequest): Promise<RunRecord>;
  /** Release connections or file handles the store opened itself (not ones you passed in). */
  close(): Promise<void>;
}
