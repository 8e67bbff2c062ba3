/**
 * `@retrysafe/spec/stores/memory`: a dedup store that lives in one process's memory.
 *
 * For unit tests only. It is NOT durable: a restart, a crash or a second process forgets every
 * record, which is exactly when deduplication matters (the seed's audit question 4: "Is the
 * deduplication record durable, and does it outlive the run?" — here, no). Use the SQLite,
 * PostgreSQL or Redis store anywhere else.
 *
 * @module
 */
import { completeRecord, decideClaim, releaseRecord, renewRecord, stillHeld } from './claim.js';
import type {
  ClaimRequest,
  ClaimResult,
  CompleteRequest,
  DedupRecord,
  DedupStore,
  OpenRunRequest,
  RecordId,
  RunRecord,
  StoreInfo,
} from './types.js';

/** The non-durable memory store; see `createNonDurableMemoryStore`. */
export interface NonDurableMemoryStore extends DedupStore {
  /** Records currently held, expired ones included, for assertions in tests. */
  readonly size: number;
}

/**
 * Create a dedup store held in this process's memory, for unit tests only.
 *
 * Operations are atomic because they run synchronously on one event loop. After `close()` every
 * call rejects, which is how tests stand in for an unreachable store.
 *
 * @example
 * const runner = createRunner({ store: createNonDurableMemoryStore() });
 */
export function createNonDurableMemoryStore(): NonDurableMemoryStore {
  const records = new Map<string, DedupRecord>();
  const runs = new Map<string, Omit<RunRecord, 'created'>>();
  let closed = false;

  const info: StoreInfo = {
    kind: 'memory',
    location: 'process memory (not durable: unit tests only)',
    durable: false,
    checkHint: 'The non-durable memory store was closed; create a new one (and use a durable store outside unit tests).',
  };
  const open = (): void => {
    if (closed) throw new Error('the non-durable memory store is closed');
  };
  const idOf = (id: RecordId): string => JSON.stringify([id.namespace, id.tool, id.key]);
  // Copies keep callers from mutating stored state, as a real store's serialisation would.
  const copy = <T>(value: T): T => structuredClone(value);
  const swapIfHeld = (held: DedupRecord, next: (current: DedupRecord) => DedupRecord) => {
    open();
    const current = records.get(idOf(held));
    if (!stillHeld(current, held)) return undefined;
    const updated = next(current);
    records.set(idOf(held), updated);
    return copy(updated);
  };

  return {
    info,
    get size() {
      return records.size;
    },
    async ready() {
      open();
    },
    async claim(request: ClaimRequest): Promise<ClaimResult> {
      open();
      const { result, write } = decideClaim(records.get(idOf(request)), request);
      if (write !== 'none') records.set(idOf(request), result.record);
      return copy(result);
    },
    async complete(held: DedupRecord, request: CompleteRequest) {
      return swapIfHeld(held, (current) => completeRecord(current, request));
    },
    async release(held, { now, error }) {
      return swapIfHeld(held, (current) => releaseRecord(current, now, error));
    },
    async renew(held, { now, lockMs }) {
      return swapIfHeld(held, (current) => renewRecord(current, now, lockMs));
    },
    async get(id: RecordId, now: number) {
      open();
      const record = records.get(idOf(id));
      return record && record.expiresAt > now ? copy(record) : undefined;
    },
    async purgeExpired(now: number) {
      open();
      let purged = 0;
      for (const map of [records, runs] as Map<string, { expiresAt: number }>[]) {
        for (const [id, record] of map) {
          if (record.expiresAt <= now) {
            map.delete(id);
            purged += 1;
          }
        }
      }
      return purged;
    },
    async openRun(request: OpenRunRequest): Promise<RunRecord> {
      open();
      const id = JSON.stringify([request.namespace, request.origin]);
      const existing = runs.get(id);
      const live = existing !== undefined && existing.expiresAt > request.now;
      const expiresAt = Math.max(live ? existing.expiresAt : 0, request.now + request.ttlMs);
      const record = live
        ? { ...existing, expiresAt }
        : { namespace: request.namespace, origin: request.origin, id: request.candidateId, createdAt: request.now, expiresAt };
      runs.set(id, record);
      return { ...record, created: !live };
    },
    async close() {
      closed = true;
    },
  };
}
