// Instruction counts of the runner's own work per call: what a first call and a replay of the
// refund tool cost through `runner.call`, above the bare handler, on the memory store (the runner
// alone) and on the shared Redis (the runner and the store's client side: time spent waiting on the
// network is not instructions, so this is the client CPU of a call, whatever the machine's load).
// Optionally Powertools' makeIdempotent over ioredis on the same Redis, the same way.
//
//   node bench/runner-instructions.mjs [--calls 2000] [--warm 2000] [--rounds 1] [--stores memory,redis,powertools-ioredis]
//                                      [--base <folder>] [--jobs 2] [--out /tmp/runner-instructions.json]
//   node bench/runner-instructions.mjs --child 1 --build cur --store memory --mode first --calls 2000 --warm 2000   (one process, what valgrind runs)
//
// `--base <folder>`: another build of packages/spec (a folder with dist/, e.g. an earlier commit's
// packages/spec, built), measured in the same run beside this checkout's. Its dist/ is copied to
// packages/spec/.bench-base/dist (gitignored) so that it resolves this checkout's dependency copies
// (the same ioredis, whose `instanceof Redis` the store tests, and the same @opentelemetry/api).
//
// Each count is one whole process under valgrind (bench/lib.mjs countInstructionsOf: cachegrind,
// `node --predictable --no-memory-reducer`). Every process sets up the same way (the build, the store, a run), warms
// up with `--warm` first calls and their replays, then does `--calls` of one thing (its mode):
//   bare   the bare handler, awaited as the runner awaits it (the baseline);
//   first  first calls on fresh keys;
//   both   first calls, then the same calls again (replays).
// Per call: first = (I(first) - I(bare)) / calls; replay = (I(both) - I(first)) / calls.
import { cpus, loadavg } from 'node:os';
import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { countInstructionsOf, formatLoad, median, readFlags, table } from './lib.mjs';
import { deleteKeys, ioredisCacheClient, LAMBDA_CONTEXT, refundOf, refundTool } from './runtimeShared.mjs';

const benchDir = dirname(fileURLToPath(import.meta.url));
const specDir = join(benchDir, '..', 'packages', 'spec');
const baseDir = join(specDir, '.bench-base');
const REDIS_URL = process.env.RETRYSAFE_REDIS_URL ?? 'redis://127.0.0.1:6379';
const flags = readFlags(['child', 'build', 'store', 'mode', 'calls', 'warm', 'rounds', 'stores', 'base', 'jobs', 'out']);
const calls = Number(flags.calls ?? 2000);
const warm = Number(flags.warm ?? 2000);

/** The dist folder of a build: `cur` is this checkout's, `base` the copy of `--base`. */
const distOf = (build) => join(build === 'base' ? baseDir : specDir, 'dist');

async function child() {
  const { build, store: storeName, mode } = flags;
  const tag = `${process.pid}-${Date.now()}`;
  let effects = 0;
  const handler = async (input) => {
    effects += 1;
    return refundOf(input);
  };
  const inputs = (phase, n) => Array.from({ length: n }, (_, i) => ({ orderId: `${phase}-${i}`, amountCents: 500 + i }));
  let call;
  let cleanup = async () => {};
  if (storeName === 'powertools-ioredis') {
    const { Redis } = await import('ioredis');
    const { IdempotencyConfig, makeIdempotent } = await import('@aws-lambda-powertools/idempotency');
    const { CachePersistenceLayer } = await import('@aws-lambda-powertools/idempotency/cache');
    const client = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await client.connect();
    const persistenceStore = new CachePersistenceLayer({ client: ioredisCacheClient(client) });
    const keyPrefix = `rsbench-instr:${tag}:powertools`;
    const idempotent = makeIdempotent(handler, { persistenceStore, keyPrefix, config: new IdempotencyConfig({ lambdaContext: LAMBDA_CONTEXT }) });
    call = idempotent;
    cleanup = async () => {
      await deleteKeys(client, `${keyPrefix}*`);
      await client.quit();
    };
  } else {
    const dist = distOf(build);
    const spec = await import(pathToFileURL(join(dist, 'index.js')).href);
    let store;
    if (storeName === 'memory') {
      store = (await import(pathToFileURL(join(dist, 'stores', 'memory.js')).href)).createNonDurableMemoryStore();
    } else if (storeName === 'redis') {
      const { Redis } = await import('ioredis');
      const client = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
      await client.connect();
      const keyPrefix = `rsbench-instr:${tag}:`;
      store = (await import(pathToFileURL(join(dist, 'stores', 'redis.js')).href)).createRedisStore({ client, keyPrefix, allowVolatile: true });
      cleanup = async () => {
        await deleteKeys(client, `${keyPrefix}*`);
        await client.quit();
      };
    } else throw new Error(`unknown store ${storeName}; known: memory, redis, powertools-ioredis`);
    await store.ready();
    const run = await spec.openRun(store, { kind: 'job', id: `bench-${tag}` });
    const runner = spec.createRunner({ store, purgeEveryMs: 0 });
    const tool = refundTool(spec, handler);
    call = (input) => runner.call(tool, input, { run });
  }
  const sequentially = async (fn, list) => {
    for (const input of list) await fn(input);
  };
  const warmInputs = inputs('warm', warm);
  await sequentially(call, warmInputs);
  await sequentially(call, warmInputs);
  const measured = inputs('measured', calls);
  const effectsBefore = effects;
  if (mode === 'bare') await sequentially(handler, measured);
  else if (mode === 'first' || mode === 'both') {
    await sequentially(call, measured);
    if (mode === 'both') await sequentially(call, measured);
  } else throw new Error(`unknown mode ${mode}; known: bare, first, both`);
  // The bench's own check: each measured input ran its effect once (replays ran none).
  if (effects - effectsBefore !== calls) throw new Error(`${storeName}/${mode}: ${effects - effectsBefore} effects for ${calls} inputs`);
  await cleanup();
  console.log(JSON.stringify({ build, store: storeName, mode, calls, effects: effects - effectsBefore }));
}

async function parent() {
  const rounds = Number(flags.rounds ?? 1);
  const stores = (flags.stores ?? 'memory,redis,powertools-ioredis').split(',');
  const builds = ['cur'];
  if (flags.base) {
    const from = join(resolve(flags.base), 'dist');
    if (!existsSync(join(from, 'index.js'))) throw new Error(`--base ${flags.base}: no dist/index.js there (build it first)`);
    rmSync(baseDir, { recursive: true, force: true });
    mkdirSync(baseDir, { recursive: true });
    cpSync(from, join(baseDir, 'dist'), { recursive: true });
    builds.push('base');
  }
  const loadavgStart = loadavg();
  const queue = [];
  for (let round = 0; round < rounds; round += 1) {
    for (const store of stores) {
      for (const build of store === 'powertools-ioredis' ? ['-'] : builds) {
        for (const mode of ['bare', 'first', 'both']) queue.push({ round, store, build, mode });
      }
    }
  }
  const runs = [];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const started = Date.now();
      // countInstructionsOf runs node with --no-memory-reducer: V8's memory reducer collects on
      // wall-clock timers, so a process that waits longer on the network would count more GC work.
      const args = [fileURLToPath(import.meta.url), '--child', '1', '--build', next.build, '--store', next.store, '--mode', next.mode, '--calls', String(calls), '--warm', String(warm)];
      const { instructions } = await countInstructionsOf(args, `${next.store} ${next.build} ${next.mode}`);
      runs.push({ ...next, instructions, seconds: (Date.now() - started) / 1000 });
      console.log(`  round ${next.round + 1} ${next.store} ${next.build} ${next.mode}: ${(instructions / 1e6).toFixed(1)}M instructions, ${((Date.now() - started) / 1000).toFixed(0)} s, load ${loadavg()[0].toFixed(2)}`);
    }
  };
  await Promise.all(Array.from({ length: Number(flags.jobs ?? 2) }, worker));
  const count = (store, build, mode, round) => runs.find((r) => r.store === store && r.build === build && r.mode === mode && r.round === round).instructions;
  const perCall = {};
  for (const store of stores) {
    for (const build of store === 'powertools-ioredis' ? ['-'] : builds) {
      const first = [];
      const replay = [];
      for (let round = 0; round < rounds; round += 1) {
        first.push((count(store, build, 'first', round) - count(store, build, 'bare', round)) / calls);
        replay.push((count(store, build, 'both', round) - count(store, build, 'first', round)) / calls);
      }
      perCall[`${store} ${build}`] = { first: median(first), replay: median(replay), firstPerRound: first, replayPerRound: replay };
    }
  }
  const rows = Object.entries(perCall).map(([name, p]) => [name, Math.round(p.first).toLocaleString('en'), Math.round(p.replay).toLocaleString('en'), spreadOf(p.firstPerRound), spreadOf(p.replayPerRound)]);
  console.log(`\ninstructions per call above the bare handler (median of ${rounds} round${rounds === 1 ? '' : 's'}; ${calls} calls, after ${warm} warm-up calls and replays):\n`);
  console.log(table(['target build', 'first call', 'replay', 'first: spread', 'replay: spread'], rows));
  const ratios = [];
  for (const store of stores) {
    if (flags.base && store !== 'powertools-ioredis') {
      const cur = perCall[`${store} cur`];
      const base = perCall[`${store} base`];
      ratios.push([`${store}: cur / base`, (cur.first / base.first).toFixed(3), (cur.replay / base.replay).toFixed(3)]);
    }
  }
  const powertools = perCall['powertools-ioredis -'];
  if (powertools && perCall['redis cur']) {
    ratios.push(['redis cur / powertools-ioredis', (perCall['redis cur'].first / powertools.first).toFixed(3), (perCall['redis cur'].replay / powertools.replay).toFixed(3)]);
    if (perCall['redis base']) ratios.push(['redis base / powertools-ioredis', (perCall['redis base'].first / powertools.first).toFixed(3), (perCall['redis base'].replay / powertools.replay).toFixed(3)]);
  }
  if (ratios.length > 0) console.log(`\n${table(['ratio (instructions per call)', 'first call', 'replay'], ratios)}`);
  const report = {
    bench: 'runner-instructions',
    date: new Date().toISOString(),
    command: `node bench/runner-instructions.mjs --calls ${calls} --warm ${warm} --rounds ${rounds} --stores ${stores.join(',')}${flags.base ? ` --base ${flags.base}` : ''}`,
    machine: { cpu: cpus()[0]?.model, cores: cpus().length, node: process.version, loadavgStart, loadavgEnd: loadavg() },
    perCall,
    runs,
  };
  const out = flags.out ?? '/tmp/runner-instructions.json';
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nload ${formatLoad(loadavg())}; written: ${relative(process.cwd(), out)}`);
}

/** The spread of per-round figures, as a share of the lowest (0 with one round). */
function spreadOf(xs) {
  const low = Math.min(...xs);
  return `${(((Math.max(...xs) - low) / Math.abs(low)) * 100).toFixed(1)}%`;
}

await (flags.child ? child() : parent());
