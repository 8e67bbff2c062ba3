/**
 * Row mapping shared by the SQL stores (SQLite and PostgreSQL): one column per record field,
 * snake_case, times as integer epoch ms; and the statements both write alike. Imports no driver.
 *
 * @module
 */
import type { AttemptError, DedupRecord, RunRecord, StoredRun } from './types.js';

/** A dedup row as the SQL drivers return it (PostgreSQL gives BIGINT as a string, JSONB parsed). */
export interface DedupRow {
  namespace: string;
  tool: string;
  key: string;
  fingerprint: string;
  status: string;
  result: string | null;
  result_error: string | null;
  errors: string | AttemptError[];
  attempts: number | string;
  created_at: number | string;
  updated_at: number | string;
  expires_at: number | string;
  lock_expires_at: number | string | null;
  owner: string | null;
}

/** A run row. */
export interface RunRow {
  namespace: string;
  origin: string;
  id: string;
  created_at: number | string;
  expires_at: number | string;
}

/** The columns in the order `recordValues` gives them. */
export const DEDUP_COLUMNS = [
  'namespace',
  'tool',
  'key',
  'fingerprint',
  'status',
  'result',
  'result_error',
  'errors',
  'attempts',
  'created_at',
  'updated_at',
  'expires_at',
  'lock_expires_at',
  'owner',
] as const;

/**
 * Every column a write can change: a compare-and-set that matches all of them matches the record
 * exactly (namespace, tool and key are the row's identity and never change).
 */
export const COMPARED_COLUMNS = ['status', 'fingerprint', 'attempts', 'updated_at', 'expires_at', 'lock_expires_at', 'owner'] as const;

/** `expected`'s values for `COMPARED_COLUMNS`, in that order. */
export function comparedValues(expected: DedupRecord): (string | number | null)[] {
  return [
    expected.status,
    expected.fingerprint,
    expected.attempts,
    expected.updatedAt,
    expected.expiresAt,
    expected.lockExpiresAt ?? null,
    expected.owner ?? null,
  ];
}

/** Turn a row into a record. */
export function rowToRecord(row: DedupRow): DedupRecord {
  if (row.status !== 'in_progress' && row.status !== 'completed') {
    throw new Error(`dedup row for key ${JSON.stringify(row.key)} has unknown status ${JSON.stringify(row.status)}`);
  }
  return {
    namespace: row.namespace,
    tool: row.tool,
    key: row.key,
    fingerprint: row.fingerprint,
    status: row.status,
    result: row.result ?? undefined,
    resultError: row.result_error ?? undefined,
    errors: typeof row.errors === 'string' ? (JSON.parse(row.errors) as AttemptError[]) : row.errors,
    attempts: Number(row.attempts),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    expiresAt: Number(row.expires_at),
    lockExpiresAt: row.lock_expires_at === null ? undefined : Number(row.lock_expires_at),
    owner: row.owner ?? undefined,
  };
}

/** A record's column values, in `DEDUP_COLUMNS` order. */
export function recordValues(record: DedupRecord): (string | number | null)[] {
  return [
    record.namespace,
    record.tool,
    record.key,
    record.fingerprint,
    record.status,
    record.result ?? null,
    record.resultError ?? null,
    JSON.stringify(record.errors),
    record.attempts,
    record.createdAt,
    record.updatedAt,
    record.expiresAt,
    record.lockExpiresAt ?? null,
    record.owner ?? null,
  ];
}

/** How a SQL dialect spells what the shared statements need. */
export interface SqlDialect {
  /** The `n`th (1-based) bound parameter, with any cast it needs. */
  readonly param: (n: number, type?: 'bigint') => string;
  /** The two-argument maximum (`GREATEST` in PostgreSQL, `MAX` in SQLite). */
  readonly greatest: string;
  /** The column type of an epoch-ms time. */
  readonly epochMs: string;
  /** The error history's column type and default (a JSON array). */
  readonly errorHistory: string;
  /** What follows a table's column list (`WITHOUT ROWID` for SQLite's keyed tables). */
  readonly tableOptions: string;
}

/** SQLite through better-sqlite3: parameters in order, `?`. */
export const SQLITE_DIALECT: SqlDialect = {
  param: () => '?',
  greatest: 'MAX',
  epochMs: 'INTEGER',
  errorHistory: "TEXT NOT NULL DEFAULT '[]'",
  tableOptions: ' WITHOUT ROWID',
};

/** PostgreSQL through pg: numbered parameters, cast where the type is not inferred. */
export const POSTGRES_DIALECT: SqlDialect = {
  param: (n, type) => `$${n}${type ? `::${type}` : ''}`,
  greatest: 'GREATEST',
  epochMs: 'BIGINT',
  errorHistory: "JSONB NOT NULL DEFAULT '[]'::jsonb",
  tableOptions: '',
};

/** The schema version this package writes and reads; kept per prefix in `<prefix>meta`. */
export const SCHEMA_VERSION = 1;

/**
 * The schema's statements: the meta table, the version in it, and each version's migration
 * (`migrations[v - 1]` takes the schema from version `v - 1` to `v`). Each store runs them in its
 * own transaction, one migrator at a time.
 */
export function schemaSql(prefix: string, sql: SqlDialect) {
  const time = sql.epochMs;
  const v1 = `
    CREATE TABLE IF NOT EXISTS ${prefix}dedup (
      namespace TEXT NOT NULL,
      tool TEXT NOT NULL,
      key TEXT NOT NULL,
      fingerprint TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('in_progress', 'completed')),
      result TEXT,
      result_error TEXT,
      errors ${sql.errorHistory},
      attempts INTEGER NOT NULL,
      created_at ${time} NOT NULL,
      updated_at ${time} NOT NULL,
      expires_at ${time} NOT NULL,
      lock_expires_at ${time},
      owner TEXT,
      PRIMARY KEY (namespace, tool, key)
    )${sql.tableOptions};
    CREATE INDEX IF NOT EXISTS ${prefix}dedup_expires_at ON ${prefix}dedup (expires_at);
    CREATE TABLE IF NOT EXISTS ${prefix}runs (
      namespace TEXT NOT NULL,
      origin TEXT NOT NULL,
      id TEXT NOT NULL,
      created_at ${time} NOT NULL,
      expires_at ${time} NOT NULL,
      PRIMARY KEY (namespace, origin)
    )${sql.tableOptions};
    CREATE INDEX IF NOT EXISTS ${prefix}runs_expires_at ON ${prefix}runs (expires_at);`;
  return {
    createMeta: `CREATE TABLE IF NOT EXISTS ${prefix}meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)`,
    selectVersion: `SELECT value FROM ${prefix}meta WHERE name = 'schema_version'`,
    writeVersion: `INSERT INTO ${prefix}meta (name, value) VALUES ('schema_version', ${sql.param(1)})
      ON CONFLICT (name) DO UPDATE SET value = excluded.value`,
    migrations: [v1] as const,
  };
}

/**
 * The migrations to run on a schema at `version` (0 when there is none yet).
 * @throws Error if the schema is newer than this package understands.
 */
export function migrationsFrom(version: number, prefix: string, migrations: readonly string[]): readonly string[] {
  if (version > SCHEMA_VERSION) {
    throw new Error(
      `${prefix}meta says schema version ${version}, newer than this @retrysafe/spec understands (${SCHEMA_VERSION}): upgrade the package`,
    );
  }
  return migrations.slice(version, SCHEMA_VERSION);
}

/**
 * The run record's upsert, `mergeRun` in one statement: insert the fresh run, or keep a live one's
 * id and creation time and raise its expiry, or replace an expired one. Bound in `runValues` order.
 * With `storeNowMs` (an SQL expression for the server's clock in epoch ms) the open is stamped by
 * the server's clock: its time is the server's, its expiry moved by the same amount.
 */
export function upsertRunSql(runsTable: string, sql: SqlDialect, storeNowMs?: string): string {
  const expired = 'r.expires_at <= excluded.created_at';
  const createdAt = storeNowMs ?? sql.param(4, 'bigint');
  const expiresAt = storeNowMs ? `${sql.param(5, 'bigint')} + (${storeNowMs} - ${sql.param(4, 'bigint')})` : sql.param(5, 'bigint');
  return `
    INSERT INTO ${runsTable} AS r (namespace, origin, id, created_at, expires_at)
    VALUES (${sql.param(1)}, ${sql.param(2)}, ${sql.param(3)}, ${createdAt}, ${expiresAt})
    ON CONFLICT (namespace, origin) DO UPDATE SET
      id = CASE WHEN ${expired} THEN excluded.id ELSE r.id END,
      created_at = CASE WHEN ${expired} THEN excluded.created_at ELSE r.created_at END,
      expires_at = ${sql.greatest}(CASE WHEN ${expired} THEN 0 ELSE r.expires_at END, excluded.expires_at)
    RETURNING *`;
}

/** A fresh run's values for `upsertRunSql`. */
export function runValues(fresh: StoredRun): (string | number)[] {
  return [fresh.namespace, fresh.origin, fresh.id, fresh.createdAt, fresh.expiresAt];
}

/** Turn a run row into a run record. */
export function rowToRun(row: RunRow, created: boolean): RunRecord {
  return {
    namespace: row.namespace,
    origin: row.origin,
    id: row.id,
    createdAt: Number(row.created_at),
    expiresAt: Number(row.expires_at),
    created,
  };
}

/** Table prefixes are spliced into SQL, so only plain identifiers are accepted. */
export function checkTablePrefix(prefix: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,40}$/.test(prefix)) {
    throw new TypeError(
      `tablePrefix ${JSON.stringify(prefix)} is not a plain SQL identifier: use letters, digits and _ (at most 41 characters, not starting with a digit)`,
    );
  }
  return prefix;
}
