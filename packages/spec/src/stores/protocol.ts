/**
 * `@retrysafe/spec/stores/protocol`: for people who write a dedup store.
 *
 * A store is `createDedupStore(backend)`: the protocol (claim, replay, complete, release, renew,
 * get, purge, open a run) is written once here, and a backend supplies only storage primitives,
 * each one atomic step: insert-or-read, read, compare-and-set, write-while-held, purge, and the run
 * record's upsert. This is the split of AWS Powertools' `BasePersistenceLayer`, whose backends
 * implement `_getRecord`, `_putRecord`, `_updateRecord` and `_deleteRecord`; here the claim's
 * insert and read are one primitive, so that a store that can do both in one round trip (an
 * `INSERT ... ON CONFLICT` that returns the row it met, Redis `SET NX GET`) spends one on a first
 * call's claim (then one to record the result) and one on a whole replay.
 *
 * The decisions (`decideClaim`, `completeRecord`, `releaseRecord`, `renewRecord`, `mergeRun`) are
 * exported too, for a backend that applies one natively (in SQL, or in a script on the server) and
 * for its tests. docs/contributing.md ("Add a store") walks through writing a backend; the
 * conformance suite (`tests/stores.conformance.test.ts`) is the judge of every store.
 *
 * @module
 */
import { assertStorableIdentifier } from '../key.js';
import { abandonRecord, decideClaim, completeRecord, isExpired, releaseRecord, renewRecord } from './transitions.js';
import type { ClaimRequest, ClaimResult, DedupRecord, DedupStore, RecordId, RunRecord, StoreInfo, StoredRun } from './types.js';

export {
  abandonRecord,
  decideClaim,
  isExpired,
  isLocked,
  stillHeld,
  completeRecord,
  releaseRecord,
  renewRecord,
  mergeRun,
  trimHistory,
} from './transitions.js';
export { MAX_ERROR_HISTORY, MAX_ERROR_MESSAGE_LENGTH, type ClaimWrite } from './transitions.js';
export type {
  AttemptError,
  ClaimRequest,
  ClaimResult,
  CompleteRequest,
  DedupRecord,
  DedupStatus,
  DedupStore,
  OpenRunRequest,
  RecordId,
  RunRecord,
  StoreInfo,
  StoredRun,
} from './types.js';

/**
 * What the claim's first step found: the record was absent and `fresh` is now stored, or a record
 * was there (expired or not: the protocol decides what expiry means).
 *
 * `now` is the store's clock at that step, epoch ms, for a backend with a clock of its own
 * (PostgreSQL `now()`, Redis `TIME` inside a script); the protocol then decides expiry and locks by
 * it rather than by the caller's clock. Leave it out when the store has none (SQLite, memory).
 */
export type InsertOrRead =
  | {
      readonly inserted: true;
      /** The record as stored, when the backend stored something other than `fresh` (its own timestamps). */
      readonly record?: DedupRecord | undefined;
      readonly now?: number | undefined;
    }
  | {
      readonly inserted: false;
      /** The record found; `undefined` if it vanished between the backend's insert and read (the protocol tries again). */
      readonly record: DedupRecord | undefined;
      readonly now?: number | undefined;
    };

/** What a read found (expired records included), and the store's clock where it has one (see `InsertOrRead`). */
export interface RecordRead {
  readonly record: DedupRecord | undefined;
  readonly now?: number | undefined;
}

/**
 * The primitives a dedup store's backend supplies. Each is one atomic step against the store and
 * rejects (with the driver's error) when the store cannot be reached; the runner turns that into
 * `StoreUnavailableError` and does not run the effect (fail closed).
 *
 * Records are identified by `(namespace, tool, key)`: encode the three so that no two ids collide
 * (`a:b` + `c` is not `a` + `b:c`). A record to write carries times from the caller's clock; a
 * backend with a clock of its own may stamp it by that clock instead (move `updatedAt`, and
 * `expiresAt` and `lockExpiresAt` by the same amount) and then returns what it stored.
 */
export interface DedupStoreBackend {
  /** Describes the store for error messages. */
  readonly info: StoreInfo;
  /** Connect, and create or migrate the schema. Idempotent; the protocol's `ready` calls it. */
  ready(): Promise<void>;
  /**
   * Store `fresh` if its id has no record, else return the record there (expired or not), in one
   * atomic step: one round trip where the store can (the claim's fast path). Never overwrite.
   */
  insertOrRead(fresh: DedupRecord): Promise<InsertOrRead>;
  /** Read one record, expired or not. */
  read(id: RecordId): Promise<RecordRead>;
  /**
   * Replace `expected` by `next` only if the stored record is still `expected` (compare every field
   * a write can change, or the stored bytes); the reclaim of a free record. Returns the record as
   * stored, or `undefined` when someone changed it first (the protocol reads again).
   */
  swap(expected: DedupRecord, next: DedupRecord): Promise<DedupRecord | undefined>;
  /**
   * Replace the record by `next` only while `held`'s holder still holds it (`in_progress`, same
   * `owner`); how complete, release and renew write. A backend may compare the whole record
   * instead, as `swap` does (stricter, also correct). Returns the record as stored, or `undefined`
   * when the lock was lost (it lapsed and someone reclaimed it).
   */
  writeIfHeld(held: DedupRecord, next: DedupRecord): Promise<DedupRecord | undefined>;
  /**
   * Delete dedup and run records whose `expiresAt` is at or before `now` (a backend with a clock
   * of its own uses its clock instead), except dedup records whose lock is still live
   * (`isExpired`); returns how many went.
   */
  purgeExpired(now: number): Promise<number>;
  /**
   * Open a run in one atomic step: apply `mergeRun(stored, fresh)` to the run record under
   * `fresh`'s namespace and origin, store the result and return it (`created` when `fresh` was
   * stored). `fresh.createdAt` is the open's time.
   */
  upsertRun(fresh: StoredRun): Promise<RunRecord>;
  /** Release connections or file handles the backend opened itself (not ones passed in). */
  close(): Promise<void>;
}

/** Contended reads of one key before a claim gives up (each read lost a compare-and-set race). */
export const CLAIM_TRIES = 10;

/**
 * Make a `DedupStore` (what `createRunner` takes) from a backend's primitives. The protocol:
 * - `claim`: insert the fresh record if the key is free (a first call: one step), else apply
 *   `decideClaim` to what is stored (a replay, a live lock, a mismatch, an exhausted key: no
 *   write), else compare-and-set the reclaimed record, reading again if another caller changed it
 *   first. Exactly one of any number of concurrent claimers wins.
 * - `complete`, `release`, `renew`: the holder's transitions, written only while it holds the lock.
 * - `get`: a record whose `expiresAt` has passed reads as absent, unless a live lock holds it.
 * - `abandon`: give up a claim whose effect never started (compare-and-set on the owner token).
 * - `openRun`: the run record's upsert (`mergeRun`).
 *
 * Every namespace, tool name, key and run origin is checked before the backend sees it, as the
 * runner checks them, so a backend called directly cannot store one that another store would
 * keep differently.
 *
 * @throws InvalidIdentifierError (a rejection of `claim`, `get`, `abandon`, `openRun`;
 * code `invalid_identifier`) when one holds an unpaired UTF-16 surrogate or U+0000, before any read or
 * write.
 * @example
 * export function createMyStore(options: MyOptions): DedupStore {
 *   return createDedupStore(myBackend(options));
 * }
 */
export function createDedupStore(backend: DedupStoreBackend): DedupStore {
  return {
    info: backend.info,
    ready: () => backend.ready(),
    claim: (request) => claim(backend, request),
    complete: (held, request) => backend.writeIfHeld(held, completeRecord(held, request)),
    release: (held, { now, error }) => backend.writeIfHeld(held, releaseRecord(held, now, error)),
    renew: (held, { now, lockMs }) => backend.writeIfHeld(held, renewRecord(held, now, lockMs)),
    async get(id, now) {
      const read = await backend.read(checkedId(id));
      return read.record !== undefined && !isExpired(read.record, read.now ?? now) ? read.record : undefined;
    },
    async abandon(id, owner, now) {
      checkedId(id);
      for (let tries = 0; tries < CLAIM_TRIES; tries += 1) {
        const { record } = await backend.read(id);
        if (record === undefined || record.status !== 'in_progress' || record.owner !== owner) return false;
        if ((await backend.swap(record, abandonRecord(record, now))) !== undefined) return true;
      }
      return false;
    },
    purgeExpired: (now) => backend.purgeExpired(now),
    openRun: async (request) => {
      assertStorableIdentifier('namespace', request.namespace);
      assertStorableIdentifier('origin', request.origin);
      return backend.upsertRun({
        namespace: request.namespace,
        origin: request.origin,
        id: request.candidateId,
        createdAt: request.now,
        expiresAt: request.now + request.ttlMs,
      });
    },
    close: () => backend.close(),
  };
}

/** `id`, once its namespace, tool and key are known to be storable (`assertStorableIdentifier`). */
function checkedId<T extends RecordId>(id: T): T {
  assertStorableIdentifier('namespace', id.namespace);
  assertStorableIdentifier('tool', id.tool);
  assertStorableIdentifier('key', id.key);
  return id;
}

async function claim(backend: DedupStoreBackend, request: ClaimRequest): Promise<ClaimResult> {
  checkedId(request);
  const fresh = decideClaim(undefined, request).result;
  for (let tries = 0; tries < CLAIM_TRIES; tries += 1) {
    const found = await backend.insertOrRead(fresh.record);
    // (A fresh claim is `claimed`, not reclaimed: written out rather than spread, on every first call.)
    if (found.inserted) return found.record === undefined ? fresh : { outcome: 'claimed', reclaimed: false, record: found.record };
    if (found.record === undefined) continue;
    const decision = decideClaim(found.record, request, found.now ?? request.now);
    if (decision.write === 'none') return decision.result;
    const swapped = await backend.swap(found.record, decision.result.record);
    if (swapped !== undefined) return swapped === decision.result.record ? decision.result : { ...decision.result, record: swapped };
  }
  throw new Error(
    `claim on ${JSON.stringify(request.key)} did not settle after ${CLAIM_TRIES} reads (heavy contention on one key)`,
  );
}
