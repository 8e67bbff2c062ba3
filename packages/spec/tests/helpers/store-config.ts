/**
 * How another process re-creates a store under test. Imports no driver up front, so a child
 * process loads only the one it needs.
 */
import type { DedupStore } from '../../src/stores/types.js';

export interface StoreConfig {
  readonly kind: 'sqlite' | 'postgres' | 'redis' | 'redis-cluster' | 'valkey' | 'memory';
  readonly path?: string;
  readonly url?: string;
  /** A cluster's node URLs (`redis-cluster`). */
  readonly nodes?: readonly string[];
  readonly prefix?: string;
  /** PostgreSQL and Redis: decide expiry by the server's clock (default) or the runner's (tests that move a clock). */
  readonly clock?: 'store' | 'caller' | undefined;
}

export async function loadStore(config: StoreConfig): Promise<DedupStore> {
  switch (config.kind) {
    case 'sqlite':
      return (await import('../../src/stores/sqlite.js')).createSqliteStore({ path: config.path as string, tablePrefix: config.prefix as string });
    case 'postgres':
      return (await import('../../src/stores/postgres.js')).createPostgresStore({ connectionString: config.url as string, tablePrefix: config.prefix as string, clock: config.clock });
    case 'redis':
      return (await import('../../src/stores/redis.js')).createRedisStore({ url: config.url as string, keyPrefix: config.prefix as string, clock: config.clock, allowVolatile: true });
    case 'valkey':
      return (await import('../../src/stores/redis.js')).createRedisStore({ url: config.url as string, keyPrefix: config.prefix as string, clock: config.clock });
    case 'redis-cluster':
      return (await import('../../src/stores/redis.js')).createRedisStore({ nodes: config.nodes as string[], keyPrefix: config.prefix as string, clock: config.clock });
    case 'memory':
      return (await import('../../src/stores/memory.js')).createNonDurableMemoryStore();
  }
}
