/**
 * Row mapping shared by the SQL stores (SQLite and PostgreSQL): one column per record field,
 * snake_case, times as integer epoch ms. Imports no driver.
 *
 * @module
 */
import type { AttemptError, DedupRecord, RunRecord } from './types.js';

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
