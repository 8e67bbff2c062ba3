import type { EffectLibrary } from './catalogue.js';
import { sqlCalls } from './define.js';

/** node-postgres: `new Pool()`, `new Client()`, `await pool.connect()`; `query(text | { text }, values)`. */
export const pg: EffectLibrary = {
  sideEffects: 'internal_write',
  name: 'pg',
  modules: ['pg', 'pg-pool'],
  clients: ['Pool', 'Client', 'default', 'native.Pool', 'native.Client'],
  types: ['PoolClient', 'ClientBase'],
  clientMethods: ['connect'],
  neutral: ['connect', 'end', 'release', 'on', 'once', 'off'],
  operations: sqlCalls(0, 'query'),
};

/** Postgres.js: `const sql = postgres(url)`; ``sql`…` ``, `sql.unsafe(text)`, `sql.begin(async (sql) => …)`. */
export const postgresJs: EffectLibrary = {
  sideEffects: 'internal_write',
  name: 'postgres',
  modules: ['postgres'],
  clients: ['default'],
  types: ['Sql'],
  transactionMethods: ['begin', 'reserve'],
  neutral: ['end', 'close', 'listen'],
  operations: [...sqlCalls(0, '', 'unsafe'), { call: 'notify', kind: 'create', key: 'none', does: 'sends a notification' }],
};

/** `@vercel/postgres`: the `sql` tag and `db` are exported ready to use; `createPool()` / `createClient()` make more. */
export const vercelPostgres: EffectLibrary = {
  sideEffects: 'internal_write',
  name: '@vercel/postgres',
  modules: ['@vercel/postgres'],
  clients: ['', 'createPool', 'createClient'],
  types: ['VercelPool', 'VercelClient'],
  clientMethods: ['connect'],
  neutral: ['end', 'release'],
  operations: sqlCalls(0, 'sql', 'sql.query', 'db.query', 'db.sql', 'query'),
};

/** Neon's serverless driver: `neon(url)` gives a tag (and `.query(text)`); `Pool` and `Client` speak node-postgres. */
export const neon: EffectLibrary = {
  sideEffects: 'internal_write',
  name: '@neondatabase/serverless',
  modules: ['@neondatabase/serverless'],
  clients: ['neon', 'Pool', 'Client'],
  clientMethods: ['connect'],
  transactionMethods: ['transaction'],
  neutral: ['end', 'release'],
  operations: sqlCalls(0, '', 'query', 'unsafe'),
};

/** mysql2 (callback and promise APIs) and mysql: `createPool()`, `createConnection()`; `query` / `execute(sql | { sql })`. */
export const mysql: EffectLibrary = {
  sideEffects: 'internal_write',
  name: 'mysql2',
  modules: ['mysql2', 'mysql2/promise', 'mysql'],
  clients: ['createPool', 'createConnection', 'createPoolCluster'],
  types: ['Pool', 'Connection', 'PoolConnection'],
  clientMethods: ['getConnection', 'promise'],
  neutral: ['getConnection', 'end', 'release', 'on', 'beginTransaction', 'commit', 'rollback', 'destroy'],
  operations: sqlCalls(0, 'query', 'execute'),
};

/** better-sqlite3: `new Database(file)`; `db.prepare(sql).run() / .get() / .all()`, `db.exec(sql)`. */
export const betterSqlite3: EffectLibrary = {
  sideEffects: 'internal_write',
  name: 'better-sqlite3',
  modules: ['better-sqlite3'],
  clients: ['default'],
  types: ['Database'],
  neutral: ['close', 'pragma', 'transaction', 'function', 'aggregate'],
  operations: sqlCalls(0, 'prepare', 'exec'),
};

/** sqlite3 (`new sqlite3.Database(file)`) and its promise wrapper sqlite (`await open({ filename, driver })`). */
export const sqlite3: EffectLibrary = {
  sideEffects: 'internal_write',
  name: 'sqlite3',
  modules: ['sqlite3', 'sqlite'],
  clients: ['Database', 'verbose.Database', 'open'],
  neutral: ['close', 'serialize', 'parallelize', 'configure', 'on'],
  operations: sqlCalls(0, 'run', 'get', 'all', 'each', 'exec', 'prepare'),
};

/** libSQL / Turso: `createClient({ url })`; `execute(sql | { sql, args })`. */
export const libsql: EffectLibrary = {
  sideEffects: 'internal_write',
  name: '@libsql/client',
  modules: ['@libsql/client', '@libsql/client/web'],
  clients: ['createClient'],
  types: ['Client'],
  neutral: ['close', 'sync'],
  operations: [...sqlCalls(0, 'execute'), { call: 'batch', kind: 'unknown' }],
};
