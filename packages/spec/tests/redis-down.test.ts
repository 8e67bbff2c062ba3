/**
 * A Redis store whose server is down. Its error leads with the cause (`cannot reach redis at
 * <url>: connect ECONNREFUSED ...`), not with ioredis' "Reached the max retries per request
 * limit", and keeps the socket error as its cause. And `close()` leaves nothing that keeps the process alive: no reconnect timer, no
 * socket, no destroy timer on a socket that already failed, no command timer. A real child process
 * uses the store (against the shared Redis, or a port nothing listens on), closes it and reports
 * `process.getActiveResourcesInfo()` one timer turn later; the trial's short script against a
 * down server stayed alive 2 s after `close()` (ioredis arms its `disconnectTimeout` to destroy
 * the last socket, and a socket refused before close() never emits the `close` that clears it).
 */
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { vouchDurable } from '../src/durable.js';
import { StoreUnavailableError } from '../src/errors.js';
import { createRunner } from '../src/runner.js';
import { openRun } from '../src/runs.js';
import { createRedisStore } from '../src/stores/redis.js';
import { memoryProvider } from './helpers/provider.js';
import { freePort } from './helpers/servers.js';
import { REDIS_URL, RUN_TAG } from './helpers/stores.js';
import { refundTool } from './helpers/tools.js';
import { spawnFixture } from './helpers/tsChild.js';


function child(args: object): Promise<string[]> {
  const proc = spawnFixture('redis-down-child.ts', args);
  let out = '';
  let err = '';
  proc.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  proc.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return new Promise((resolve, reject) => {
    // A child that close() left hanging would outlive the test: end it, and say so.
    const stuck = setTimeout(() => proc.kill('SIGKILL'), 20_000);
    proc.on('error', reject);
    proc.on('exit', (code, signal) => {
      clearTimeout(stuck);
      if (code === 0) resolve(out.trim().split('\n'));
      else reject(new Error(`child ${signal === 'SIGKILL' ? 'still running after 20 s, killed' : `exited ${code}`}; stdout: ${out} stderr: ${err}`));
    });
  });
}

/**
 * A call and an openRun on `store`, whose server is down: each fails closed with
 * StoreUnavailableError (nothing ran), and `check` judges each error.
 */
async function failuresOf(store: ReturnType<typeof createRedisStore>, check: (failure: StoreUnavailableError) => void): Promise<void> {
  const provider = memoryProvider();
  try {
    const outcome = await createRunner({ store }).tryCall(refundTool(provider), { orderId: 'o_1', amountCents: 100 }, { run: { id: vouchDurable('r_down') } });
    const opened = await openRun(store, { kind: 'job', id: 'j_down' }).then(() => undefined, (error: unknown) => error);
    for (const error of [outcome.ok ? undefined : outcome.error, opened]) {
      expect(error).toBeInstanceOf(StoreUnavailableError);
      expect((error as StoreUnavailableError).code).toBe('store_unavailable');
      check(error as StoreUnavailableError);
    }
    expect(provider.effects()).toBe(0);
  } finally {
    await store.close();
  }
}

describe('redis store error when the server is down', () => {
  it('leads with the cause and the address, with the socket error as its cause, for a call and for openRun', async () => {
    const port = await freePort();
    const store = createRedisStore({ url: `redis://127.0.0.1:${port}`, keyPrefix: `rs_down:${RUN_TAG}:`, allowVolatile: true, connectTimeoutMs: 500 });
    await failuresOf(store, (failure) => {
      expect(failure.message).toMatch(new RegExp(`during (claim|openRun): cannot reach redis at redis://127\\.0\\.0\\.1:${port}/?: connect ECONNREFUSED 127\\.0\\.0\\.1:${port}\\. `));
      expect(failure.message).not.toMatch(/max retries|maxRetriesPerRequest/);
      expect(((failure.cause as Error).cause as NodeJS.ErrnoException).code).toBe('ECONNREFUSED');
    });
  });
});

describe('redis cluster store error when every node is down', () => {
  it('says no node answered, names the nodes once, with ioredis\' error as its cause', async () => {
    const [first, second] = [`redis://127.0.0.1:${await freePort()}`, `redis://127.0.0.1:${await freePort()}`];
    const store = createRedisStore({ nodes: [first, second], keyPrefix: `rs_down:${RUN_TAG}:`, allowVolatile: true, connectTimeoutMs: 500 });
    await failuresOf(store, (failure) => {
      expect(failure.message).toContain(`(redis at ${first}, ${second} (a cluster) (keys rs_down:`);
      expect(failure.message).toMatch(/ during (claim|openRun): /);
      expect(failure.message).toContain(`: cannot reach the Redis Cluster at ${first}, ${second}: no node answered (ioredis: Failed to refresh slots cache). `);
      expect(failure.message).not.toMatch(/redis at the Redis Cluster|\.\./);
      expect(((failure.cause as Error).cause as Error).name).toBe('ClusterAllFailedError');
    });
  });
});

describe('redis store close() leaves nothing running', () => {
  const prefix = `rs_close:${RUN_TAG}:`;
  // The 'ok' child records one call on the shared Redis: remove this run's keys.
  afterAll(async () => {
    const client = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    try {
      const keys = await client.keys(`${prefix}*`);
      if (keys.length > 0) await client.del(...keys);
    } finally {
      client.disconnect();
    }
  });

  it('after a call failed because the server is down', async () => {
    const lines = await child({ url: `redis://127.0.0.1:${await freePort()}`, prefix, mode: 'failed' });
    expect(lines).toEqual(['false', '[]']);
  });

  it('while a call is still waiting for a server that is down (the call fails closed)', async () => {
    const lines = await child({ url: `redis://127.0.0.1:${await freePort()}`, prefix, mode: 'pending' });
    expect(lines).toEqual(['false', '[]']);
  });

  it('for a cluster whose nodes are all down', async () => {
    const lines = await child({ nodes: [`redis://127.0.0.1:${await freePort()}`], prefix, mode: 'failed' });
    expect(lines).toEqual(['false', '[]']);
  });

  it('for a store that never connected, and after a call that succeeded', async () => {
    expect(await child({ url: REDIS_URL, prefix, mode: 'unused' })).toEqual(['[]']);
    expect(await child({ url: REDIS_URL, prefix, mode: 'ok' })).toEqual(['true', '[]']);
  });
});
