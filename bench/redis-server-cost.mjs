// What a first call and a replay cost the Redis server, per call, for the runner + Redis store and
// for Powertools' idempotency over ioredis and over @redis/client: commands by name, the server's
// own time in them (INFO commandstats usec), its whole CPU (INFO cpu: commands, parsing, socket
// reads and writes, the event loop), the bytes each way and the socket reads and writes the server
// handled (INFO stats). Counts the server keeps, so they do not depend on the machine's load as
// ops/s does; run it on a server of your own, nothing else talking to it (the deltas are the
// whole server's).
//
//   node bench/redis-server-cost.mjs --url redis://127.0.0.1:6391 [--calls 5000] [--concurrency 1,8,64]
//                                    [--targets redis,powertools-ioredis,powertools] [--rounds 1]
//
// Every key carries a per-run tag and is removed at the end.
import { createClient } from '@redis/client';
import { IdempotencyConfig, makeIdempotent } from '@aws-lambda-powertools/idempotency';
import { CachePersistenceLayer } from '@aws-lambda-powertools/idempotency/cache';
import { Redis } from 'ioredis';
import { createRunner, defineTool, key, openRun } from '@retrysafe/spec';
import { createRedisStore } from '@retrysafe/spec/stores/redis';

import { median, readFlags, table } from './lib.mjs';
import { deleteKeys, ioredisCacheClient, LAMBDA_CONTEXT, refundOf, refundTool } from './runtimeShared.mjs';

const flags = readFlags(['url', 'calls', 'concurrency', 'targets', 'rounds']);
if (!flags.url) throw new Error('--url of a Redis server of your own (its INFO deltas are the whole server\'s)');
const calls = Number(flags.calls ?? 5000);
const rounds = Number(flags.rounds ?? 1);
const concurrencies = (flags.concurrency ?? '1,8,64').split(',').map(Number);
const names = (flags.targets ?? 'redis,powertools-ioredis,powertools').split(',');
const tag = `${Date.now().toString(36)}${process.pid}`;

const handler = async (input) => refundOf(input);
const tool = refundTool({ defineTool, key }, handler);

/** The server's counters: commandstats (calls, usec per command), CPU seconds, bytes, socket events. */
async function snapshot(admin) {
  const stats = await admin.info('commandstats');
  const commands = {};
  for (const m of stats.matchAll(/^cmdstat_(\S+?):calls=(\d+),usec=(\d+)/gm)) commands[m[1]] = { calls: Number(m[2]), usec: Number(m[3]) };
  const text = `${await admin.info('cpu')}\n${await admin.info('stats')}`;
  const field = (name) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(text)?.[1] ?? NaN);
  return {
    commands,
    cpu: field('used_cpu_user') + field('used_cpu_sys'),
    inBytes: field('total_net_input_bytes'),
    outBytes: field('total_net_output_bytes'),
    reads: field('total_reads_processed'),
    writes: field('total_writes_processed'),
  };
}

function delta(before, after, n) {
  const commands = {};
  let usec = 0;
  let count = 0;
  for (const [name, a] of Object.entries(after.commands)) {
    const b = before.commands[name] ?? { calls: 0, usec: 0 };
    // INFO itself and the snapshot's commands are the probe's, not the call's.
    if (name === 'info' || a.calls === b.calls) continue;
    commands[name] = (a.calls - b.calls) / n;
    usec += a.usec - b.usec;
    count += a.calls - b.calls;
  }
  return {
    commands,
    commandsPerCall: count / n,
    commandUsecPerCall: usec / n,
    serverCpuUsPerCall: ((after.cpu - before.cpu) * 1e6) / n,
    inBytesPerCall: (after.inBytes - before.inBytes) / n,
    outBytesPerCall: (after.outBytes - before.outBytes) / n,
    readsPerCall: (after.reads - before.reads) / n,
    writesPerCall: (after.writes - before.writes) / n,
  };
}

async function setUp(name) {
  if (name === 'redis') {
    const client = new Redis(flags.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await client.connect();
    const store = createRedisStore({ client, keyPrefix: `rscost:${tag}:${name}:`, allowVolatile: true });
    await store.ready();
    const run = await openRun(store, { kind: 'job', id: `bench-${tag}` });
    const runner = createRunner({ store, purgeEveryMs: 0 });
    return { call: (input) => runner.call(tool, input, { run }), close: async () => { await store.close(); await client.quit(); } };
  }
  const powertools = (client, keyPrefix) => {
    const persistenceStore = new CachePersistenceLayer({ client });
    return makeIdempotent(handler, { persistenceStore, keyPrefix, config: new IdempotencyConfig({ lambdaContext: LAMBDA_CONTEXT }) });
  };
  if (name === 'powertools-ioredis') {
    const client = new Redis(flags.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await client.connect();
    return { call: powertools(ioredisCacheClient(client), `rscost:${tag}:pti`), close: () => client.quit() };
  }
  if (name === 'powertools') {
    const client = await createClient({ url: flags.url }).connect();
    return { call: powertools(client, `rscost:${tag}:pt`), close: () => client.quit() };
  }
  throw new Error(`unknown target ${name}; known: redis, powertools-ioredis, powertools`);
}

async function drive(call, inputs, concurrency) {
  let next = 0;
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    for (let i = next++; i < inputs.length; i = next++) await call(inputs[i]);
  }));
  const cpu = process.cpuUsage(cpu0);
  return { opsPerSec: inputs.length / ((performance.now() - t0) / 1000), clientCpuUsPerCall: (cpu.user + cpu.system) / inputs.length };
}

const admin = new Redis(flags.url, { maxRetriesPerRequest: 1 });
const targets = [];
for (const name of names) targets.push({ name, ...(await setUp(name)) });
const results = [];
try {
  for (const t of targets) {
    const warm = Array.from({ length: 1000 }, (_, i) => ({ orderId: `warm-${t.name}-${i}`, amountCents: 100 }));
    await drive(t.call, warm, 8);
    await drive(t.call, warm, 8);
  }
  for (let round = 0; round < rounds; round += 1) {
    for (const concurrency of concurrencies) {
      for (const t of round % 2 ? [...targets].reverse() : targets) {
        const inputs = Array.from({ length: calls }, (_, i) => ({ orderId: `o-${round}-${concurrency}-${i}`, amountCents: 500 + (i % 100) }));
        for (const phase of ['first', 'replay']) {
          const before = await snapshot(admin);
          const client = await drive(t.call, inputs, concurrency);
          const after = await snapshot(admin);
          results.push({ target: t.name, concurrency, phase, round, ...client, ...delta(before, after, calls) });
        }
      }
    }
  }
} finally {
  for (const t of targets) await t.close();
  await deleteKeys(admin, `rscost:${tag}:*`);
  await admin.quit();
}

const rows = [];
for (const concurrency of concurrencies) {
  for (const phase of ['first', 'replay']) {
    for (const { name } of targets) {
      const rs = results.filter((r) => r.target === name && r.concurrency === concurrency && r.phase === phase);
      const m = (f) => median(rs.map(f));
      rows.push([
        name, String(concurrency), phase,
        Object.entries(rs[0].commands).map(([c, n]) => `${c} ${n.toFixed(2)}`).join(', '),
        m((r) => r.commandUsecPerCall).toFixed(2), m((r) => r.serverCpuUsPerCall).toFixed(1),
        m((r) => r.inBytesPerCall).toFixed(0), m((r) => r.outBytesPerCall).toFixed(0),
        m((r) => r.readsPerCall).toFixed(2), m((r) => r.writesPerCall).toFixed(2),
        m((r) => r.clientCpuUsPerCall).toFixed(1), Math.round(m((r) => r.opsPerSec)).toLocaleString('en'),
      ]);
    }
  }
}
console.log(`per call, median of ${rounds} round(s) of ${calls} calls; server counters are the whole server's (INFO deltas)\n`);
console.log(table(['target', 'callers', 'phase', 'commands per call', 'cmd µs', 'server cpu µs', 'bytes in', 'bytes out', 'server reads', 'server writes', 'client cpu µs', 'ops/s'], rows, 4));
