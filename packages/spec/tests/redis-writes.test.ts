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

  it('sends a holder write of about the size of the new record (no copy of the old one)', async () => {
    const store = createRedisStore({ client, keyPrefix: prefix, clock: 'caller', allowVolatile: true }); // the test moves time
    const held = (await request(store)).record;
    const sent: string[][] = [];
    const send = client.sendCommand.bind(client);
    client.sendCommand = ((command: { name: string; args: unknown[] }, ...rest: unknown[]) => {
      sent.push([command.name, ...command.args.map(String)]);
      return (send as (...a: unknown[]) => unknown)(command, ...rest);
    }) as Redis['sendCommand'];
    try {
      await store.complete(held, { now: T0 + 1, ttlMs: TTL, result: '{"refundId":"re_1"}' });
    } finally {
      client.sendCommand = send;
    }
    const write = sent.find(([name]) => name === 'evalsha' || name === 'eval') as string[];
    const record = write.find((arg) => arg.startsWith('{')) as string;
    const bytes = write.slice(1).reduce((n, arg) => n + Buffer.byteLength(arg), 0);
    expect(bytes - Buffer.byteLength(record)).toBeLessThan(160); // sha, key, token, PX: not a second record
  });

  it('coalesces the commands of 32 concurrent calls into fewer socket writes; called twice, one effect per key', async () => {
    const runOn = async (coalesceWrites: boolean) => {
      const own = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
      await own.ping();
      const counts = countWrites(own);
      const store = createRedisStore({ client: own, keyPrefix: prefix, coalesceWrites, allowVolatile: true });
      const provider = memoryProvider({ dedupeByKey: false });
      const runner = createRunner({ store, purgeEveryMs: 0 });
      const run = freshRun();
      const inputs = Array.from({ length: 32 }, (_, i) => ({ orderId: `c_${coalesceWrites}_${i}`, amountCents: 100 }));
      const first = await Promise.all(inputs.map((input) => runner.call(refundTool(provider), input, { run })));
      const second = await Promise.all(inputs.map((input) => runner.call(refundTool(provider), input, { run })));
      await own.quit();
      return { counts, effects: provider.effects(), replays: second.filter((r) => r.replayed).length, ran: first.filter((r) => !r.replayed).length };
    };
    const plain = await runOn(false);
    const coalesced = await runOn(true);
    for (const outcome of [plain, coalesced]) expect(outcome).toMatchObject({ effects: 32, replays: 32, ran: 32 });
    expect(plain.counts.writes).toBeGreaterThanOrEqual(plain.counts.commands - 1);
    expect(coalesced.counts.commands).toBe(plain.counts.commands);
    expect(coalesced.counts.writes).toBeLessThan(coalesced.counts.commands / 2);
  });
});
