/**
 * Scale-out (issue 13): the Redis store on a three-node Redis Cluster and on Valkey, each started
 * by this test on free local ports and stopped after. The conformance suite runs on both too
 * (tests/stores.conformance.test.ts); here: the runner called twice through each, every command a
 * call sends keeps its keys in one hash slot, records spread over the cluster's nodes, and a purge
 * that reaches every node.
 */
import { Cluster, Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRunner } from '../src/runner.js';
import { openRun } from '../src/runs.js';
import { createRedisStore } from '../src/stores/redis.js';
import { memoryProvider } from './helpers/provider.js';
import { findBinary, startRedisCluster, startValkey, type StartedServers } from './helpers/servers.js';
import { RUN_TAG } from './helpers/stores.js';
import { freshRun, refundTool } from './helpers/tools.js';

const T0 = 1_700_000_000_000;

/** Every command `client` sends, with the keys it names. */
function recordCommands(client: Cluster) {
  const sent: { name: string; keys: string[] }[] = [];
  const original = client.sendCommand.bind(client);
  client.sendCommand = ((command: { name: string; getKeys(): (string | Buffer)[] }, ...rest: unknown[]) => {
    sent.push({ name: command.name, keys: command.getKeys().map(String) });
    return (original as (...args: unknown[]) => unknown)(command, ...rest);
  }) as Cluster['sendCommand'];
  return sent;
}

describe('Redis Cluster (three primaries, started by the test)', () => {
  let cluster: StartedServers;
  let client: Cluster;
  beforeAll(async () => {
    cluster = await startRedisCluster(3);
    client = new Cluster(cluster.urls.map((url) => ({ host: '127.0.0.1', port: Number(new URL(url).port) })), { redisOptions: { maxRetriesPerRequest: 1 } });
  }, 60_000);
  afterAll(async () => {
    await client?.quit();
    await cluster?.stop();
  });
  const slot = async (key: string) => Number(await client.cluster('KEYSLOT', key));

  it('runs the effect once when called twice, through a store made from `nodes`', async () => {
    const store = createRedisStore({ nodes: cluster.urls.slice(0, 1), keyPrefix: `rs_t:${RUN_TAG}:nodes:` });
    try {
      const provider = memoryProvider({ dedupeByKey: false });
      const runner = createRunner({ store });
      const run = await openRun(store, { kind: 'job', id: 'cluster-job-1' });
      const first = await runner.call(refundTool(provider), { orderId: 'o_1', amountCents: 500 }, { run });
      const second = await runner.call(refundTool(provider), { orderId: 'o_1', amountCents: 500 }, { run });
      expect(provider.effects()).toBe(1);
      expect(first.replayed).toBe(false);
      expect(second).toMatchObject({ replayed: true, result: first.result });
    } finally {
      await store.close();
    }
  });

  it('keeps the keys of every command in one hash slot, over a whole life cycle (claim, failure, reclaim, renew, complete, replay, run, purge)', async () => {
    const prefix = `rs_t:${RUN_TAG}:slots:`;
    const sent = recordCommands(client);
    const store = createRedisStore({ client, keyPrefix: prefix });
    const provider = memoryProvider({ dedupeByKey: false });
    const runner = createRunner({ store, lockMs: 30, ttlMs: 60_000 });
    const run = await openRun(store, { kind: 'job', id: 'cluster-job-2' });
    for (let i = 0; i < 20; i += 1) {
      if (i % 5 === 0) provider.failNext(1);
      const input = { orderId: `o_${i}`, amountCents: 100 + i };
      await runner.call(refundTool(provider), input, { run }).catch(() => runner.call(refundTool(provider), input, { run }));
      await runner.call(refundTool(provider), input, { run });
    }
    // A slow effect: the heartbeat renews the 30 ms lock while it runs.
    const held = provider.hold();
    const slow = runner.call(refundTool(provider), { orderId: 'o_slow', amountCents: 1 }, { run });
    await held.started;
    await new Promise((resolve) => setTimeout(resolve, 80));
    held.release();
    await slow;
    await store.purgeExpired(Date.now() + 120_000);
    expect(provider.effects()).toBe(21);

    const names = new Set(sent.map((c) => c.name));
    for (const name of ['set', 'evalsha']) expect(names).toContain(name);
    const keyed = sent.filter((c) => c.keys.length > 0);
    expect(keyed.length).toBeGreaterThan(60);
    for (const command of keyed) {
      const slots = new Set(await Promise.all(command.keys.map(slot)));
      expect({ command: command.name, slots: slots.size }).toEqual({ command: command.name, slots: 1 });
      // Each key's slot is its hash tag's: the record's identity, not the prefix.
      for (const key of command.keys) expect(key).toMatch(/^rs_t:[^{}]+:slots:(dedup|run):\{[^{}]+\}$/);
    }
  });

  it('spreads records over the nodes, and purges expired ones on every node', async () => {
    const prefix = `rs_t:${RUN_TAG}:purge:`;
    // The runner's clock stands still at T0 and the purge moves past the TTL: the caller's clock.
    const store = createRedisStore({ client, keyPrefix: prefix, clock: 'caller' });
    const runner = createRunner({ store, now: () => T0, ttlMs: 1000, lockMs: 1000, purgeEveryMs: 0 });
    const provider = memoryProvider({ dedupeByKey: false });
    const run = freshRun();
    for (let i = 0; i < 30; i += 1) await runner.call(refundTool(provider), { orderId: `p_${i}`, amountCents: 1 }, { run });

    const keysPerNode = await Promise.all(client.nodes('master').map((node) => node.keys(`${prefix}*`)));
    expect(keysPerNode.flat()).toHaveLength(30);
    expect(keysPerNode.filter((keys) => keys.length > 0).length).toBeGreaterThanOrEqual(2);

    expect(await store.purgeExpired(T0 + 1000)).toBe(30);
    const left = await Promise.all(client.nodes('master').map((node) => node.keys(`${prefix}*`)));
    expect(left.flat()).toEqual([]);
  });

  it('fails closed, quickly, when no node can be reached', async () => {
    const store = createRedisStore({ nodes: ['redis://127.0.0.1:1'], keyPrefix: `rs_t:${RUN_TAG}:down:` });
    const provider = memoryProvider();
    const started = Date.now();
    await expect(createRunner({ store }).call(refundTool(provider), { orderId: 'o_1', amountCents: 1 }, { run: freshRun() })).rejects.toMatchObject({ code: 'store_unavailable' });
    await expect(createRunner({ store }).call(refundTool(provider), { orderId: 'o_1', amountCents: 1 }, { run: freshRun() })).rejects.toMatchObject({ code: 'store_unavailable' });
    expect(provider.calls()).toEqual([]);
    expect(Date.now() - started).toBeLessThan(10_000); // not a speed figure: the call must not hang
    await store.close();
  });
});

const valkeyInstalled = findBinary('valkey-server') !== undefined;
const inCi = process.env['CI'] === 'true';

describe('Valkey (started by the test)', () => {
  // Without valkey-server (scripts/services.sh installs it) these tests are reported as skipped,
  // outside CI only: under CI=true they fail instead.
  describe.runIf(valkeyInstalled || inCi)('the Redis store on Valkey', () => {
    let valkey: StartedServers;
    beforeAll(async () => {
      if (!valkeyInstalled) throw new Error('valkey-server is not installed (CI=true): run scripts/services.sh');
      valkey = await startValkey();
    }, 60_000);
    afterAll(async () => {
      await valkey?.stop();
    });

    it('is Valkey, and runs the effect once when called twice', async () => {
      const probe = new Redis(valkey.urls[0] as string);
      expect(await probe.info('server')).toMatch(/valkey_version:\d/);
      await probe.quit();
      const store = createRedisStore({ url: valkey.urls[0] as string, keyPrefix: `rs_t:${RUN_TAG}:valkey:` });
      try {
        const provider = memoryProvider({ dedupeByKey: false });
        const runner = createRunner({ store });
        const run = await openRun(store, { kind: 'job', id: 'valkey-job-1' });
        const first = await runner.call(refundTool(provider), { orderId: 'o_1', amountCents: 500 }, { run });
        const second = await runner.call(refundTool(provider), { orderId: 'o_1', amountCents: 500 }, { run });
        expect(provider.effects()).toBe(1);
        expect(second).toMatchObject({ replayed: true, result: first.result });
      } finally {
        await store.close();
      }
    });
  });
});
