/**
 * `@retrysafe/spec/stores/postgres`: the dedup store for fleets, through `pg` 8.
 *
 * The claim is one `INSERT ... ON CONFLICT DO UPDATE ... WHERE <free to claim>` statement that
 * also returns the existing row when it may not be claimed, so a first call, a replay, a
 * concurrent call and a key reuse each cost one round trip; recording the outcome is one
 * `UPDATE ... WHERE owner = $holder` more. The tables are created, and later migrated, by the
 * store under an advisory lock. Durability is PostgreSQL's: a committed claim or result survives
 * a crash of the process and of the server (with the default `synchronous_commit = on`).
 *
 * @module
 */
import pg from 'pg';
import { releaseRecord, completeRecord, decideClaim, renewRecord } from './claim.js';
import { MAX_ERROR_HISTORY } from './claim.js';
import { checkTablePrefix, DEDUP_COLUMNS, recordValues, rowToRecord, rowToRun, type DedupRow, type RunRow } from './rows.js';
import type { ClaimRequest, ClaimResult, DedupRecord, DedupStore, OpenRunRequest, RunRecord } from './types.js';

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
}

const SCHEMA_VERSION = 1;
/** Stale-snapshot retries of the claim statement before giving up (see `claim`). */
const CLAIM_TRIES = 5;

/**
 * Create the PostgreSQL dedup store. Nothing connects until the first call (or `ready()`); an
 * unreachable server makes every call reject and the runner then does not run the effect.
 */
export function createPostgresStore(options: PostgresStoreOptions): DedupStore {
  const prefix = checkTablePrefix(options.tablePrefix ?? 'retrysafe_');
  const ownPool = options.pool === undefined;
  if (ownPool && !options.connectionString) {
    throw new TypeError('createPostgresStore needs `connectionString` (e.g. postgres://user@host:5432/db) or `pool`');
  }
  const pool =
    options.pool ??
    new pg.Pool({
      connectionString: options.connectionString,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
    });
  // An idle client losing its connection emits 'error' on the pool; unhandled, it would crash the
  // process. The next query reports the outage instead.
  if (ownPool) pool.on('error', () => {});
  const location = describeLocation(options.connectionString, prefix);
  const sql = statements(prefix);
  let migrated: Promise<void> | undefined;

  const ready = (): Promise<void> => {
    migrated ??= migrate(pool, prefix).catch((error: unknown) => {
      migrated = undefined; // try again on the next call once the server is back
      throw error;
    });
    return migrated;
  };
  const query = async <R extends pg.QueryResultRow>(text: string, values: unknown[]) => {
    await ready();
    return pool.query<R>(text, values);
  };
  // The holder writes its computed record only while it still owns the lock.
  const writeIfHeld = async (held: DedupRecord, next: DedupRecord) => {
    const { rows } = await query<DedupRow>(sql.writeIfHeld, [...recordValues(next), held.owner ?? null]);
    return rows[0] ? rowToRecord(rows[0]) : undefined;
  };

  return {
    info: {
      kind: 'postgres',
      location,
      durable: true,
      checkHint: `Check that PostgreSQL is running and accepts connections at ${location.split(' ')[0]} (in this repository's tests: RETRYSAFE_PG_URL), and that the user may create and write the tables ${prefix}dedup, ${prefix}runs and ${prefix}meta.`,
    },
    ready,
    async claim(request: ClaimRequest): Promise<ClaimResult> {
      const values = [
        request.namespace,
        request.tool,
        request.key,
        request.fingerprint,
        request.now,
        request.ttlMs,
        request.lockMs,
        request.owner,
        request.maxAttempts,
        LOCK_EXPIRED_MESSAGE,
      ];
      for (let tries = 0; tries < CLAIM_TRIES; tries += 1) {
        const { rows } = await query<DedupRow & { outcome: string }>(sql.claim, values);
        const row = rows[0];
        if (row?.outcome === 'claimed') {
          const record = rowToRecord(row);
          return { outcome: 'claimed', reclaimed: record.attempts > 1, record };
        }
        // Not claimed. The existing row comes from the statement's snapshot, which can predate a
        // concurrent claim that ON CONFLICT already saw; if the snapshot still looks free, run the
        // statement again with a fresh snapshot rather than trust it.
        const decision = decideClaim(row ? rowToRecord(row) : undefined, request);
        if (decision.write === 'none') return decision.result;
      }
      throw new Error(`claim on ${prefix}dedup did not settle after ${CLAIM_TRIES} tries (heavy contention on one key)`);
    },
    async complete(held, request) {
      return writeIfHeld(held, completeRecord(held, request));
    },
    async release(held, { now, error }) {
      return writeIfHeld(held, releaseRecord(held, now, error));
    },
    async renew(held, { now, lockMs }) {
      return writeIfHeld(held, renewRecord(held, now, lockMs));
    },
    async get(id, now) {
      const { rows } = await query<DedupRow>(sql.get, [id.namespace, id.tool, id.key, now]);
      return rows[0] ? rowToRecord(rows[0]) : undefined;
    },
    async purgeExpired(now) {
      const dedupResult = await query(sql.purgeDedup, [now]);
      const runsResult = await query(sql.purgeRuns, [now]);
      return (dedupResult.rowCount ?? 0) + (runsResult.rowCount ?? 0);
    },
    async openRun(request: OpenRunRequest): Promise<RunRecord> {
      const { rows } = await query<RunRow>(sql.openRun, [
        request.namespace,
        request.origin,
        request.candidateId,
        request.now,
        request.ttlMs,
      ]);
      const row = rows[0];
      if (!row) throw new Error(`opening run ${request.origin} on ${prefix}runs returned no row`);
      return rowToRun(row, row.id === request.candidateId);
    },
    async close() {
      if (ownPool) await pool.end();
    },
  };
}

const LOCK_EXPIRED_MESSAGE =
  'The lock expired before the attempt recorded an outcome (its process stopped or stalled); ' +
  'the effect may or may not have happened, so the key is passed downstream again.';

function statements(prefix: string) {
  const t = `${prefix}dedup`;
  const pk = 'namespace = $1 AND tool = $2 AND key = $3';
  const n = DEDUP_COLUMNS.length;
  const casts = DEDUP_COLUMNS.map((c, i) => `$${i + 1}${c === 'errors' ? '::jsonb' : ''}`);
  // Mirrors decideClaim: fresh when absent or expired; else reclaim only a free record with the
  // same fingerprint and attempts left. A lapsed lock (owner still set) leaves a LockExpired
  // entry in the history, trimmed to the last MAX_ERROR_HISTORY entries.
  const claim = `
    WITH existing AS (
      SELECT * FROM ${t} WHERE ${pk}
    ), claimed AS (
      INSERT INTO ${t} AS d (${DEDUP_COLUMNS.join(', ')})
      VALUES ($1, $2, $3, $4, 'in_progress', NULL, NULL, '[]'::jsonb, 1,
              $5::bigint, $5::bigint, $5::bigint + $6::bigint, $5::bigint + $7::bigint, $8)
      ON CONFLICT (namespace, tool, key) DO UPDATE SET
        fingerprint = EXCLUDED.fingerprint,
        status = 'in_progress',
        result = NULL,
        result_error = NULL,
        errors = CASE
          WHEN d.expires_at <= $5::bigint THEN '[]'::jsonb
          WHEN d.owner IS NULL THEN d.errors
          ELSE (SELECT COALESCE(jsonb_agg(x.e ORDER BY x.i), '[]'::jsonb)
                FROM jsonb_array_elements(d.errors || jsonb_build_array(jsonb_build_object(
                       'attempt', d.attempts, 'at', $5::bigint, 'name', 'LockExpired', 'message', $10::text)))
                     WITH ORDINALITY AS x(e, i)
                WHERE x.i > jsonb_array_length(d.errors) + 1 - ${MAX_ERROR_HISTORY})
        END,
        attempts = CASE WHEN d.expires_at <= $5::bigint THEN 1 ELSE d.attempts + 1 END,
        created_at = CASE WHEN d.expires_at <= $5::bigint THEN $5::bigint ELSE d.created_at END,
        updated_at = $5::bigint,
        expires_at = $5::bigint + $6::bigint,
        lock_expires_at = $5::bigint + $7::bigint,
        owner = $8
      WHERE d.expires_at <= $5::bigint
         OR (d.fingerprint = EXCLUDED.fingerprint
             AND d.status = 'in_progress'
             AND (d.owner IS NULL OR d.lock_expires_at IS NULL OR d.lock_expires_at <= $5::bigint)
             AND d.attempts < $9::integer)
      RETURNING d.*
    )
    SELECT 'claimed' AS outcome, * FROM claimed
    UNION ALL
    SELECT 'existing' AS outcome, * FROM existing WHERE NOT EXISTS (SELECT 1 FROM claimed)`;
  return {
    claim,
    writeIfHeld: `
      UPDATE ${t} SET (${DEDUP_COLUMNS.join(', ')}) = (${casts.join(', ')})
      WHERE ${pk} AND owner = $${n + 1} AND status = 'in_progress'
      RETURNING *`,
    get: `SELECT * FROM ${t} WHERE ${pk} AND expires_at > $4::bigint`,
    purgeDedup: `DELETE FROM ${t} WHERE expires_at <= $1::bigint`,
    purgeRuns: `DELETE FROM ${prefix}runs WHERE expires_at <= $1::bigint`,
    openRun: `
      INSERT INTO ${prefix}runs AS r (namespace, origin, id, created_at, expires_at)
      VALUES ($1, $2, $3, $4::bigint, $4::bigint + $5::bigint)
      ON CONFLICT (namespace, origin) DO UPDATE SET
        id = CASE WHEN r.expires_at <= $4::bigint THEN EXCLUDED.id ELSE r.id END,
        created_at = CASE WHEN r.expires_at <= $4::bigint THEN EXCLUDED.created_at ELSE r.created_at END,
        expires_at = GREATEST(CASE WHEN r.expires_at <= $4::bigint THEN 0 ELSE r.expires_at END, EXCLUDED.expires_at)
      RETURNING *`,
  };
}

/** Create or migrate the schema, one migrator at a time across the fleet. */
async function migrate(pool: pg.Pool, prefix: string): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`retrysafe:${prefix}`]);
    await client.query(`CREATE TABLE IF NOT EXISTS ${prefix}meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)`);
    const { rows } = await client.query<{ value: string }>(
      `SELECT value FROM ${prefix}meta WHERE name = 'schema_version'`,
    );
    const version = rows[0] ? Number(rows[0].value) : 0;
    if (version > SCHEMA_VERSION) {
      throw new Error(
        `${prefix}meta says schema version ${version}, newer than this @retrysafe/spec understands (${SCHEMA_VERSION}): upgrade the package`,
      );
    }
    if (version < 1) {
      await client.query(`
        CREATE TABLE IF NOT EXISTS ${prefix}dedup (
          namespace TEXT NOT NULL,
          tool TEXT NOT NULL,
          key TEXT NOT NULL,
          fingerprint TEXT NOT NULL,
          status TEXT NOT NULL CHECK (status IN ('in_progress', 'completed')),
          result TEXT,
          result_error TEXT,
          errors JSONB NOT NULL DEFAULT '[]'::jsonb,
          attempts INTEGER NOT NULL,
          created_at BIGINT NOT NULL,
          updated_at BIGINT NOT NULL,
          expires_at BIGINT NOT NULL,
          lock_expires_at BIGINT,
          owner TEXT,
          PRIMARY KEY (namespace, tool, key)
        );
        CREATE INDEX IF NOT EXISTS ${prefix}dedup_expires_at ON ${prefix}dedup (expires_at);
        CREATE TABLE IF NOT EXISTS ${prefix}runs (
          namespace TEXT NOT NULL,
          origin TEXT NOT NULL,
          id TEXT NOT NULL,
          created_at BIGINT NOT NULL,
          expires_at BIGINT NOT NULL,
          PRIMARY KEY (namespace, origin)
        );
        CREATE INDEX IF NOT EXISTS ${prefix}runs_expires_at ON ${prefix}runs (expires_at);`);
    }
    if (version < SCHEMA_VERSION) {
      await client.query(
        `INSERT INTO ${prefix}meta (name, value) VALUES ('schema_version', $1)
         ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value`,
        [String(SCHEMA_VERSION)],
      );
    }
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
