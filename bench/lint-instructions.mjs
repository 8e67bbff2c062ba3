// Instruction counts of the lint cost on agent code: what `recommended` adds over parsing alone, by a
// measure that does not move with the machine's load. Each variant runs as a whole ESLint process
// under valgrind (`--tool=cachegrind --cache-sim=no`: the instruction count alone; callgrind counts the same instructions, about a third slower) with `node --predictable` (V8 single-threaded: no concurrent
// compiler or GC threads, so GC and compilation are counted on the one thread and the same run
// repeats to within a few tenths of a percent), and the bench reads valgrind's "I refs" total.
//
//   node bench/lint-instructions.mjs [--gc predictable] [--rounds 2] [--step 3] [--variants a,b,a2] [--jobs 6] [--out bench/results/lint-instructions.json]
//   node bench/lint-instructions.mjs --child <variant> --step 3      (one process, what valgrind runs; a diagnostic)
//   --variants ...,b0 --plugin <folder>: b0 is `recommended` from another build of the plugin (e.g. an
//   earlier commit's packages/eslint-plugin, built), for a before/after comparison in the same run
//   --prebuilt 1 --corpus-dir <folder>: lint the source files of a corpus built elsewhere, as they are
//   (e.g. bench/lint.mjs's standard corpus, /tmp/retrysafe-bench-lint-corpus-standard after one
//   `node bench/lint.mjs` run: the effects issue's measure on that bench's 833 files)
//
// The process does what `eslint .` does: `new ESLint({ overrideConfigFile: true, overrideConfig })`
// and `lintFiles` over every `--step`-th file of the agent corpus (bench/agentCorpus.mjs: published
// MCP servers and agent toolkits, pinned in bench/agent-corpus/package.json), start-up, module
// loading and config computation included. Variants:
//   a   the TypeScript parser and no rules (the plugin is not loaded);
//   a2  the same config again, in its own process: the A/A control of the method;
//   b   the parser and the plugin's `recommended` config;
//   empty  the parser and one rule of no plugin that listens to `Program` and does nothing: ESLint's
//       cost for any one configured rule (a diagnostic, not in the default variants);
//   noop  the parser and as many rules as `recommended` has, each listening where ours listen and
//       doing nothing (ESLint's per-rule floor; a diagnostic, not in the default variants);
//   r:<rule>  the parser and one rule of ours (a diagnostic).
// Rounds alternate the order of the variants. The ratios are per round, (x - a) / a, and the report
// gives each round's, so the spread is visible; the files the rules engage (at least one rule's
// `create` returned listeners) are counted in an uninstrumented pass.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

import { buildAgentCorpus, corpusFiles, countLines } from './agentCorpus.mjs';
import { countInstructionsOf, engagementProbe, formatLoad, median, readFlags, table } from './lib.mjs';

const benchDir = dirname(fileURLToPath(import.meta.url));
const require = createRequire(join(benchDir, 'package.json'));
const flags = readFlags(['child-passes', 'variants', 'rounds', 'step', 'out', 'child', 'corpus-dir', 'engaged', 'plugin', 'jobs', 'prebuilt', 'passes', 'gc']);
/** The plugin as built in this checkout. */
const pluginEntry = require.resolve('@retrysafe/eslint-plugin');
/** Variant b0's plugin: another build (a packages/eslint-plugin folder, built), e.g. an earlier commit's, for a before/after run. */
function basePluginEntry() {
  if (!flags.plugin) throw new Error('variant b0 needs --plugin <folder of another build of packages/eslint-plugin>');
  return join(flags.plugin, 'dist', 'index.js');
}
const step = Number(flags.step ?? 3);
/**
 * `--passes N` (N > 1): every variant also runs in a process that lints the files N times with one
 * ESLint instance, as an editor or a watch run lints a warm process; the steady cost of a pass is
 * (I(N passes) - I(1 pass)) / (N - 1), without start-up, module loading and first-use compilation.
 */
const passes = Number(flags.passes ?? 1);
/**
 * `--gc predictable`: every process runs with V8's `--predictable-gc-schedule` (fixed young
 * generation and heap growing, no idle or memory-reducing collections). Without it V8 sizes the heap
 * from the allocation and collection speeds it measures by the clock, so the same process collects
 * at other moments under another load: two parse-only processes of one run differed by up to 1.3%,
 * and (a) by 3.1% between runs at load 1.6 and 8 (docs/performance.md). With it they agree to about
 * 0.1%, at the price of a garbage-collection schedule that is not the one users run.
 */
if (flags.gc !== undefined && flags.gc !== 'predictable') throw new Error(`--gc takes only 'predictable', got ${flags.gc}`);
const GC_FLAGS = flags.gc === 'predictable' ? ['--predictable-gc-schedule'] : [];
/**
 * One thread in libuv's pool for every counted process. ESLint's `lintFiles` reads the files
 * concurrently and lints each as its read completes, so with the default four threads the order of
 * the files differs from process to process (three processes of the same command gave three orders),
 * and with it what V8 compiles when and where the collector runs. With one thread the reads complete
 * in the order they were asked for, the same in every process. It steadies `recommended` (four
 * processes within 0.34%), not yet the parse-only variant (four processes 4.2% apart): compare
 * plugin builds with each other (b against b0), not through (a).
 */
const CHILD_ENV = { UV_THREADPOOL_SIZE: '1' };
const corpusRoot = flags['corpus-dir'] ?? join(tmpdir(), 'retrysafe-bench-agent-corpus');
/** The files `recommended` lints (the plugin's own `files`, spelled here so that (a) loads no plugin). */
const FILES = ['**/*.{js,mjs,cjs,jsx,ts,mts,cts,tsx}'];

function sample(root) {
  return corpusFiles(root).filter((_, i) => i % step === 0);
}

async function configFor(variant) {
  const tseslint = (await import(require.resolve('typescript-eslint'))).default;
  const base = {
    files: FILES,
    languageOptions: { parser: tseslint.parser, sourceType: 'module' },
    // Published code carries its own eslint-disable comments for rules not loaded here.
    linterOptions: { reportUnusedDisableDirectives: 'off' },
  };
  if (variant === 'a' || variant === 'a2') return [base];
  if (variant === 'empty') {
    // One rule that listens to `Program` and does nothing, without loading the plugin: what ESLint
    // spends on any configured rule at all (its option validation, the rule's context, the listener).
    const empty = { meta: { type: 'problem', schema: [] }, create: () => ({ Program() {} }) };
    return [base, { files: FILES, plugins: { empty: { rules: { empty } } }, rules: { 'empty/empty': 'error' } }];
  }
  const retrysafe = (await import(variant === 'b0' ? basePluginEntry() : pluginEntry)).default;
  const recommended = retrysafe.configs.recommended;
  if (variant === 'b' || variant === 'b0') return [base, recommended];
  if (variant.startsWith('r:')) return [base, { files: FILES, plugins: recommended.plugins, rules: { [`@retrysafe/${variant.slice(2)}`]: 'error' } }];
  if (variant === 'noop') {
    const count = Object.keys(recommended.rules).length;
    const noop = () => {};
    const rules = Object.fromEntries(
      Array.from({ length: count }, (_, i) => [`noop-${i}`, { meta: { type: 'problem', schema: [] }, create: () => ({ CallExpression: noop, NewExpression: noop, Property: noop, AssignmentExpression: noop }) }]),
    );
    return [base, { files: FILES, plugins: { noop: { rules } }, rules: Object.fromEntries(Object.keys(rules).map((id) => [`noop/${id}`, 'error'])) }];
  }
  throw new Error(`unknown variant ${variant}; known: a, a2, b, b0, empty, noop, r:<rule>`);
}

/** One variant, one process: what valgrind counts. Prints the files and problems it saw. */
async function child(variant) {
  const { ESLint } = await import(require.resolve('eslint'));
  const files = sample(corpusRoot);
  const eslint = new ESLint({ cwd: corpusRoot, overrideConfigFile: true, overrideConfig: await configFor(variant), cache: false });
  const count = Number(flags['child-passes'] ?? 1);
  let results = await eslint.lintFiles(files);
  for (let pass = 1; pass < count; pass += 1) results = await eslint.lintFiles(files);
  const fatal = results.flatMap((r) => r.messages.filter((m) => m.fatal).map((m) => `${r.filePath}: ${m.message}`));
  if (fatal.length > 0) throw new Error(`${fatal.length} files did not parse, e.g. ${fatal[0]}`);
  const problems = results.flatMap((r) => r.messages.map((m) => `${relative(corpusRoot, r.filePath)}:${m.line}:${m.column} ${m.ruleId} ${m.message}`));
  console.log(JSON.stringify({ variant, files: results.length, problems }));
}

/** The sampled files where at least one rule of `recommended` returned listeners (an uninstrumented pass). */
async function engagedFiles() {
  const { ESLint } = await import(require.resolve('eslint'));
  const retrysafe = (await import(pluginEntry)).default;
  const probe = engagementProbe(retrysafe);
  const [base, recommended] = await configFor('b');
  const probed = { ...recommended, plugins: { '@retrysafe': probe.plugin } };
  const eslint = new ESLint({ cwd: corpusRoot, overrideConfigFile: true, overrideConfig: [base, probed], cache: false });
  const engaged = [];
  for (const file of sample(corpusRoot)) {
    await eslint.lintFiles([file]);
    if (probe.engaged()) engaged.push(relative(corpusRoot, file));
  }
  return engaged;
}

/** One variant under valgrind, in a child process; resolves with its count. */
async function countInstructions(variant, childPasses = 1) {
  const started = Date.now();
  const args = [fileURLToPath(import.meta.url), '--child', variant, '--step', String(step), '--corpus-dir', corpusRoot, '--child-passes', String(childPasses), ...(flags.plugin ? ['--plugin', flags.plugin] : [])];
  const { instructions, stdout } = await countInstructionsOf(args, `variant ${variant}`, GC_FLAGS, CHILD_ENV);
  const out = JSON.parse(stdout.trim().split('\n').pop());
  return { variant, passes: childPasses, instructions, files: out.files, problems: out.problems, seconds: (Date.now() - started) / 1000, loadAfter: loadavg() };
}

async function parent() {
  const rounds = Number(flags.rounds ?? 2);
  const variants = (flags.variants ?? 'a,b,a2').split(',');
  if (variants[0] !== 'a') throw new Error('the first variant is the baseline and must be a');
  const out = flags.out ?? join(benchDir, 'results', 'lint-instructions.json');
  const loadavgStart = loadavg();
  const corpus = flags.prebuilt ? describePrebuilt(corpusRoot) : buildAgentCorpus(corpusRoot);
  const files = sample(corpusRoot);
  const lines = files.reduce((n, f) => n + countLines(readFileSync(f, 'utf8')), 0);
  const engaged = await engagedFiles();
  console.log(`agent corpus: ${corpus.files} files, ${corpus.lines} lines; linted: every ${step}th, ${files.length} files, ${lines} lines; engaged: ${engaged.length} (${pct(engaged.length / files.length)})`);
  // Instruction counts do not depend on what else runs: the processes run `--jobs` at a time (on a
  // shared machine each gets a slice of a core, and valgrind runs about 30 times slower than Node).
  const jobs = Number(flags.jobs ?? variants.length * rounds);
  const queue = [];
  for (let round = 0; round < rounds; round += 1) {
    for (const variant of round % 2 === 0 ? variants : [...variants].reverse()) {
      queue.push({ round, variant, passes: 1 });
      if (passes > 1) queue.push({ round, variant, passes });
    }
  }
  const runs = [];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const result = { round: next.round, ...(await countInstructions(next.variant, next.passes)) };
      runs.push(result);
      console.log(`  round ${result.round + 1} ${result.variant} x${result.passes}: ${fmtM(result.instructions)} instructions, ${result.problems.length} problems, ${result.seconds.toFixed(0)} s, load ${result.loadAfter[0].toFixed(2)}`);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, jobs) }, worker));
  runs.sort((x, y) => x.round - y.round || variants.indexOf(x.variant) - variants.indexOf(y.variant));
  const byRound = (v, round) => runs.find((r) => r.variant === v && r.round === round && r.passes === 1).instructions;
  // The steady cost of one pass in a warm process (see --passes).
  const steadyOf = (v, round) => (runs.find((r) => r.variant === v && r.round === round && r.passes === passes).instructions - byRound(v, round)) / (passes - 1);
  const steady = {};
  if (passes > 1) {
    for (const v of variants.slice(1)) {
      const perRound = [...Array(rounds).keys()].map((round) => (steadyOf(v, round) - steadyOf('a', round)) / steadyOf('a', round));
      steady[`(${v}-a)/a`] = { median: median(perRound), min: Math.min(...perRound), max: Math.max(...perRound), perRound };
    }
  }
  const ratios = {};
  for (const v of variants.slice(1)) {
    const perRound = [...Array(rounds).keys()].map((round) => (byRound(v, round) - byRound('a', round)) / byRound('a', round));
    ratios[`(${v}-a)/a`] = { median: median(perRound), min: Math.min(...perRound), max: Math.max(...perRound), perRound };
  }
  const medians = Object.fromEntries(variants.map((v) => [v, median(runs.filter((r) => r.variant === v && r.passes === 1).map((r) => r.instructions))]));
  const spread = Object.fromEntries(variants.map((v) => {
    const xs = runs.filter((r) => r.variant === v && r.passes === 1).map((r) => r.instructions);
    return [v, (Math.max(...xs) - Math.min(...xs)) / Math.min(...xs)];
  }));
  const judged = ratios['(b-a)/a'];
  const report = {
    bench: 'lint-instructions',
    date: new Date().toISOString(),
    machine: { cpu: cpus()[0]?.model, cores: cpus().length, node: process.version, loadavgStart, loadavgEnd: loadavg() },
    command: `node bench/lint-instructions.mjs --rounds ${rounds} --step ${step} --variants ${variants.join(',')}${passes > 1 ? ` --passes ${passes}` : ''}${flags.plugin ? ` --plugin ${flags.plugin}` : ''}${flags.prebuilt ? ` --prebuilt 1 --corpus-dir ${corpusRoot}` : ''}${flags.gc ? ` --gc ${flags.gc}` : ''}`,
    corpus: { files: corpus.files, lines: corpus.lines, packages: corpus.packages, linted: { step, files: files.length, lines }, engaged: { files: engaged.length, share: engaged.length / files.length, list: engaged } },
    medians,
    spreadWithinVariant: spread,
    ratios,
    ...(passes > 1 ? { steadyPerPass: { passes, ratios: steady } } : {}),
    target: judged ? { 'recommended adds < 5% over parse-only (whole-process instructions, median of rounds)': judged.median < 0.05 } : {},
    runs,
  };
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\n${table(['variant', 'instructions (median)', 'spread within variant'], variants.map((v) => [v, fmtM(medians[v]), pct(spread[v])]))}`);
  console.log(`\n${table(['ratio', 'median', 'min', 'max'], Object.entries(ratios).map(([k, r]) => [k, pct(r.median, true), pct(r.min, true), pct(r.max, true)]))}`);
  if (passes > 1) console.log(`\nsteady cost of a pass in a warm process ((I(${passes} passes) - I(1 pass)) / ${passes - 1}):\n${table(['ratio', 'median', 'min', 'max'], Object.entries(steady).map(([k, r]) => [k, pct(r.median, true), pct(r.min, true), pct(r.max, true)]))}`);
  if (judged) console.log(`\ntarget: recommended < 5% over parse-only: ${judged.median < 0.05 ? 'met' : 'MISSED'} (${pct(judged.median, true)}); load ${formatLoad(loadavg())}`);
  console.log(`written: ${relative(process.cwd(), out)}`);
}

/** A corpus folder built elsewhere: its files and lines, per top-level folder (one per package). */
function describePrebuilt(root) {
  const byPackage = new Map();
  for (const file of corpusFiles(root)) {
    const name = relative(root, file).split('/')[0];
    const entry = byPackage.get(name) ?? { name, version: '', files: 0, lines: 0 };
    entry.files += 1;
    entry.lines += countLines(readFileSync(file, 'utf8'));
    byPackage.set(name, entry);
  }
  const packages = [...byPackage.values()];
  return { root, files: packages.reduce((n, p) => n + p.files, 0), lines: packages.reduce((n, p) => n + p.lines, 0), packages };
}

const fmtM = (n) => `${(n / 1e6).toFixed(1)}M`;
const pct = (x, sign = false) => `${sign && x >= 0 ? '+' : ''}${(x * 100).toFixed(2)}%`;

if (flags.child) await child(flags.child);
else if (flags.engaged) console.log((await engagedFiles()).join('\n'));
else await parent();
