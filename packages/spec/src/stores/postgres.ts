/**
 * `@retrysafe/spec/stores/postgres`: the dedup store for fleets, through `pg` 8.
 *
 * The claim is one `INSERT ... ON CONFLICT DO NOTHING` statement that also returns the existing
 * row when the key is taken, so a first call, a replay, a concurrent call and a key reuse each cost
 * one round trip (a replay writes nothing). Reclaiming a free record (released after a failure, or
 * its holder died) adds one compare-and-set `UPDATE`; recording the outcome is one
 * `UPDATE ... WHERE owner = $holder`. The tables are created, and later migrated, by the
 * store under an advisory lock. Durability is PostgreSQL's: a committed claim or result survives
 * a crash of the process and of the server (with the default `synchronous_commit = on`).
 *
 * @module
 */
import pg from 'pg';
import { createDedupStore, type DedupStoreBackend } from './protocol.js';
import {
  checkTablePrefix,
  COMPARED_COLUMNS,
  comparedValues,
  DEDUP_COLUMNS,
  recordValues,
  rowToRecord,
  rowToRun,
  migrationsFrom,
  POSTGRES_DIALECT,
  runValues,
  schemaSql,
  SCHEMA_VERSION,
  upsertRunSql,
  type DedupRow,
  type RunRow,
} from './rows.js';
import type { DedupStore } from './types.js';

/** Options for `createPostgresStore`: give a connection string or your own pool. */
export interface PostgresStoreOptions {
  /** e.g. `postgres://user@host:5432/db`. The store creates and later ends its own pool. */
  readonly connectionString?: string;
  /** Use your pool instead (the store does not end it). */
  readonly pool?: pg.Pool;
  /** Prefix for the store's tables (`<prefix>dedup`, `<prefix>runs`, `<prefix>meta`); default `retrysafe_`. */
  readonly tablePrefix?: string;
  /** Connection timeout for a pool the store creates, ms; default 5000. */
  readonly connectTimeoutMs?: number;
  /**
   * Longest wait for one query's reply on a pool the store creates, ms; default 10000 (pg's
   * client-side `query_timeout`). A server that stops answering mid-connection (frozen, or cut off
   * behind a proxy) then fails the call closed with `StoreUnavailableError` instead of holding it.
   */
  readonly queryTimeoutMs?: number;
  /**
   * Whose clock decides expiry and locks. `'store'` (default): the server's `now()`, in the same
   * statement as each read or write, so that clock skew between application machines cannot make
   * one reclaim another's live claim or purge a live record; what the store writes is stamped by
   * it. `'caller'`: the times the runner passes (its `now` option), for tests that move a clock.
   */
  readonly clock?: StoreClock | undefined;
}

/** Whose clock a server-backed store decides expiry by; see `PostgresStoreOptions.clock`. */
export type StoreClock = 'store' | 'caller';

/**
 * Create the PostgreSQL dedup store. Nothing connects until the first call (or `ready()`); an
 * unreachable server makes every call reject and the runner then does not run the effect.
 */
export function createPostgresStore(options: PostgresStoreOptions): DedupStore {
  return createDedupStore(postgresBackend(options));
}

function postgresBackend(options: PostgresStoreOptions): DedupStoreBackend {
  const prefix = checkTablePrefix(options.tablePrefix ?? 'retrysafe_');
  const ownPool = options.pool === undefined;
  if (options.connectionString !== undefined && typeof options.connectionString !== 'string') {
    throw new TypeError(`createPostgresStore: connectionString must be a string (postgres://user@host:5432/db), got ${typeof options.connectionString}`);
  }
  if (ownPool && !options.connectionString) {
    throw new TypeError('createPostgresStore needs `connectionString` (e.g. postgres://user@host:5432/db) or `pool`');
  }
  const pool =
    options.pool ??
    new pg.Pool({
      connectionString: options.connectionString,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
      query_timeout: options.queryTimeoutMs ?? 10_000,
    });
  // An idle client losing its connection emits 'error' on the pool; unhandled, it would crash the
  // process. The next query reports the outage instead.
  if (ownPool) pool.on('error', () => {});
  const location = describeLocation(options.connectionString, prefix);
  const storeClock = (options.clock ?? 'store') === 'store';
  const sql = statements(prefix, storeClock);
  let migrated: Promise<void> | undefined;

  const ready = (): Promise<void> => {
    migrated ??= migrate(pool, prefix).catch((error: unknown) => {
      migrated = undefined; // try again on the next call once the server is back
      throw error;
    });
    return migrated;
  };
  // Named statements: each connection parses and plans them once, not on every call.
  const query = async <R extends pg.QueryResultRow>(name: keyof typeof sql, values: unknown[]) => {
    await ready();
    return pool.query<R>({ name: `retrysafe_${prefix}${name}`, text: sql[name], values });
  };

  return {
    info: {
      kind: 'postgres',
      location,
      durable: true,
      checkHint: `Check that PostgreSQL is running and accepts connections at ${location.split(' ')[0]}, and that the user may create and write the tables ${prefix}dedup, ${prefix}runs and ${prefix}meta.`,
    },
    ready,
    async insertOrRead(fresh) {
      const { rows } = await query<ClockedRow & { outcome: string }>('claim', recordValues(fresh));
      const row = rows[0];
      if (row?.outcome === 'claimed') return { inserted: true, record: storeClock ? rowToRecord(row) : undefined, now: storeNow(row) };
      // No row: a concurrent insert committed after this statement's snapshot; the protocol reads again.
      return { inserted: false, record: row ? rowToRecord(row) : undefined, now: row ? storeNow(row) : undefined };
    },
    async read(id) {
      const { rows } = await query<ClockedRow>('read', [id.namespace, id.tool, id.key]);
      return rows[0] ? { record: rowToRecord(rows[0]), now: storeNow(rows[0]) } : { record: undefined };
    },
    async swap(expected, next) {
      const { rows } = await query<DedupRow>('swap', [...recordValues(next), ...comparedValues(expected)]);
      return rows[0] ? rowToRecord(rows[0]) : undefined;
    },
    async writeIfHeld(held, next) {
      const { rows } = await query<DedupRow>('writeIfHeld', [...recordValues(next), held.owner ?? null]);
      return rows[0] ? rowToRecord(rows[0]) : undefined;
    },
    async purgeExpired(now) {
      // By the server's clock (`now` is not sent) unless the caller's clock was asked for.
      const values = storeClock ? [] : [now];
      const dedupResult = await query('purgeDedup', values);
      const runsResult = await query('purgeRuns', values);
      return (dedupResult.rowCount ?? 0) + (runsResult.rowCount ?? 0);
    },
    async upsertRun(fresh) {
      const { rows } = await query<RunRow>('upsertRun', runValues(fresh));
      const row = rows[0];
      if (!row) throw new Error(`opening run ${fresh.origin} on ${prefix}runs returned no row`);
      return rowToRun(row, row.id === fresh.id);
    },
    async close() {
      if (ownPool) await pool.end();
    },
  };
}

const COMPARED_TYPES: Record<(typeof COMPARED_COLUMNS)[number], string> = {
  status: '::text',
  fingerprint: '::text',
  attempts: '::integer',
  updated_at: '::bigint',
  expires_at: '::bigint',
  lock_expires_at: '::bigint',
  owner: '::text',
};

/** A row read together with the server's clock (`store_now`, epoch ms; the caller's under `clock: 'caller'`). */
type ClockedRow = DedupRow & { store_now: string | number | null };
const storeNow = (row: ClockedRow): number | undefined => (row.store_now === null ? undefined : Number(row.store_now));

/** The server's clock in epoch ms, one value per statement (`now()` is the transaction's start). */
const SERVER_NOW_MS = '(floor(extract(epoch from now()) * 1000))::bigint';

function statements(prefix: string, storeClock: boolean) {
  const t = `${prefix}dedup`;
  const pk = 'namespace = $1 AND tool = $2 AND key = $3';
  const n = DEDUP_COLUMNS.length;
  const param = (column: (typeof DEDUP_COLUMNS)[number]) => `$${DEDUP_COLUMNS.indexOf(column) + 1}`;
  const updatedAt = `${param('updated_at')}::bigint`;
  // The record to write carries times from the caller's clock, taken at its `updatedAt`. Under the
  // store's clock each time the write sets is moved by the same amount, so that `updated_at` is
  // the server's now; a time the write leaves as stored (a release keeps `expires_at`) stays.
  const nowMs = storeClock ? SERVER_NOW_MS : updatedAt;
  const shift = `(clock.now_ms - ${updatedAt})`;
  const TIMES = ['created_at', 'updated_at', 'expires_at', 'lock_expires_at'] as const;
  const isTime = (c: string): c is (typeof TIMES)[number] => (TIMES as readonly string[]).includes(c);
  const insertValues = DEDUP_COLUMNS.map((c) =>
    c === 'errors' ? `${param(c)}::jsonb` : isTime(c) ? `${param(c)}::bigint + ${shift}` : `${param(c)}${c === 'attempts' ? '::integer' : '::text'}`,
  );
  const movedTime = (c: (typeof TIMES)[number]) =>
    `CASE WHEN ${param(c)}::bigint IS NOT DISTINCT FROM ${t}.${c} THEN ${t}.${c} ELSE ${param(c)}::bigint + ${shift} END`;
  const updateValues = DEDUP_COLUMNS.map((c) => {
    if (c === 'errors') return `${param(c)}::jsonb`;
    if (c === 'updated_at') return 'clock.now_ms';
    // A record never expires before its lease, whatever mix of clocks the write carried.
    if (c === 'expires_at') return `GREATEST(${movedTime(c)}, ${movedTime('lock_expires_at')})`;
    if (isTime(c)) return movedTime(c);
    return param(c);
  });
  const clock = `(SELECT ${nowMs} AS now_ms) AS clock`;
  // ON CONFLICT DO NOTHING takes no row lock, so a replay is a read: no transaction id, no WAL
  // flush. (DO UPDATE ... WHERE would lock the row, and committing a lock waits for an fsync.)
  const claim = `
    WITH clock AS (SELECT ${nowMs} AS now_ms),
    claimed AS (
      INSERT INTO ${t} (${DEDUP_COLUMNS.join(', ')}) SELECT ${insertValues.join(', ')} FROM clock
      ON CONFLICT (namespace, tool, key) DO NOTHING
      RETURNING *
    )
    SELECT 'claimed' AS outcome, (SELECT now_ms FROM clock) AS store_now, * FROM claimed
    UNION ALL
    SELECT 'existing' AS outcome, (SELECT now_ms FROM clock) AS store_now, * FROM ${t}
    WHERE ${pk} AND NOT EXISTS (SELECT 1 FROM claimed)`;
  const set = `SET (${DEDUP_COLUMNS.join(', ')}) = (${updateValues.join(', ')}) FROM ${clock}`;
  const expiredAt = (now: string) => `expires_at <= ${now}`;
  const purgeNow = storeClock ? SERVER_NOW_MS : '$1::bigint';
  return {
    claim,
    swap: `
      UPDATE ${t} ${set}
      WHERE ${pk} AND ${COMPARED_COLUMNS.map((c, i) => `${t}.${c} IS NOT DISTINCT FROM $${n + 1 + i}${COMPARED_TYPES[c]}`).join(' AND ')}
      RETURNING ${t}.*`,
    writeIfHeld: `
      UPDATE ${t} ${set}
      WHERE ${pk} AND ${t}.owner = $${n + 1} AND ${t}.status = 'in_progress'
      RETURNING ${t}.*`,
    read: `SELECT ${storeClock ? SERVER_NOW_MS : 'NULL::bigint'} AS store_now, * FROM ${t} WHERE ${pk}`,
    // Never a record whose lock is live: its holder's renewals keep it (transitions.ts, isExpired).
    purgeDedup: `DELETE FROM ${t} WHERE ${expiredAt(purgeNow)} AND (lock_expires_at IS NULL OR lock_expires_at <= ${purgeNow})`,
    purgeRuns: `DELETE FROM ${prefix}runs WHERE ${expiredAt(purgeNow)}`,
    upsertRun: upsertRunSql(`${prefix}runs`, POSTGRES_DIALECT, storeClock ? SERVER_NOW_MS : undefined),
  };
}

/** Create or migrate the schema, one migrator at a time across the fleet. */
async function migrate(pool: pg.Pool, prefix: string): Promise<void> {
  const schema = schemaSql(prefix, POSTGRES_DIALECT);
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`retrysafe:${prefix}`]);
    await client.query(schema.createMeta);
    const { rows } = await client.query<{ value: string }>(schema.selectVersion);
    const pending = migrationsFrom(rows[0] ? Number(rows[0].value) : 0, prefix, schema.migrations);
    for (const migration of pending) await client.query(migration);
    if (pending.length > 0) await client.query(schema.writeVersion, [String(SCHEMA_VERSION)]);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** The URL without its password, plus the table, for messages. */
function describeLocation(connectionString: string | undefined, prefix: string): string {
  if (!connectionString) return `PostgreSQL pool (table ${prefix}dedup)`;
  try {
    const url = new URL(connectionString);
    if (url.password) url.password = '***';
    return `${url.toString()} (table ${prefix}dedup)`;
  } catch {
    return `PostgreSQL (table ${prefix}dedup)`;
  }
}
