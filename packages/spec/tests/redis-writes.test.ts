/**
 * What the Redis store sends (issue 15, item 3): a holder's write names the holder by its owner
 * token instead of resending the record it last saw, and it still refuses a holder that lost its
 * lock or already finished, even when a result's text looks like an owner field; the commands of
 * concurrent calls leave in coalesced socket writes, one effect per key all the same.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRunner } from '../src/runner.js';
import { createRedisStore } from '../src/stores/redis.js';
import type { ClaimRequest, DedupRecord, DedupStore } from '../src/stores/types.js';
import { memoryProvider } from './helpers/provider.js';
import { REDIS_URL, RUN_TAG } from './helpers/stores.js';
import { freshRun, refundTool } from './helpers/tools.js';

const T0 = 1_700_000_000_000;
const LOCK = 30_000;
const TTL = 86_400_000;
const prefix = `rs_t:${RUN_TAG}:writes:`;

/** Counts the socket writes (`_write` and `_writev`) and the commands a client sends. */
function countWrites(client: Redis) {
  const counts = { writes: 0, commands: 0 };
  const stream = client.stream as unknown as { _write: (...a: unknown[]) => void; _writev?: (...a: unknown[]) => void };
  const write = stream._write.bind(stream);
  stream._write = (...a) => ((counts.writes += 1), write(...a));
  if (stream._writev) {
    const writev = stream._writev.bind(stream);
    stream._writev = (...a) => ((counts.writes += 1), writev(...a));
  }
  const send = client.sendCommand.bind(client);
  client.sendCommand = ((...a: Parameters<Redis['sendCommand']>) => ((counts.commands += 1), send(...a))) as Redis['sendCommand'];
  return counts;
}

/** Records every command `client` sends, name and arguments as text; `stop` puts the client back. */
function recordSends(client: Redis) {
  const sent: string[][] = [];
  const send = client.sendCommand.bind(client);
  client.sendCommand = ((command: { name: string; args: unknown[] }, ...rest: unknown[]) => {
    sent.push([command.name, ...command.args.map(String)]);
    return (send as (...a: unknown[]) => unknown)(command, ...rest);
  }) as Redis['sendCommand'];
  return { sent, stop: () => void (client.sendCommand = send) };
}

describe('the Redis store on the wire', () => {
  let client: Redis;
  beforeAll(async () => {
    client = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    await client.ping();
  });
  afterAll(async () => {
    const keys = await client.keys(`${prefix}*`);
    if (keys.length > 0) await client.del(...keys);
    await client.quit();
  });

  let seq = 0;
  const request = (store: DedupStore, over: Partial<ClaimRequest> = {}) =>
    store.claim({ namespace: 't', tool: 'issue_refund', key: `k_${(seq += 1)}`, fingerprint: 'f'.repeat(64), owner: 'tok', now: T0, lockMs: LOCK, ttlMs: TTL, maxAttempts: 3, ...over });

  it('refuses a finished holder, even when its result ends like an owner field', async () => {
    const store = createRedisStore({ client, keyPrefix: prefix, clock: 'caller', allowVolatile: true }); // the test moves time
    const claim = await request(store);
    expect(claim.outcome).toBe('claimed');
    const held = claim.record;
    const lookalike = JSON.stringify({ note: ',"owner":"tok"}' }) + ',"owner":"tok"}';
    const done = await store.complete(held, { now: T0 + 1, ttlMs: TTL, result: lookalike });
    expect(done).toMatchObject({ status: 'completed', owner: undefined });
    // The same holder again: its token is gone from the record, so every write is refused.
    expect(await store.complete(held, { now: T0 + 2, ttlMs: TTL, result: '"second"' })).toBeUndefined();
    expect(await store.renew(held, { now: T0 + 2, lockMs: LOCK })).toBeUndefined();
    expect(await store.release(held, { now: T0 + 2, error: { attempt: 1, at: T0, name: 'E', message: 'm' } })).toBeUndefined();
    expect(await store.get(held, T0 + 3)).toMatchObject({ status: 'completed', result: lookalike });
  });

  it('refuses a holder whose lock lapsed and was reclaimed, after its own renewals too', async () => {
    const store = createRedisStore({ client, keyPrefix: prefix, clock: 'caller', allowVolatile: true }); // the test moves time
    const first = (await request(store, { maxAttempts: 3 })).record;
    const renewed = (await store.renew(first, { now: T0 + 10, lockMs: LOCK })) as DedupRecord;
    expect(renewed.owner).toBe('tok');
    const taken = await store.claim({ ...first, fingerprint: first.fingerprint, owner: 'tok-2', now: T0 + 10 + LOCK + 1, lockMs: LOCK, ttlMs: TTL, maxAttempts: 3 });
    expect(taken.outcome).toBe('claimed');
    for (const stale of [first, renewed]) {
      expect(await store.complete(stale, { now: T0 + LOCK + 20, ttlMs: TTL, result: '"late"' })).toBeUndefined();
    }
    expect(await store.get(first, T0 + LOCK + 21)).toMatchObject({ status: 'in_progress', owner: 'tok-2', attempts: 2 });
  });

  it('writes a held record only through the store instance that holds it (another prefix has no such record)', async () => {
    // The store's clock: the held record carries its clock anchor and its key, which are this store's only.
    const a = createRedisStore({ client, keyPrefix: `${prefix}a:`, allowVolatile: true });
    const b = createRedisStore({ client, keyPrefix: `${prefix}b:`, allowVolatile: true });
    const held = (await request(a)).record;
    expect(await b.complete(held, { now: T0 + 1, ttlMs: TTL, result: '"through b"' })).toBeUndefined();
    expect(await b.renew(held, { now: T0 + 1, lockMs: LOCK })).toBeUndefined();
    expect(await a.get(held, T0 + 2)).toMatchObject({ status: 'in_progress', owner: 'tok' });
    expect(await a.complete(held, { now: T0 + 3, ttlMs: TTL, result: '"through a"' })).toMatchObject({ status: 'completed', result: '"through a"' });
    await Promise.all([a.close(), b.close()]);
  });

  it('stores each record as JSON.stringify writes it, times first (the encoding is written by hand)', async () => {
    const store = createRedisStore({ client, keyPrefix: prefix, clock: 'caller', allowVolatile: true }); // the test moves time
    const { sent, stop } = recordSends(client);
    try {
      const claimed = (await request(store)).record;
      const failed = { attempt: 1, at: T0 + 1, name: 'TypeError', message: 'quote " backslash \\ é 😀 \u2028' };
      const released = (await store.release(claimed, { now: T0 + 1, error: failed })) as DedupRecord;
      const again = await store.claim({ ...released, owner: 'tok-2', now: T0 + 2, lockMs: LOCK, ttlMs: TTL, maxAttempts: 3 });
      expect(again.outcome).toBe('claimed');
      await store.complete(again.record, { now: T0 + 3, ttlMs: TTL, result: JSON.stringify({ note: 'a "b" \\ c' }), resultError: '$.x is a Map' });
    } finally {
      stop();
    }
    const records = sent.flatMap((command) => command.slice(1)).filter((arg) => arg.startsWith('{"createdAt":'));
    // claim, release, reclaim (expected and next), completion: with and without owner, result, errors.
    expect(records.length).toBeGreaterThanOrEqual(4);
    expect(records.some((text) => text.includes('"owner"'))).toBe(true);
    expect(records.some((text) => !text.includes('"owner"') && text.includes('"resultError"'))).toBe(true);
    for (const text of records) {
      const parsed = JSON.parse(text) as Record<string, unknown>;
      expect(text).toBe(JSON.stringify(parsed));
      expect(Object.keys(parsed).slice(0, 4)).toEqual(['createdAt', 'updatedAt', 'expiresAt', 'lockExpiresAt']);
    }
  });

  it('sends a holder write of about the size of the new record (no copy of the old one)', async () => {
    const store = createRedisStore({ client, keyPrefix: prefix, clock: 'caller', allowVolatile: true }); // the test moves time
    const held = (await request(store)).record;
    const { sent, stop } = recordSends(client);
    try {
      await store.complete(held, { now: T0 + 1, ttlMs: TTL, result: '{"refundId":"re_1"}' });
    } finally {
      stop();
    }
    const write = sent.find(([name]) => name === 'evalsha' || name === 'eval') as string[];
    const record = write.find((arg) => arg.startsWith('{')) as string;
    const bytes = write.slice(1).reduce((n, arg) => n + Buffer.byteLength(arg), 0);
    expect(bytes - Buffer.byteLength(record)).toBeLessThan(160); // sha, key, token, PX: not a second record
  });

  const runConcurrent = async (calls: number, coalesceWrites: boolean) => {
    const own = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    await own.ping();
    const counts = countWrites(own);
    const store = createRedisStore({ client: own, keyPrefix: prefix, coalesceWrites, allowVolatile: true });
    const provider = memoryProvider({ dedupeByKey: false });
    const runner = createRunner({ store, purgeEveryMs: 0 });
    const run = freshRun();
    const inputs = Array.from({ length: calls }, (_, i) => ({ orderId: `c_${calls}_${coalesceWrites}_${i}`, amountCents: 100 }));
    const first = await Promise.all(inputs.map((input) => runner.call(refundTool(provider), input, { run })));
    const second = await Promise.all(inputs.map((input) => runner.call(refundTool(provider), input, { run })));
    await own.quit();
    return { counts, effects: provider.effects(), replays: second.filter((r) => r.replayed).length, ran: first.filter((r) => !r.replayed).length };
  };

  it('coalesces the commands of 32 concurrent calls into fewer socket writes; called twice, one effect per key', async () => {
    const plain = await runConcurrent(32, false);
    const coalesced = await runConcurrent(32, true);
    for (const outcome of [plain, coalesced]) expect(outcome).toMatchObject({ effects: 32, replays: 32, ran: 32 });
    expect(plain.counts.writes).toBeGreaterThanOrEqual(plain.counts.commands - 1);
    expect(coalesced.counts.commands).toBe(plain.counts.commands);
    // The first 8 of a burst leave alone (the server starts on them), the rest of the tick together.
    expect(coalesced.counts.writes).toBeLessThan(plain.counts.writes * 0.75);
  });

  it('writes each command at once while fewer than 8 await replies, so the server is never left idle; called twice, one effect per key', async () => {
    // 4 concurrent calls never have 8 commands in flight: corking them would make the server wait
    // for the client's whole tick (docs/performance.md section 2).
    const few = await runConcurrent(4, true);
    expect(few).toMatchObject({ effects: 4, replays: 4, ran: 4 });
    expect(few.counts.writes).toBeGreaterThanOrEqual(few.counts.commands - 1);
  });

  describe('the claim as one plain command, judged by the server clock (clock: store)', () => {
    const sendsOf = (own: Redis) => {
      const sent: string[] = [];
      const send = own.sendCommand.bind(own);
      own.sendCommand = ((command: { name: string }, ...rest: unknown[]) => (sent.push(command.name), (send as (...a: unknown[]) => unknown)(command, ...rest))) as Redis['sendCommand'];
      return sent;
    };
    const claimOf = (store: DedupStore, key: string, over: Partial<ClaimRequest> = {}) =>
      store.claim({ namespace: 't', tool: 'issue_refund', key, fingerprint: 'f'.repeat(64), owner: 'tok', now: Date.now(), lockMs: LOCK, ttlMs: TTL, maxAttempts: 3, ...over });

    it('a first call is SET NX PX GET and the holder script; a replay is one SET NX PX GET; called twice, one effect', async () => {
      const own = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
      const store = createRedisStore({ client: own, keyPrefix: prefix, allowVolatile: true });
      await store.ready();
      const sent = sendsOf(own);
      const provider = memoryProvider({ dedupeByKey: false });
      const runner = createRunner({ store, purgeEveryMs: 0 });
      const run = freshRun();
      const input = { orderId: `plain_${RUN_TAG}`, amountCents: 100 };
      expect(await runner.call(refundTool(provider), input, { run })).toMatchObject({ replayed: false });
      const first = sent.splice(0);
      expect(await runner.call(refundTool(provider), input, { run })).toMatchObject({ replayed: true });
      expect(provider.effects()).toBe(1);
      expect(first).toEqual(['set', 'evalsha']);
      expect(sent).toEqual(['set']);
      await own.quit();
    });

    it('refuses a holder whose lock lapsed by the server clock and was reclaimed, even when the reclaimer\'s clock is years behind', async () => {
      const store = createRedisStore({ client, keyPrefix: prefix, allowVolatile: true });
      const key = `lapse_${(seq += 1)}`;
      const held = await claimOf(store, key, { lockMs: 600 });
      expect(held.outcome).toBe('claimed');
      // Live by the server clock: a caller far ahead is refused, not given the key.
      expect((await claimOf(store, key, { owner: 'tok-ahead', now: Date.now() + 10 * TTL, lockMs: 600 })).outcome).toBe('in_progress');
      await new Promise((resolve) => setTimeout(resolve, 700));
      const taken = await claimOf(store, key, { owner: 'tok-2', now: T0, lockMs: LOCK });
      expect(taken).toMatchObject({ outcome: 'claimed', reclaimed: true, record: { owner: 'tok-2', attempts: 2 } });
      expect(await store.complete(held.record, { now: Date.now(), ttlMs: TTL, result: '"late"' })).toBeUndefined();
      expect(await store.renew(held.record, { now: Date.now(), lockMs: LOCK })).toBeUndefined();
      const done = await store.complete(taken.record, { now: T0, ttlMs: TTL, result: '"second"' });
      expect(done).toMatchObject({ status: 'completed', result: '"second"', owner: undefined });
      // Completed, and live by the server clock: replayed for callers years ahead or behind.
      for (const now of [T0, Date.now() + 100 * TTL]) expect((await claimOf(store, key, { owner: 'tok-3', now })).outcome).toBe('completed');
    });

    it('judges a record by its key\'s PX whatever clock stamped its times: locks, expiry and the sweep', async () => {
      // A record stamped three years behind (a store on the caller's clock wrote it), its lock 600 ms.
      const behind = createRedisStore({ client, keyPrefix: prefix, clock: 'caller', allowVolatile: true });
      const store = createRedisStore({ client, keyPrefix: prefix, allowVolatile: true });
      const key = `frame_${(seq += 1)}`;
      expect((await claimOf(behind, key, { now: T0, lockMs: 600, ttlMs: 1500 })).outcome).toBe('claimed');
      // By its times it expired long ago; by the server clock it is live and locked.
      expect(await store.get({ namespace: 't', tool: 'issue_refund', key }, Date.now())).toMatchObject({ status: 'in_progress', owner: 'tok' });
      expect((await claimOf(store, key, { owner: 'tok-2' })).outcome).toBe('in_progress');
      expect(await store.purgeExpired(Date.now() + 10 * TTL)).toBe(0);
      expect(await client.exists(`${prefix}dedup:{t:issue_refund:${key}}`)).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 700));
      // Its lock lapsed by the server clock (its TTL has not): reclaimed, as attempt 2.
      const taken = await claimOf(store, key, { owner: 'tok-2', ttlMs: 1500, lockMs: 600 });
      expect(taken).toMatchObject({ outcome: 'claimed', reclaimed: true, record: { attempts: 2 } });
      await store.release(taken.record, { now: Date.now(), error: { attempt: 2, at: Date.now(), name: 'E', message: 'm' } });
      await new Promise((resolve) => setTimeout(resolve, 1600));
      // Its TTL passed by the server clock: absent, and a new claim starts over at attempt 1.
      expect(await store.get({ namespace: 't', tool: 'issue_refund', key }, T0)).toBeUndefined();
      expect(await claimOf(store, key, { owner: 'tok-3', now: T0 })).toMatchObject({ outcome: 'claimed', reclaimed: false, record: { attempts: 1 } });
    });

    it('stamps the holder\'s writes in the record\'s frame on the client and sends their PX: no PTTL read, a caller years off changes nothing', async () => {
      const own = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
      const store = createRedisStore({ client: own, keyPrefix: prefix, allowVolatile: true });
      const key = `held_${(seq += 1)}`;
      const redisKey = `${prefix}dedup:{t:issue_refund:${key}}`;
      const serverMs = async () => {
        const [seconds, micros] = await client.time();
        return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
      };
      const held = (await claimOf(store, key, { now: T0 })).record;
      const { sent, stop } = recordSends(own);
      // A renewal from a caller three years behind: the lock and the key's PX follow the frame.
      const renewed = (await store.renew(held, { now: T0 + 5, lockMs: LOCK })) as DedupRecord;
      expect(Math.abs(renewed.updatedAt - (await serverMs()))).toBeLessThan(5_000);
      expect(renewed).toMatchObject({ createdAt: held.createdAt, expiresAt: held.expiresAt, lockExpiresAt: renewed.updatedAt + LOCK, owner: 'tok' });
      expect(Math.abs((await own.pttl(redisKey)) - (held.expiresAt - renewed.updatedAt))).toBeLessThan(1_000);
      // A completion from a caller ten TTLs ahead: stamped in the same frame, PX its TTL.
      const done = (await store.complete(renewed, { now: Date.now() + 10 * TTL, ttlMs: TTL, result: '"ok"' })) as DedupRecord;
      expect(Math.abs(done.updatedAt - (await serverMs()))).toBeLessThan(5_000);
      expect(done).toMatchObject({ createdAt: held.createdAt, expiresAt: done.updatedAt + TTL, lockExpiresAt: undefined, owner: undefined, status: 'completed' });
      expect(Math.abs((await own.pttl(redisKey)) - TTL)).toBeLessThan(1_000);
      stop();
      // Each write was one script call whose last argument is the PX the client computed.
      const writes = sent.filter(([name]) => name === 'evalsha' || name === 'eval');
      expect(writes.map((args) => Number(args.at(-1)))).toEqual([held.expiresAt - renewed.updatedAt, TTL]);
      // What the store handed back is what it stored, byte for byte (a later compare-and-set relies on it).
      expect(JSON.parse((await own.get(redisKey)) as string)).toMatchObject({ createdAt: done.createdAt, updatedAt: done.updatedAt, expiresAt: done.expiresAt, result: '"ok"' });
      await own.quit();
    });

    it('stamps a fresh record near the server clock (one TIME on first use), whatever the caller passes', async () => {
      const own = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
      const store = createRedisStore({ client: own, keyPrefix: prefix, allowVolatile: true });
      const [seconds] = await client.time();
      const claim = await claimOf(store, `stamp_${(seq += 1)}`, { now: T0 });
      expect(Math.abs(claim.record.createdAt - Number(seconds) * 1000)).toBeLessThan(5_000);
      expect(claim.record).toMatchObject({ updatedAt: claim.record.createdAt, expiresAt: claim.record.createdAt + TTL, lockExpiresAt: claim.record.createdAt + LOCK });
      await own.quit();
    });
  });
});
