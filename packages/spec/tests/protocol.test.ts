/**
 * The store protocol itself (`createDedupStore`), on a backend small enough to read in the test:
 * what it does with what a backend reports beyond the records. Every store in the package is
 * judged by the conformance suite; this covers the parts of the contract none of them uses yet.
 */
import { describe, expect, it } from 'vitest';
import { createDedupStore, mergeRun, stillHeld, type DedupStoreBackend } from '../src/stores/protocol.js';
import type { ClaimRequest, DedupRecord, StoredRun } from '../src/stores/types.js';

const T0 = 1_700_000_000_000;
const LOCK = 30_000;
const TTL = 86_400_000;

/** A backend over a Map whose store has a clock of its own, `clock.now`, and stamps writes by it. */
function clockedBackend(clock: { now: number }): DedupStoreBackend {
  const records = new Map<string, DedupRecord>();
  const runs = new Map<string, StoredRun>();
  const id = (r: { namespace: string; tool: string; key: string }) => `${r.namespace}\u0000${r.tool}\u0000${r.key}`;
  const stamp = (r: DedupRecord): DedupRecord => {
    const shift = clock.now - r.updatedAt;
    return {
      ...r,
      updatedAt: clock.now,
      expiresAt: r.expiresAt + shift,
      lockExpiresAt: r.lockExpiresAt === undefined ? undefined : r.lockExpiresAt + shift,
    };
  };
  const put = (r: DedupRecord) => {
    const stored = stamp(r);
    records.set(id(stored), stored);
    return stored;
  };
  return {
    info: { kind: 'clocked-map', location: 'test', durable: false, checkHint: '' },
    ready: async () => {},
    async insertOrRead(fresh) {
      const existing = records.get(id(fresh));
      return existing ? { inserted: false, record: existing, now: clock.now } : { inserted: true, record: put(fresh), now: clock.now };
    },
    read: async (key) => ({ record: records.get(id(key)), now: clock.now }),
    swap: async (expected, next) => (records.get(id(expected)) === expected ? put(next) : undefined),
    writeIfHeld: async (held, next) => (stillHeld(records.get(id(held)), held) ? put(next) : undefined),
    purgeExpired: async () => 0,
    async upsertRun(fresh) {
      const run = mergeRun(runs.get(fresh.origin), fresh);
      runs.set(fresh.origin, run);
      return run;
    },
    close: async () => {},
  };
}

const request = (over: Partial<ClaimRequest> = {}): ClaimRequest => ({
  namespace: '',
  tool: 'issue_refund',
  key: 'run_1:o_1:refund',
  fingerprint: 'f'.repeat(64),
  owner: 'first',
  now: T0,
  lockMs: LOCK,
  ttlMs: TTL,
  maxAttempts: 3,
  ...over,
});

describe('createDedupStore with a backend that reports its clock', () => {
  it('decides a lock by the store’s clock, not a caller’s clock that runs ahead', async () => {
    const clock = { now: T0 };
    const store = createDedupStore(clockedBackend(clock));
    await store.claim(request());
    clock.now = T0 + 1_000;
    // This caller's clock is a lock's length ahead: by it the lock lapsed, by the store's it did not.
    const early = await store.claim(request({ owner: 'second', now: T0 + LOCK + 1_000 }));
    expect(early.outcome).toBe('in_progress');
    clock.now = T0 + LOCK;
    const late = await store.claim(request({ owner: 'third', now: T0 }));
    expect(late).toMatchObject({ outcome: 'claimed', reclaimed: true, record: { owner: 'third', attempts: 2, lockExpiresAt: T0 + LOCK + LOCK } });
  });

  it('hands back the record as the backend stored it, stamped by its clock', async () => {
    const clock = { now: T0 + 500 };
    const store = createDedupStore(clockedBackend(clock));
    const claimed = await store.claim(request());
    expect(claimed.record).toMatchObject({ updatedAt: T0 + 500, lockExpiresAt: T0 + 500 + LOCK });
    clock.now = T0 + 900;
    const completed = await store.complete(claimed.record, { now: T0, ttlMs: TTL, result: '1' });
    expect(completed).toMatchObject({ status: 'completed', updatedAt: T0 + 900, expiresAt: T0 + 900 + TTL });
  });

  it('reads a record as expired by the store’s clock', async () => {
    const clock = { now: T0 };
    const store = createDedupStore(clockedBackend(clock));
    await store.claim(request());
    clock.now = T0 + TTL;
    expect(await store.get(request(), T0)).toBeUndefined();
    clock.now = T0 + TTL - 1;
    expect(await store.get(request(), T0 + TTL + 5)).toMatchObject({ owner: 'first' });
  });
});

describe('createDedupStore checks identifiers before the backend sees them', () => {
  /** The clocked backend, counting every call that reaches it. */
  function countingStore() {
    const backend = clockedBackend({ now: T0 });
    let reached = 0;
    const counted = Object.fromEntries(
      Object.entries(backend).map(([name, value]) =>
        typeof value === 'function' ? [name, (...args: unknown[]) => ((reached += 1), (value as (...a: unknown[]) => unknown)(...args))] : [name, value],
      ),
    ) as unknown as DedupStoreBackend;
    return { store: createDedupStore(counted), reached: () => reached };
  }

  it.each([
    ['key', { key: 'run_1:\uD800:refund' }],
    ['tool', { tool: 'refund\u0000' }],
    ['namespace', { namespace: 'tenant\uDC00' }],
  ] as const)('a %s the stores cannot hold exactly: claim, get and abandon reject with InvalidIdentifierError, nothing reaches the backend', async (field, over) => {
    const { store, reached } = countingStore();
    for (const attempt of [
      () => store.claim(request(over)),
      () => store.get(request(over), T0),
      () => store.abandon!(request(over), 'first', T0),
    ]) {
      await expect(attempt()).rejects.toMatchObject({ name: 'InvalidIdentifierError', code: 'invalid_identifier', field });
    }
    expect(reached()).toBe(0);
  });

  it('a run origin or namespace it cannot hold: openRun rejects before the backend; a storable one is opened', async () => {
    const { store, reached } = countingStore();
    const open = (over: { namespace?: string; origin?: string }) =>
      store.openRun({ namespace: '', origin: 'thread_1', candidateId: 'run_1', now: T0, ttlMs: TTL, ...over });
    await expect(open({ origin: 'thread\uD800' })).rejects.toMatchObject({ name: 'InvalidIdentifierError', field: 'origin' });
    await expect(open({ namespace: '\u0000' })).rejects.toMatchObject({ name: 'InvalidIdentifierError', field: 'namespace' });
    expect(reached()).toBe(0);
    await expect(open({})).resolves.toMatchObject({ id: 'run_1' });
    expect(reached()).toBe(1);
  });
});
