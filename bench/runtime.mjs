// Runtime benchmark: what a first call and a replay cost through the runner on each durable store,
// against the bare handler and against @aws-lambda-powertools/idempotency on the same Redis, all
// measured interleaved in one run. Figures are ratios and percentiles, never assertions.
//
//   node bench/runtime.mjs [--rounds 3] [--calls 2000] [--concurrency 1,8,64]
//                          [--targets bare,memory,sqlite,postgres,redis,redis-aa,redis-store,powertools,powertools-ioredis,valkey,redis-cluster]
//                          [--out bench/results/runtime.json]   (a trial run: --out elsewhere, or it replaces the committed results)
//
// Traffic goes only to 127.0.0.1 (RETRYSAFE_PG_URL / RETRYSAFE_REDIS_URL override). `valkey` and
// `redis-cluster` run on a Valkey server and a three-primary Redis Cluster that the bench starts on
// free local ports and stops at the end (bench/servers.mjs). `redis-aa` is the A/A control: a
// second target identical to `redis`, whose ratio to it is this run's noise. Every table and
// key it writes carries a per-run tag and is removed at the end.
//
// Round trips are counted in the drivers, not assumed: pg's Client#query, ioredis's and
// @redis/client's sendCommand, and better-sqlite3's Statement#run/get/all/iterate (in-process
// statements: SQLite has no round trip, but each statement is a step).
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';

import { createClient } from '@redis/client';
import { IdempotencyConfig, makeIdempotent } from '@aws-lambda-powertools/idempotency';
import { CachePersistenceLayer } from '@aws-lambda-powertools/idempotency/cache';
import Database from 'better-sqlite3';
import { Cluster, Redis } from 'ioredis';
import pg from 'pg';
import { createRunner, defineTool, key, openRun } from '@retrysafe/spec';
import { createNonDurableMemoryStore } from '@retrysafe/spec/stores/memory';
import { createPostgresStore } from '@retrysafe/spec/stores/postgres';
import { createRedisStore } from '@retrysafe/spec/stores/redis';
import { startRedisCluster, startValkey } from './servers.mjs';
import { createSqliteStore } from '@retrysafe/spec/stores/sqlite';

import { formatLoad as fmtLoad, median, readFlags, table } from './lib.mjs';
import { deleteKeys, ioredisCacheClient, LAMBDA_CONTEXT, refundOf, refundTool } from './runtimeShared.mjs';

const benchDir = dirname(fileURLToPath(import.meta.url));
const PG_URL = process.env.RETRYSAFE_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.RETRYSAFE_REDIS_URL ?? 'redis://127.0.0.1:6379';
const ALL_TARGETS = ['bare', 'memory', 'sqlite', 'postgres', 'redis', 'redis-aa', 'redis-store', 'powertools', 'powertools-ioredis', 'valkey', 'redis-cluster'];
const TARGET_LABELS = {
  bare: 'bare handler (no runner)',
  memory: 'runner + non-durable memory store',
  sqlite: 'runner + SQLite file (WAL, synchronous=NORMAL)',
  postgres: 'runner + PostgreSQL (pg.Pool, default 10 connections)',
  redis: 'runner + Redis (ioredis)',
  'redis-aa': 'runner + Redis (ioredis), a second identical target: the A/A control',
  valkey: 'runner + Valkey (ioredis; a server the bench starts, appendonly yes)',
  'redis-cluster': 'runner + Redis Cluster, three primaries (ioredis Cluster; servers the bench starts, appendonly yes)',
  'redis-store': 'the Redis store alone, no runner: claim, effect, completion (where the runner\'s own cost shows)',
  powertools: 'powertools makeIdempotent + CachePersistenceLayer (@redis/client)',
  'powertools-ioredis': 'powertools makeIdempotent + CachePersistenceLayer (ioredis adapter)',
};

// ---------------------------------------------------------------------------------------------
// Round-trip counters, installed in the drivers.

/** pg: every query any pooled client sends. */
function countPgQueries() {
  const counter = { n: 0 };
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function (...args) {
    counter.n += 1;
    return original.apply(this, args);
  };
  return counter;
}

/** better-sqlite3: every statement execution (the Statement class is shared by every database). */
function countSqliteStatements() {
  const counter = { n: 0 };
  const probe = new Database(':memory:');
  const proto = Object.getPrototypeOf(probe.prepare('SELECT 1'));
  for (const method of ['run', 'get', 'all', 'iterate']) {
    const original = proto[method];
    proto[method] = function (...args) {
      counter.n += 1;
      return original.apply(this, args);
    };
  }
  probe.close();
  return counter;
}

/** ioredis or @redis/client: every command the client sends. */
function countCommands(client) {
  const counter = { n: 0 };
  const target = client._self ?? client; // @redis/client routes commands through its _self
  const original = target.sendCommand;
  target.sendCommand = function (...args) {
    counter.n += 1;
    return original.apply(this, args);
  };
  return counter;
}

// ---------------------------------------------------------------------------------------------
// The tool: a with_key refund whose effect is free, so every microsecond measured is the layer's.

let effects = 0;
/** Effects per order, so a wrapper that does not report replays can be judged per call. */
const effectsByOrder = new Map();
/** Raised only by the concurrent-duplicate check, to hold the effect open while a second call lands. */
let handlerDelayMs = 0;
const handler = async (input) => {
  effects += 1;
  effectsByOrder.set(input.orderId, (effectsByOrder.get(input.orderId) ?? 0) + 1);
  if (handlerDelayMs > 0) await sleep(handlerDelayMs);
  return refundOf(input);
};

const issueRefund = refundTool({ defineTool, key }, handler);

// ---------------------------------------------------------------------------------------------
// Targets: each gives `call(input)` and, where it has one, the counter of its round trips.

/** Versions of the servers the bench started itself, for the report. */
const serverVersions = {};

async function setUpTargets(names, tag) {
  const targets = [];
  const cleanups = [];
  const pgQueries = countPgQueries();
  const sqliteStatements = countSqliteStatements();

  const viaRunner = async (name, store, counter, unit) => {
    await store.ready();
    const run = await openRun(store, { kind: 'job', id: `bench-${tag}` });
    // Defaults as a user gets them (heartbeat on, 24 h TTL), but no background purge mid-measure.
    const runner = createRunner({ store, purgeEveryMs: 0 });
    targets.push({
      name,
      counter,
      unit,
      call: async (input) => {
        const outcome = await runner.call(issueRefund, input, { run });
        return outcome.replayed;
      },
    });
    cleanups.push(() => store.close());
  };

  for (const name of names) {
    switch (name) {
      case 'bare':
        targets.push({ name, call: async (input) => (await handler(input), false) });
        break;
      case 'memory':
        await viaRunner(name, createNonDurableMemoryStore(), undefined);
        break;
      case 'sqlite': {
        const folder = mkdtempSync(join(tmpdir(), 'retrysafe-bench-sqlite-'));
        await viaRunner(name, createSqliteStore({ path: join(folder, 'dedup.db') }), sqliteStatements, 'statements');
        cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
        break;
      }
      case 'postgres': {
        const pool = new pg.Pool({ connectionString: PG_URL });
        const prefix = `rsbench_${tag}_`;
        await viaRunner(name, createPostgresStore({ pool, tablePrefix: prefix }), pgQueries, 'queries');
        cleanups.push(async () => {
          await pool.query(`DROP TABLE IF EXISTS ${prefix}dedup, ${prefix}runs, ${prefix}meta`);
          await pool.end();
        });
        break;
      }
      case 'redis':
      case 'redis-aa': {
        const client = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
        await client.connect();
        await viaRunner(name, createRedisStore({ client, keyPrefix: `rsbench:${tag}:${name}:`, allowVolatile: true }), countCommands(client), 'commands');
        cleanups.push(async () => {
          await deleteKeys(client, `rsbench:${tag}:*`);
          await client.quit();
        });
        break;
      }
      case 'valkey': {
        const server = await startValkey();
        serverVersions.valkey = server.version;
        const client = new Redis(server.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
        await client.connect();
        await viaRunner(name, createRedisStore({ client, keyPrefix: `rsbench:${tag}:valkey:` }), countCommands(client), 'commands');
        cleanups.push(async () => {
          await client.quit();
          await server.stop();
        });
        break;
      }
      case 'redis-cluster': {
        const cluster = await startRedisCluster();
        serverVersions.redisCluster = `${cluster.version}, 3 primaries`;
        const client = new Cluster(cluster.nodes.map((url) => ({ host: '127.0.0.1', port: Number(new URL(url).port) })), { redisOptions: { maxRetriesPerRequest: 1 } });
        await viaRunner(name, createRedisStore({ client, keyPrefix: `rsbench:${tag}:cluster:` }), countCommands(client), 'commands');
        cleanups.push(async () => {
          await client.quit();
          await cluster.stop();
        });
        break;
      }
      case 'redis-store': {
        // The store's share of a call: what the runner adds (validation, key, fingerprint, result
        // check, heartbeat) is the difference from \`redis\`. Same client options, fixed fingerprint.
        const client = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
        await client.connect();
        const store = createRedisStore({ client, keyPrefix: `rsbench:${tag}:store:`, allowVolatile: true });
        targets.push({ name, counter: countCommands(client), unit: 'commands', call: storeOnlyCall(store, tag) });
        cleanups.push(async () => {
          await store.close();
          await client.quit();
        });
        break;
      }
      case 'powertools': {
        // The documented setup: a connected @redis/client passed to the cache persistence layer.
        const client = await createClient({ url: REDIS_URL }).connect();
        const counter = countCommands(client);
        targets.push({
          name,
          counter,
          unit: 'commands',
          call: powertoolsCall(client, `rsbench:${tag}:powertools`),
          // The same layer as powertools sets it up outside Lambda when nobody registers a context.
          duplicateVariants: { 'powertools, no Lambda context': powertoolsCall(client, `rsbench:${tag}:powertools-nocontext`, { lambdaContext: false }) },
        });
        cleanups.push(() => client.quit());
        break;
      }
      case 'powertools-ioredis': {
        // The same layer over ioredis, the client retrysafe's Redis store uses: isolates the library
        // from the client (TOOLCHAIN.md measured @redis/client ~2.4x slower under concurrency).
        const client = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
        await client.connect();
        const counter = countCommands(client);
        targets.push({ name, counter, unit: 'commands', call: powertoolsCall(ioredisCacheClient(client), `rsbench:${tag}:powertools-ioredis`) });
        cleanups.push(() => client.quit());
        break;
      }
      default:
        throw new Error(`unknown target ${name}; known: ${ALL_TARGETS.join(', ')}`);
    }
  }
  return { targets, cleanup: async () => { for (const c of cleanups.reverse()) await c(); } };
}

function powertoolsCall(client, keyPrefix, { lambdaContext = true } = {}) {
  const persistenceStore = new CachePersistenceLayer({ client });
  const config = new IdempotencyConfig(lambdaContext ? { lambdaContext: LAMBDA_CONTEXT } : {});
  // The whole input is hashed into the key (the default), as retrysafe fingerprints it.
  const idempotent = makeIdempotent(handler, { persistenceStore, keyPrefix, config });
  // makeIdempotent does not say whether it replayed; a replay is a call during which its order's
  // effect did not run (keys are distinct per order, so concurrent callers do not blur this).
  return async (input) => {
    const before = effectsByOrder.get(input.orderId) ?? 0;
    await idempotent(input);
    return (effectsByOrder.get(input.orderId) ?? 0) === before;
  };
}

/** A with_key call made on the store directly: claim; on a fresh claim run the effect and complete. */
function storeOnlyCall(store, tag) {
  const FINGERPRINT = '0'.repeat(64);
  return async (input) => {
    const now = Date.now();
    const { outcome, record } = await store.claim({
      namespace: '', tool: 'issue_refund', key: `bench-${tag}:${input.orderId}:refund`, fingerprint: FINGERPRINT,
      owner: randomUUID(), now, lockMs: 30_000, ttlMs: 86_400_000, maxAttempts: 1,
    });
    if (outcome === 'completed') return true;
    if (outcome !== 'claimed') throw new Error(`redis-store: unexpected claim outcome ${outcome}`);
    const result = await handler(input);
    await store.complete(record, { now: Date.now(), ttlMs: 86_400_000, result: JSON.stringify(result), resultError: undefined });
    return false;
  };
}

// ---------------------------------------------------------------------------------------------
// Measuring

/** Runs `inputs` through `call` with `concurrency` callers, each taking the next input; bounded by `maxMs`. */
async function measure(target, inputs, concurrency, maxMs) {
  const latencies = new Float64Array(inputs.length);
  let next = 0;
  let done = 0;
  let replays = 0;
  const effectsBefore = effects;
  const tripsBefore = target.counter?.n ?? 0;
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const deadline = t0 + maxMs;
  async function caller() {
    for (;;) {
      const i = next++;
      if (i >= inputs.length || performance.now() > deadline) return;
      const start = performance.now();
      const replayed = await target.call(inputs[i]);
      latencies[done++] = performance.now() - start;
      if (replayed) replays += 1;
    }
  }
  await Promise.all(Array.from({ length: concurrency }, caller));
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const sorted = Array.from(latencies.subarray(0, done)).sort((a, b) => a - b);
  return {
    calls: done,
    wallMs,
    opsPerSec: (done / wallMs) * 1000,
    // This process's CPU (user + system) per call: with 64 callers on 2 cores the client side is
    // CPU-bound, so this is what throughput is inverse to.
    cpuUsPerCall: (cpu.user + cpu.system) / done,
    p50Us: percentile(sorted, 0.5) * 1000,
    p99Us: percentile(sorted, 0.99) * 1000,
    latenciesMs: sorted,
    replays,
    effects: effects - effectsBefore,
    tripsPerCall: target.counter ? (target.counter.n - tripsBefore) / done : undefined,
  };
}

function percentile(sorted, q) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

/** Runs `fn` with console.warn counted instead of printed (powertools warns on every call without a context). */
async function quietly(fn) {
  const warn = console.warn;
  let warnings = 0;
  console.warn = () => {
    warnings += 1;
  };
  try {
    return { ...(await fn()), warnings };
  } finally {
    console.warn = warn;
  }
}

/** Two callers at once on one key whose effect takes 20 ms: how many times does the effect run? */
async function concurrentDuplicate(target, tag) {
  const slow = { orderId: `dup-${tag}-${target.name}`, amountCents: 500 };
  const before = effects;
  const original = handlerDelayMs;
  handlerDelayMs = 20;
  const outcomes = await Promise.allSettled([target.call(slow), target.call(slow)]);
  handlerDelayMs = original;
  const afterBoth = effects - before;
  const third = await target.call(slow).then((replayed) => (replayed ? 'replayed' : 'ran'), (error) => error.name);
  return {
    effects: effects - before,
    effectsDuringOverlap: afterBoth,
    outcomes: outcomes.map((o) => (o.status === 'fulfilled' ? (o.value ? 'replayed' : 'ran') : o.reason?.name ?? 'error')),
    thirdCall: third,
  };
}

// ---------------------------------------------------------------------------------------------
// Main

async function main() {
  const args = readFlags(['rounds', 'calls', 'concurrency', 'targets', 'max-phase-ms', 'out']);
  const rounds = Number(args.rounds ?? 3);
  const callsPerPhase = Number(args.calls ?? 2000);
  const concurrencies = (args.concurrency ?? '1,8,64').split(',').map(Number);
  const names = (args.targets ?? ALL_TARGETS.join(',')).split(',');
  const maxPhaseMs = Number(args['max-phase-ms'] ?? 20_000);
  const out = args.out ?? join(benchDir, 'results', 'runtime.json');
  const tag = `${Date.now().toString(36)}${process.pid}`;

  const { targets, cleanup } = await setUpTargets(names, tag);
  const loadStart = loadavg();
  console.log(`runtime bench: ${targets.map((t) => t.name).join(', ')}; ${rounds} rounds x concurrency ${concurrencies.join('/')} x ${callsPerPhase} calls per phase; load average ${fmtLoad(loadStart)}`);
  const results = [];
  try {
    // Warm-up: JIT, connections (pg opens its pool), prepared statements and Lua scripts.
    for (const target of targets) {
      const warm = Array.from({ length: 500 }, (_, i) => ({ orderId: `warm-${tag}-${i}`, amountCents: 100 }));
      await measure(target, warm, 64, maxPhaseMs);
      await measure(target, warm, 64, maxPhaseMs);
    }
    for (let round = 0; round < rounds; round += 1) {
      for (const [ci, concurrency] of concurrencies.entries()) {
        // Rotate the order, and reverse it every other round, so that no target always runs right
        // after the same neighbour (a rotation alone keeps the cycle: \`redis\` always followed
        // \`powertools-ioredis\` and \`redis-aa\` always followed \`redis\`, and the A/A pair differed
        // by 1.3-1.6x the same way in every cell of two runs).
        const rotated = targets.map((_, i) => targets[(i + round + ci) % targets.length]);
        const order = (round + ci) % 2 === 1 ? rotated.reverse() : rotated;
        for (const target of order) {
          const inputs = Array.from({ length: callsPerPhase }, (_, i) => ({ orderId: `o-${tag}-${round}-${concurrency}-${i}`, amountCents: 500 + (i % 100) }));
          const first = await measure(target, inputs, concurrency, maxPhaseMs);
          const replay = await measure(target, inputs.slice(0, first.calls), concurrency, maxPhaseMs);
          for (const [phase, m] of [['first', first], ['replay', replay]]) {
            results.push({ round, concurrency, target: target.name, phase, load: loadavg()[0], ...m });
          }
          // Every first call must run the effect once; every replay must run none.
          if (target.name !== 'bare' && (first.effects !== first.calls || replay.effects !== 0 || replay.replays !== replay.calls)) {
            throw new Error(`${target.name}: first ran ${first.effects} effects for ${first.calls} calls; replay ran ${replay.effects}, replayed ${replay.replays}/${replay.calls}`);
          }
        }
        process.stdout.write(`  round ${round + 1} concurrency ${concurrency} done (load ${loadavg()[0].toFixed(2)})\n`);
      }
    }
    const duplicates = {};
    for (const target of targets) {
      // The bare handler has no dedup, and the store-only target no ConcurrentCallError of its own.
      if (target.name === 'bare' || target.name === 'redis-store') continue;
      duplicates[target.name] = await concurrentDuplicate(target, tag);
      for (const [name, call] of Object.entries(target.duplicateVariants ?? {})) {
        duplicates[name] = await quietly(() => concurrentDuplicate({ name, call }, tag));
      }
    }
    const loadEnd = loadavg();
    const summary = summarise(results, targets, concurrencies);
    const report = {
      bench: 'runtime',
      date: new Date().toISOString(),
      commit: gitCommit(),
      machine: { ...(await machine()), ...serverVersions, loadavgStart: loadStart, loadavgEnd: loadEnd },
      command: `node bench/runtime.mjs --rounds ${rounds} --calls ${callsPerPhase} --concurrency ${concurrencies.join(',')} --targets ${names.join(',')}`,
      targets: Object.fromEntries(targets.map((t) => [t.name, { label: TARGET_LABELS[t.name], roundTripUnit: t.unit }])),
      summary,
      concurrentDuplicate: duplicates,
      runs: results.map(({ latenciesMs, ...rest }) => rest),
    };
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
    printSummary(report, concurrencies);
    console.log(`\nwritten: ${relative(process.cwd(), out)}`);
  } finally {
    await cleanup();
  }
}

function summarise(results, targets, concurrencies) {
  const rows = [];
  for (const concurrency of concurrencies) {
    for (const phase of ['first', 'replay']) {
      const bare = pick(results, 'bare', concurrency, phase);
      for (const target of targets) {
        const runs = pick(results, target.name, concurrency, phase);
        if (runs.length === 0) continue;
        // Percentiles over every call of every round; throughput is the median round's.
        const all = runs.flatMap((r) => Array.from(r.latenciesMs)).sort((a, b) => a - b);
        const row = {
          target: target.name,
          concurrency,
          phase,
          calls: runs.reduce((n, r) => n + r.calls, 0),
          opsPerSec: median(runs.map((r) => r.opsPerSec)),
          p50Us: percentile(all, 0.5) * 1000,
          p99Us: percentile(all, 0.99) * 1000,
          roundTrips: runs[0].tripsPerCall,
          cpuUsPerCall: median(runs.map((r) => r.cpuUsPerCall)),
          roundTripUnit: target.unit,
        };
        if (bare.length > 0) {
          // Per round, against the bare handler measured in the same round, then the median.
          row.opsVsBare = median(runs.map((r) => r.opsPerSec / bare.find((b) => b.round === r.round).opsPerSec));
          row.p50OverBareUs = row.p50Us - percentile(bare.flatMap((r) => Array.from(r.latenciesMs)).sort((a, b) => a - b), 0.5) * 1000;
        }
        rows.push(row);
      }
    }
  }
  // Powertools against retrysafe's Redis store: same server, same rounds.
  const versus = [];
  for (const [a, b] of [['powertools', 'redis'], ['powertools-ioredis', 'redis'], ['powertools-ioredis', 'redis-store'], ['redis', 'redis-aa'], ['redis', 'valkey'], ['redis', 'redis-cluster']]) {
    for (const concurrency of concurrencies) {
      for (const phase of ['first', 'replay']) {
        const ra = pick(results, a, concurrency, phase);
        const rb = pick(results, b, concurrency, phase);
        if (ra.length === 0 || rb.length === 0) continue;
        const perRound = rb.map((r) => r.opsPerSec / ra.find((x) => x.round === r.round).opsPerSec);
        versus.push({
          pair: `${b} / ${a}`,
          concurrency,
          phase,
          throughputRatio: median(perRound),
          // The spread: the lowest and highest of the per-round ratios.
          minRatio: Math.min(...perRound),
          maxRatio: Math.max(...perRound),
        });
      }
    }
  }
  return { rows, versus };
}

function printSummary(report, concurrencies) {
  console.log(`\nmedian ops/s of ${new Set(report.runs.map((r) => r.round)).size} rounds; p50/p99 over all calls; round trips counted in the drivers`);
  for (const concurrency of concurrencies) {
    console.log(`\nconcurrency ${concurrency}`);
    console.log(table(
      ['target', 'phase', 'ops/s', 'p50 µs', 'p99 µs', 'client cpu µs/call', 'vs bare ops', 'round trips/call'],
      report.summary.rows
        .filter((r) => r.concurrency === concurrency)
        .sort((x, y) => (x.phase === y.phase ? 0 : x.phase === 'first' ? -1 : 1))
        .map((r) => [r.target, r.phase, Math.round(r.opsPerSec).toLocaleString('en'), r.p50Us.toFixed(0), r.p99Us.toFixed(0), r.cpuUsPerCall === undefined ? '' : r.cpuUsPerCall.toFixed(1), r.opsVsBare === undefined ? '' : `${(r.opsVsBare * 100).toFixed(2)}%`, r.roundTrips === undefined ? '' : `${r.roundTrips.toFixed(2)} ${r.roundTripUnit}`]),
      2,
    ));
  }
  if (report.summary.versus.length > 0) {
    console.log('\nthroughput ratios, median of the per-round ratios (lowest-highest round); redis-aa / redis is the A/A control:');
    console.log(table(['pair', 'concurrency', 'phase', 'ratio', 'rounds'], report.summary.versus.map((v) => [v.pair, String(v.concurrency), v.phase, `${v.throughputRatio.toFixed(2)}x`, `${v.minRatio.toFixed(2)}-${v.maxRatio.toFixed(2)}x`]), 2));
  }
  console.log('\ntwo concurrent calls on one key (effect takes 20 ms), then a third:');
  console.log(table(['target', 'effects', 'outcomes', 'third call'], Object.entries(report.concurrentDuplicate).map(([name, d]) => [name, String(d.effects), d.outcomes.join(', ') + (d.warnings ? ` (${d.warnings} warnings)` : ''), d.thirdCall]), 2));
}

async function machine() {
  const c = cpus();
  const info = { cpu: c[0]?.model, cores: c.length, node: process.version };
  const db = new Database(':memory:');
  info.sqlite = db.prepare('SELECT sqlite_version() AS v').get().v;
  db.close();
  try {
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    info.postgres = (await client.query('SHOW server_version')).rows[0].server_version;
    await client.end();
  } catch (error) {
    info.postgres = `unreachable: ${error.message}`;
  }
  try {
    const client = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await client.connect();
    info.redis = /redis_version:(\S+)/.exec(await client.info('server'))?.[1];
    await client.quit();
  } catch (error) {
    info.redis = `unreachable: ${error.message}`;
  }
  return info;
}

// ---------------------------------------------------------------------------------------------
// Helpers

/** The commit measured, with `+dirty` when the work tree has uncommitted changes. */
function gitCommit() {
  const git = (...args) => spawnSync('git', args, { cwd: benchDir, encoding: 'utf8' }).stdout.trim();
  const head = git('rev-parse', '--short', 'HEAD');
  return head && git('status', '--porcelain', '--untracked-files=no') ? `${head}+dirty` : head || undefined;
}

function pick(results, target, concurrency, phase) {
  return results.filter((r) => r.target === target && r.concurrency === concurrency && r.phase === phase);
}

await main();
