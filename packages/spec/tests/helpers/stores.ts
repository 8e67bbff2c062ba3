/**
 * The stores every runtime test runs against, each with a unique table or key prefix per test
 * run. PostgreSQL and Redis are real servers (RETRYSAFE_PG_URL, RETRYSAFE_REDIS_URL); when one
 * is unreachable the suite fails loudly in `setUp`, it never skips.
 *
 * The shared Redis runs without persistence (`scripts/services.sh`: `--save "" --appendonly no`),
 * which `createRedisStore` refuses by default, so the suite opts in with `allowVolatile: true`
 * here and in `store-config.ts`; `tests/redis-persistence.test.ts` checks the refusal against
 * servers of its own.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { Redis } from 'ioredis';
import { createNonDurableMemoryStore } from '../../src/stores/memory.js';
import { createPostgresStore } from '../../src/stores/postgres.js';
import { createRedisStore } from '../../src/stores/redis.js';
import { createSqliteStore } from '../../src/stores/sqlite.js';
import type { DedupStore } from '../../src/stores/types.js';
import { findBinary, startRedisCluster, startValkey, type StartedServers } from './servers.js';
import type { StoreConfig } from './store-config.js';

export const PG_URL = process.env['RETRYSAFE_PG_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
export const REDIS_URL = process.env['RETRYSAFE_REDIS_URL'] ?? 'redis://127.0.0.1:6379';

/** Unique per test file run, so parallel runs and leftovers never collide. */
export const RUN_TAG = `${process.pid.toString(36)}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

export type { StoreConfig } from './store-config.js';

/** One store under test. */
export interface StoreUnderTest {
  readonly name: StoreConfig['kind'];
  /** The config that `storeFromConfig` turns into a store (another process can use it). */
  readonly config: StoreConfig;
  /** A store that cannot be reached: a bad path, a closed port, or a closed memory store. */
  unreachable(): DedupStore;
  /** Remove the tables, keys or files this run created (and stop servers `start` started). */
  cleanUp(): Promise<void>;
  /** Start the servers this store needs (a cluster, a Valkey) before its first test. */
  start?(): Promise<void>;
}

export function storeFromConfig(config: StoreConfig): DedupStore {
  switch (config.kind) {
    case 'sqlite':
      return createSqliteStore({ path: config.path as string, tablePrefix: config.prefix as string });
    case 'postgres':
      return createPostgresStore({ connectionString: config.url as string, tablePrefix: config.prefix as string, clock: config.clock });
    case 'redis':
      return createRedisStore({ url: config.url as string, keyPrefix: config.prefix as string, clock: config.clock, allowVolatile: true });
    case 'valkey':
      return createRedisStore({ url: config.url as string, keyPrefix: config.prefix as string, clock: config.clock });
    case 'redis-cluster':
      return createRedisStore({ nodes: config.nodes as string[], keyPrefix: config.prefix as string, clock: config.clock });
    case 'memory':
      return createNonDurableMemoryStore();
  }
}

/**
 * Open `subject`'s store before the tests and close it after. When the backend is unreachable,
 * every test fails with the connection error (rather than vitest reporting them as skipped after
 * a failed hook).
 */
export function openStoreFor(subject: StoreUnderTest, hooks: { beforeAll: (fn: () => Promise<void>) => void; afterAll: (fn: () => Promise<void>) => void }): () => DedupStore {
  let store: DedupStore | undefined;
  let setupError: unknown;
  hooks.beforeAll(async () => {
    try {
      await subject.start?.();
    } catch (error) {
      setupError = new Error(`The ${subject.name} servers did not start; these tests need them: ${String(error)}`, { cause: error });
      return;
    }
    store = storeFromConfig(subject.config);
    await store.ready().catch((error: unknown) => {
      setupError = new Error(
        `The ${subject.name} store at ${store?.info.location} is unreachable; these tests need it (start it with scripts/services.sh, or set RETRYSAFE_PG_URL / RETRYSAFE_REDIS_URL): ${String(error)}`,
        { cause: error },
      );
    });
  });
  hooks.afterAll(async () => {
    await store?.close();
    await subject.cleanUp().catch((error: unknown) => {
      if (!setupError) throw error;
    });
  });
  return () => {
    if (setupError) throw setupError;
    if (!store) throw new Error('store used outside a test');
    return store;
  };
}

/**
 * The four stores, with fresh prefixes for this file. PostgreSQL and Redis decide expiry by the
 * server's clock unless `clock: 'caller'`, which tests that move the runner's clock ask for.
 */
export function storesUnderTest(options: { readonly clock?: 'store' | 'caller' } = {}): StoreUnderTest[] {
  const { clock } = options;
  const dir = mkdtempSync(join(tmpdir(), 'retrysafe-test-'));
  const pgPrefix = `rs_t_${RUN_TAG}_`;
  const redisPrefix = `rs_t:${RUN_TAG}:`;
  return [
    {
      name: 'memory',
      config: { kind: 'memory' },
      unreachable() {
        const store = createNonDurableMemoryStore();
        void store.close();
        return store;
      },
      async cleanUp() {},
    },
    {
      name: 'sqlite',
      config: { kind: 'sqlite', path: join(dir, 'dedup.db'), prefix: 'rs_' },
      // A path below a regular file can never be created.
      unreachable: () => createSqliteStore({ path: '/dev/null/retrysafe/dedup.db' }),
      async cleanUp() {
        rmSync(dir, { recursive: true, force: true });
      },
    },
    {
      name: 'postgres',
      config: { kind: 'postgres', url: PG_URL, prefix: pgPrefix, clock },
      unreachable: () => createPostgresStore({ connectionString: 'postgres://postgres@127.0.0.1:1/test', tablePrefix: pgPrefix }),
      async cleanUp() {
        const client = new pg.Client({ connectionString: PG_URL });
        await client.connect();
        try {
          await client.query(`DROP TABLE IF EXISTS ${pgPrefix}dedup, ${pgPrefix}runs, ${pgPrefix}meta`);
        } finally {
          await client.end();
        }
      },
    },
    {
      name: 'redis',
      config: { kind: 'redis', url: REDIS_URL, prefix: redisPrefix, clock },
      unreachable: () => createRedisStore({ url: 'redis://127.0.0.1:1', keyPrefix: redisPrefix }),
      async cleanUp() {
        const client = new Redis(REDIS_URL, { maxRetriesPerRequest: 1, retryStrategy: () => null });
        client.on('error', () => {}); // an unreachable server already failed every test loudly
        try {
          const keys = await client.keys(`${redisPrefix}*`);
          if (keys.length > 0) await client.del(...keys);
        } finally {
          client.disconnect();
        }
      },
    },
  ];
}

/**
 * Redis Cluster (three primaries) and Valkey, each started by the test on free local ports and
 * stopped after (tests/helpers/servers.ts). Valkey is left out when `valkey-server` is not installed,
 * unless CI=true: then its tests fail loudly (scripts/services.sh installs it).
 */
export function scaleOutStoresUnderTest(options: { readonly clock?: 'store' | 'caller' } = {}): StoreUnderTest[] {
  const { clock } = options;
  const prefix = `rs_t:${RUN_TAG}:`;
  let cluster: StartedServers | undefined;
  let valkey: StartedServers | undefined;
  const subjects: StoreUnderTest[] = [
    {
      name: 'redis-cluster',
      get config(): StoreConfig {
        return { kind: 'redis-cluster', nodes: cluster?.urls ?? [], prefix, clock };
      },
      unreachable: () => createRedisStore({ nodes: ['redis://127.0.0.1:1'], keyPrefix: prefix }),
      async start() {
        cluster = await startRedisCluster(3);
      },
      async cleanUp() {
        await cluster?.stop();
      },
    },
  ];
  if (findBinary('valkey-server') || process.env['CI'] === 'true') {
    subjects.push({
      name: 'valkey',
      get config(): StoreConfig {
        return { kind: 'valkey', url: valkey?.urls[0] ?? 'redis://127.0.0.1:1', prefix, clock };
      },
      unreachable: () => createRedisStore({ url: 'redis://127.0.0.1:1', keyPrefix: prefix }),
      async start() {
        if (!findBinary('valkey-server')) {
          throw new Error('valkey-server is not installed (CI=true): run scripts/services.sh, which installs it from Debian bookworm-backports');
        }
        valkey = await startValkey();
      },
      async cleanUp() {
        await valkey?.stop();
      },
    });
  }
  return subjects;
}
