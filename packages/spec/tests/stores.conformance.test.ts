/**
 * One conformance suite, run against every store: the same claim decisions (`decideClaim`), the
 * same atomicity under 50 concurrent claims, the same scoping, expiry and run records. PostgreSQL
 * and Redis are the real servers; an unreachable one fails the suite, it is never skipped.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ClaimRequest, DedupRecord, DedupStore } from '../src/stores/types.js';
import { openStoreFor, scaleOutStoresUnderTest, storesUnderTest } from './helpers/stores.js';

const T0 = 1_700_000_000_000;
const LOCK = 30_000;
const TTL = 86_400_000;

// These tests move time by the times they pass, so PostgreSQL and Redis run on the caller's clock
// here; their own clock is held to the same decisions in tests/faults.store-clock.test.ts.
describe.each([...storesUnderTest({ clock: 'caller' }), ...scaleOutStoresUnderTest({ clock: 'caller' })])('$name store', (subject) => {
  let store: DedupStore;
  let seq = 0;
  // A fresh key for every test: the suite shares one store (one table or prefix) per file run.
  const request = (over: Partial<ClaimRequest> = {}): ClaimRequest => ({
    namespace: 'tenant-a',
    tool: 'issue_refund',
    key: `run_1:order_${(seq += 1)}:refund`,
    fingerprint: 'f'.repeat(64),
    owner: `owner-${seq}`,
    now: T0,
    lockMs: LOCK,
    ttlMs: TTL,
    maxAttempts: 3,
    ...over,
  });
  const claimed = async (req: ClaimRequest): Promise<DedupRecord> => {
    const result = await store.claim(req);
    expect(result.outcome).toBe('claimed');
    return result.record;
  };

  // Fails every test loudly (never skips) when the backend is unreachable.
  const openStore = openStoreFor(subject, { beforeAll, afterAll });
  beforeEach(() => {
    store = openStore();
  });

  it('creates a record on the first claim, then reports it in progress, then completed', async () => {
    const req = request();
    const record = await claimed(req);
    expect(record).toMatchObject({ status: 'in_progress', attempts: 1, createdAt: T0, expiresAt: T0 + TTL, lockExpiresAt: T0 + LOCK, owner: req.owner, errors: [] });

    const second = await store.claim({ ...req, owner: 'other', now: T0 + 1 });
    expect(second.outcome).toBe('in_progress');

    const done = await store.complete(record, { now: T0 + 5, ttlMs: TTL, result: '{"refundId":"re_1"}' });
    expect(done).toMatchObject({ status: 'completed', result: '{"refundId":"re_1"}', owner: undefined, expiresAt: T0 + 5 + TTL });

    const replay = await store.claim({ ...req, owner: 'third', now: T0 + 10 });
    expect(replay).toMatchObject({ outcome: 'completed', record: { result: '{"refundId":"re_1"}', attempts: 1 } });
    expect(await store.get(req, T0 + 10)).toMatchObject({ status: 'completed', tool: 'issue_refund', key: req.key, fingerprint: req.fingerprint });
  });

  it('stores an undefined result and a result error as such', async () => {
    const a = request();
    await store.complete(await claimed(a), { now: T0, ttlMs: TTL, result: undefined });
    expect((await store.claim({ ...a, owner: 'x' })).record).toMatchObject({ status: 'completed', result: undefined, resultError: undefined });
    const b = request();
    await store.complete(await claimed(b), { now: T0, ttlMs: TTL, resultError: '$ is a Map' });
    expect((await store.claim({ ...b, owner: 'x' })).record).toMatchObject({ status: 'completed', result: undefined, resultError: '$ is a Map' });
  });

  it('reports a mismatch for a different fingerprint, in progress or completed', async () => {
    const req = request();
    const record = await claimed(req);
    expect((await store.claim({ ...req, fingerprint: 'e'.repeat(64), owner: 'x' })).outcome).toBe('mismatch');
    await store.complete(record, { now: T0, ttlMs: TTL, result: '1' });
    const after = await store.claim({ ...req, fingerprint: 'e'.repeat(64), owner: 'y' });
    expect(after).toMatchObject({ outcome: 'mismatch', record: { fingerprint: 'f'.repeat(64) } });
  });

  it('releases a failed attempt with its error, and lets the next claim take attempt 2', async () => {
    const req = request();
    const record = await claimed(req);
    const released = await store.release(record, { now: T0 + 1, error: { attempt: 1, at: T0 + 1, name: 'Error', message: 'provider 503' } });
    expect(released).toMatchObject({ status: 'in_progress', owner: undefined, lockExpiresAt: undefined });
    const retry = await store.claim({ ...req, owner: 'second', now: T0 + 2 });
    expect(retry).toMatchObject({ outcome: 'claimed', reclaimed: true, record: { attempts: 2, owner: 'second', createdAt: T0 } });
    expect(retry.record.errors).toEqual([{ attempt: 1, at: T0 + 1, name: 'Error', message: 'provider 503' }]);
  });

  it('hands out copies: changing a record it returned changes nothing it stores', async () => {
    const req = request();
    const record = await claimed(req);
    const released = await store.release(record, { now: T0 + 1, error: { attempt: 1, at: T0 + 1, name: 'Error', message: 'provider 503' } });
    const writable = released as unknown as { status: string; errors: { message: string }[] };
    writable.status = 'completed';
    (writable.errors[0] as { message: string }).message = 'changed';
    writable.errors.push({ message: 'added' });
    const again = await store.get(req, T0 + 2);
    expect(again).toMatchObject({ status: 'in_progress' });
    expect(again?.errors).toEqual([{ attempt: 1, at: T0 + 1, name: 'Error', message: 'provider 503' }]);
  });

  it('reclaims a lock that lapsed (its process died) and notes it in the history', async () => {
    const req = request();
    await claimed(req);
    expect((await store.claim({ ...req, owner: 'early', now: T0 + LOCK - 1 })).outcome).toBe('in_progress');
    const late = await store.claim({ ...req, owner: 'late', now: T0 + LOCK });
    expect(late).toMatchObject({ outcome: 'claimed', reclaimed: true, record: { attempts: 2, owner: 'late' } });
    expect(late.record.errors).toEqual([expect.objectContaining({ attempt: 1, name: 'LockExpired', at: T0 + LOCK })]);
  });

  it('issue 13.2: recognises a claim re-sent with its own owner token (its reply was lost) as its own', async () => {
    const req = request({ maxAttempts: 1 });
    await claimed(req);
    expect(await store.claim({ ...req, now: T0 + 5 })).toMatchObject({ outcome: 'claimed', reclaimed: false, record: { attempts: 1, owner: req.owner } });
    // Re-sent after its lock lapsed, with nobody else holding it: still its own, the lease renewed.
    const late = await store.claim({ ...req, now: T0 + LOCK + 1 });
    expect(late).toMatchObject({ outcome: 'claimed', record: { attempts: 1, owner: req.owner, lockExpiresAt: T0 + LOCK + 1 + LOCK } });
    expect((await store.claim({ ...req, owner: 'other', now: T0 + LOCK + 2 })).outcome).toBe('in_progress');
  });

  it('issue 13.2: abandons a claim whose effect never started, by its owner only: not an attempt', async () => {
    const req = request({ maxAttempts: 1 });
    await claimed(req);
    expect(await store.abandon?.(req, 'someone-else', T0 + 1)).toBe(false);
    expect(await store.abandon?.(req, req.owner, T0 + 1)).toBe(true);
    expect(await store.abandon?.(req, req.owner, T0 + 1)).toBe(false);
    const retry = await store.claim({ ...req, owner: 'retry', now: T0 + 2 });
    expect(retry).toMatchObject({ outcome: 'claimed', reclaimed: false, record: { attempts: 1, owner: 'retry', errors: [] } });
  });

  it('issue 13.1: a renewal keeps the record at least as long as its lock: not absent, not reclaimed, not purged', async () => {
    const req = request({ ttlMs: 60_000, lockMs: 50_000 });
    const record = await claimed(req);
    const renewed = await store.renew(record, { now: T0 + 55_000, lockMs: 50_000 });
    expect(renewed).toMatchObject({ lockExpiresAt: T0 + 105_000 });
    expect(renewed?.expiresAt).toBeGreaterThanOrEqual(T0 + 105_000);
    expect(await store.get(req, T0 + 70_000)).toMatchObject({ owner: req.owner });
    expect((await store.claim({ ...req, owner: 'second', now: T0 + 70_000 })).outcome).toBe('in_progress');
    await store.purgeExpired(T0 + 70_000);
    expect(await store.get(req, T0 + 70_000)).toMatchObject({ owner: req.owner });
  });

  it('refuses a claim past max attempts, counted in the record', async () => {
    const req = request({ maxAttempts: 2 });
    const error = (attempt: number) => ({ attempt, at: T0, name: 'Error', message: `fail ${attempt}` });
    await store.release(await claimed(req), { now: T0, error: error(1) });
    await store.release(await claimed({ ...req, owner: 'b' }), { now: T0, error: error(2) });
    const third = await store.claim({ ...req, owner: 'c' });
    expect(third).toMatchObject({ outcome: 'exhausted', record: { attempts: 2 } });
    expect(third.record.errors.map((e) => e.message)).toEqual(['fail 1', 'fail 2']);
  });

  it('lets only the current holder complete, release or renew', async () => {
    const req = request();
    const stale = await claimed(req);
    const current = await claimed({ ...req, owner: 'new-holder', now: T0 + LOCK + 1 });
    expect(await store.complete(stale, { now: T0 + LOCK + 2, ttlMs: TTL, result: '"late"' })).toBeUndefined();
    expect(await store.release(stale, { now: T0 + LOCK + 2, error: { attempt: 1, at: 0, name: 'E', message: 'm' } })).toBeUndefined();
    expect(await store.renew(stale, { now: T0 + LOCK + 2, lockMs: LOCK })).toBeUndefined();
    const renewed = await store.renew(current, { now: T0 + LOCK + 5, lockMs: LOCK });
    expect(renewed).toMatchObject({ owner: 'new-holder', lockExpiresAt: T0 + LOCK + 5 + LOCK });
    expect(await store.complete(renewed as DedupRecord, { now: T0 + LOCK + 6, ttlMs: TTL, result: '"ok"' })).toMatchObject({ status: 'completed', result: '"ok"' });
  });

  it('treats an expired record as absent, and purges it', async () => {
    // A TTL of a minute: Redis also expires keys on its own clock (PX), so a TTL shorter than the
    // test's real run time would let Redis remove the record before the store's clock says so.
    const ttlMs = 60_000;
    const req = request({ ttlMs, lockMs: 500 });
    const record = await claimed(req);
    await store.complete(record, { now: T0 + 10, ttlMs, result: '"old"' });
    expect(await store.get(req, T0 + ttlMs + 9)).toBeDefined();
    expect(await store.get(req, T0 + ttlMs + 10)).toBeUndefined();
    const fresh = await store.claim({ ...req, fingerprint: 'e'.repeat(64), owner: 'later', now: T0 + ttlMs + 10 });
    expect(fresh).toMatchObject({ outcome: 'claimed', reclaimed: false, record: { attempts: 1, errors: [], createdAt: T0 + ttlMs + 10 } });

    const other = request({ ttlMs, lockMs: 500 });
    await claimed(other);
    expect(await store.purgeExpired(T0 + ttlMs)).toBeGreaterThanOrEqual(1);
    expect(await store.get(other, T0)).toBeUndefined();
  });

  it('scopes records by namespace and tool', async () => {
    const req = request();
    await store.complete(await claimed(req), { now: T0, ttlMs: TTL, result: '"tenant a"' });
    expect((await store.claim({ ...req, namespace: 'tenant-b', owner: 'b' })).outcome).toBe('claimed');
    expect((await store.claim({ ...req, tool: 'send_email', owner: 'c' })).outcome).toBe('claimed');
    // Separators inside the parts cannot make two scopes collide.
    const tricky = request({ namespace: 'a:b', tool: 'c' });
    await claimed(tricky);
    expect((await store.claim({ ...tricky, namespace: 'a', tool: 'b:c', owner: 'd' })).outcome).toBe('claimed');
  });

  it('gives exactly one of 50 concurrent claims the lock', async () => {
    const req = request();
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => store.claim({ ...req, owner: `c${i}` })));
    expect(results.filter((r) => r.outcome === 'claimed')).toHaveLength(1);
    expect(results.filter((r) => r.outcome === 'in_progress')).toHaveLength(49);
  });

  it('gives exactly one of 50 concurrent reclaims of a lapsed lock the lock', async () => {
    const req = request();
    await claimed(req);
    const later = T0 + LOCK + 1;
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => store.claim({ ...req, owner: `r${i}`, now: later })));
    expect(results.filter((r) => r.outcome === 'claimed')).toHaveLength(1);
    expect(results.filter((r) => r.outcome === 'in_progress')).toHaveLength(49);
  });

  it('keeps the last 20 errors, messages cut at 1000 characters', async () => {
    const req = request({ maxAttempts: 30 });
    for (let attempt = 1; attempt <= 22; attempt += 1) {
      const record = await claimed({ ...req, owner: `o${attempt}` });
      await store.release(record, { now: T0, error: { attempt, at: T0, name: 'Error', message: 'x'.repeat(1500) } });
    }
    const record = await store.get(req, T0);
    expect(record?.errors).toHaveLength(20);
    expect(record?.errors[0]?.attempt).toBe(3);
    expect(record?.errors[0]?.message.length).toBe(1000);
  });

  it('creates a run record once and loads it on every later open', async () => {
    const origin = `job:${seq += 1}`;
    const first = await store.openRun({ namespace: '', origin, candidateId: 'run_a', now: T0, ttlMs: TTL });
    expect(first).toMatchObject({ id: 'run_a', created: true, createdAt: T0, expiresAt: T0 + TTL });
    const again = await store.openRun({ namespace: '', origin, candidateId: 'run_b', now: T0 + 100, ttlMs: TTL });
    expect(again).toMatchObject({ id: 'run_a', created: false, createdAt: T0, expiresAt: T0 + 100 + TTL });
    const otherTenant = await store.openRun({ namespace: 't2', origin, candidateId: 'run_c', now: T0, ttlMs: TTL });
    expect(otherTenant).toMatchObject({ id: 'run_c', created: true });
    const concurrent = await Promise.all(
      Array.from({ length: 20 }, (_, i) => store.openRun({ namespace: '', origin: `${origin}:x`, candidateId: `run_${i}`, now: T0, ttlMs: TTL })),
    );
    expect(new Set(concurrent.map((r) => r.id)).size).toBe(1);
    expect(concurrent.filter((r) => r.created)).toHaveLength(1);
    const expired = await store.openRun({ namespace: '', origin, candidateId: 'run_d', now: T0 + 100 + TTL, ttlMs: TTL });
    expect(expired).toMatchObject({ id: 'run_d', created: true });
  });

  it('rejects every call when the backend cannot be reached', async () => {
    const down = subject.unreachable();
    await expect(down.ready()).rejects.toThrow();
    await expect(down.claim(request())).rejects.toThrow();
    await down.close();
  });
});

describe('store modules', () => {
  // A user installs only the driver they use: each store imports its own driver and nothing else,
  // and the main entry imports none (drivers are optional peer dependencies).
  const drivers = ['better-sqlite3', 'pg', 'ioredis'];
  const importsOf = (file: string): string[] => {
    const source = readFileSync(new URL(`../src/${file}`, import.meta.url), 'utf8');
    return [...source.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/gm)].map((m) => m[1] as string);
  };
  const reachable = (file: string, seen = new Set<string>()): Set<string> => {
    for (const specifier of importsOf(file)) {
      if (specifier.startsWith('.')) {
        const next = join(dirname(file), specifier).replace(/\.js$/, '.ts');
        if (!seen.has(next)) {
          seen.add(next);
          reachable(next, seen);
        }
      } else seen.add(specifier);
    }
    return seen;
  };
  it.each([
    ['stores/sqlite.ts', 'better-sqlite3'],
    ['stores/postgres.ts', 'pg'],
    ['stores/redis.ts', 'ioredis'],
    ['stores/memory.ts', undefined],
    ['stores/protocol.ts', undefined],
    ['index.ts', undefined],
    ['testing.ts', undefined],
  ])('%s loads only its own driver', (file, own) => {
    const packages = [...reachable(file)].filter((s) => drivers.includes(s));
    expect(packages).toEqual(own ? [own] : []);
  });
});
