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
import { createDedupStore, isExpired, mergeRun, stillHeld, type DedupStoreBackend } from './protocol.js';
import type { DedupRecord, DedupStore, RecordId, StoredRun } from './types.js';

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
 * import { createRunner } from '@retrysafe/spec';
 * import { createNonDurableMemoryStore } from '@retrysafe/spec/stores/memory';
 *
 * const runner = createRunner({ store: createNonDurableMemoryStore() });
 */
export function createNonDurableMemoryStore(): NonDurableMemoryStore {
  const records = new RecordTable();
  const store = createDedupStore(memoryBackend(records));
  return {
    ...store,
    get size() {
      return records.size;
    },
  };
}

function memoryBackend(records: RecordTable): DedupStoreBackend {
  const runs = new Map<string, StoredRun>();
  let closed = false;
  const open = (): void => {
    if (closed) throw new Error('the non-durable memory store is closed');
  };
  // Copies keep callers from mutating stored state, as a real store's serialisation would.
  const copyOf = copyRecord;
  const replace = (next: DedupRecord): DedupRecord => {
    records.set(next);
    return copyOf(next);
  };

  return {
    info: {
      kind: 'memory',
      location: 'process memory (not durable: unit tests only)',
      durable: false,
      checkHint: 'The non-durable memory store was closed; create a new one (and use a durable store outside unit tests).',
    },
    async ready() {
      open();
    },
    async insertOrRead(fresh) {
      open();
      const existing = records.get(fresh);
      if (existing !== undefined) return { inserted: false, record: copyOf(existing) };
      records.set(copyOf(fresh));
      return { inserted: true };
    },
    async read(id) {
      open();
      const record = records.get(id);
      return { record: record && copyOf(record) };
    },
    async swap(expected, next) {
      open();
      const current = records.get(expected);
      return current !== undefined && sameVersion(current, expected) ? replace(next) : undefined;
    },
    async writeIfHeld(held, next) {
      open();
      return stillHeld(records.get(held), held) ? replace(next) : undefined;
    },
    async purgeExpired(now) {
      open();
      let purged = records.deleteExpired(now);
      for (const [id, run] of runs) {
        if (isExpired(run, now)) {
          runs.delete(id);
          purged += 1;
        }
      }
      return purged;
    },
    async upsertRun(fresh) {
      open();
      const id = JSON.stringify([fresh.namespace, fresh.origin]);
      const run = mergeRun(runs.get(id), fresh);
      runs.set(id, { namespace: run.namespace, origin: run.origin, id: run.id, createdAt: run.createdAt, expiresAt: run.expiresAt });
      return run;
    },
    async close() {
      closed = true;
    },
  };
}

/**
 * Dedup records by namespace, then tool, then key: an operation builds no id string (an id of the
 * three as one JSON text per lookup was a tenth of a first call on this store), and each part's
 * hash is kept in its string, which the runner passes along unchanged through a call.
 */
class RecordTable {
  readonly #byNamespace = new Map<string, Map<string, Map<string, DedupRecord>>>();
  #size = 0;

  /** Records held, expired ones included. */
  get size(): number {
    return this.#size;
  }

  get(id: RecordId): DedupRecord | undefined {
    return this.#byNamespace.get(id.namespace)?.get(id.tool)?.get(id.key);
  }

  /** Stores `record` under its own id, replacing the one there. */
  set(record: DedupRecord): void {
    let byTool = this.#byNamespace.get(record.namespace);
    if (byTool === undefined) this.#byNamespace.set(record.namespace, (byTool = new Map()));
    let byKey = byTool.get(record.tool);
    if (byKey === undefined) byTool.set(record.tool, (byKey = new Map()));
    const before = byKey.size;
    byKey.set(record.key, record);
    this.#size += byKey.size - before;
  }

  /** Deletes the records that read as absent at `now` (`isExpired`); returns how many went. */
  deleteExpired(now: number): number {
    let purged = 0;
    for (const byTool of this.#byNamespace.values()) {
      for (const byKey of byTool.values()) {
        for (const [key, record] of byKey) {
          if (isExpired(record, now)) {
            byKey.delete(key);
            purged += 1;
          }
        }
      }
    }
    this.#size -= purged;
    return purged;
  }
}

/**
 * A deep copy of a record, field by field: what `structuredClone` gives for a record (its fields
 * are strings, numbers and the error history's plain objects) at a fraction of its cost, which was
 * the largest single item of a first call on this store (`node --cpu-prof`, bench/runner-instructions.mjs).
 */
function copyRecord(r: DedupRecord): DedupRecord {
  return {
    namespace: r.namespace,
    tool: r.tool,
    key: r.key,
    fingerprint: r.fingerprint,
    status: r.status,
    result: r.result,
    resultError: r.resultError,
    errors: r.errors.map(({ attempt, at, name, message }) => ({ attempt, at, name, message })),
    attempts: r.attempts,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    expiresAt: r.expiresAt,
    lockExpiresAt: r.lockExpiresAt,
    owner: r.owner,
  };
}

/** True when no write came between `a` and `b`: every field a write changes is the same. */
function sameVersion(a: DedupRecord, b: DedupRecord): boolean {
  return (
    a.status === b.status &&
    a.fingerprint === b.fingerprint &&
    a.attempts === b.attempts &&
    a.updatedAt === b.updatedAt &&
    a.expiresAt === b.expiresAt &&
    a.lockExpiresAt === b.lockExpiresAt &&
    a.owner === b.owner
  );
}
