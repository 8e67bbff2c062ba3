// Lint benchmark: what @retrysafe's configs cost on large real code, against the bare parser and
// against typescript-eslint, measured interleaved in one run. Figures are ratios, never assertions.
//
//   node bench/lint.mjs [--corpus standard|full|stripe] [--corpus-root <folder>] [--rounds 2] [--variants a,b,c,d,e] [--paired a,b]
//                       [--passes 4] [--timing-rounds 1] [--plugin <folder>] [--base-plugin <folder>] [--out bench/results/lint.json]   (a trial run: --out elsewhere, or it replaces the committed results)
//   node bench/lint.mjs --child <variant> --corpus-dir <folder> --result <file> [--instrument 1]
//                                                         (one cold variant alone, as the parent runs it; a diagnostic)
//
// The corpus is the JavaScript and TypeScript that registry packages publish (one module flavour
// each, no .d.ts, no source maps, no tests), copied to a temporary folder with a generated
// tsconfig.json (allowJs, checkJs false) so that the type-aware variants get a program through
// `parserOptions.projectService`, exactly as `recommended-type-checked` sets it up. Each copied
// package gets a `node_modules` symlink to the folder pnpm resolves its dependencies from, so its
// imports type-check against the real dependency types, as they would in the package's own repo.
//
// Three measurements, all in one run:
// 1. cold: every variant in a fresh Node process (what a CI run pays, program creation included),
//    uninstrumented, `--rounds` times with the order rotated each round; wall and CPU time;
// 2. warm and paired: one process (ESLint#lintText, as an editor's ESLint server calls it) lints
//    each file with (a) and with (b), `--passes` times after a warm-up, alternating which goes
//    first; what an editor pays per file, and robust to load changes on a shared machine (an A/A
//    run, `--paired a,a2`, measures the method's own error);
// 3. TIMING: one run each of (b), (c) and (e) with ESLint's `TIMING=all` and `stats`, for the
//    per-rule and parse times (instrumentation inflates rule time, so no ratio uses these runs);
//    `--timing-rounds N` repeats them interleaved, for the type-aware rules' ratio to
//    no-floating-promises with its spread, and with `e2` in `--variants` an A/A control of it.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

import { engagementProbe, formatLoad, median, readFlags, table, walkFiles } from './lib.mjs';

const benchDir = dirname(fileURLToPath(import.meta.url));
const require = createRequire(join(benchDir, 'package.json'));

/** What is linted: one published flavour per package (ESM where both ship), sources not tests. */
const PACKAGES = {
  ai: { name: 'ai', dir: 'src', ext: ['.ts', '.tsx'] },
  agents: { name: '@openai/agents-core', dir: 'dist', ext: ['.mjs'] },
  mcp: { name: '@modelcontextprotocol/sdk', dir: 'dist/esm', ext: ['.js'] },
  langchain: { name: '@langchain/core', dir: 'dist', ext: ['.js'] },
  stripe: { name: 'stripe', dir: 'esm', ext: ['.js'] },
};
/**
 * `standard` (the default, ~128k lines) leaves out @langchain/core so that three rounds of the two
 * type-aware variants fit in a few minutes on two cores; `full` (~155k lines) lints all five.
 * Every variant lints the same files either way.
 */
const CORPORA = {
  standard: [PACKAGES.ai, PACKAGES.agents, PACKAGES.mcp, PACKAGES.stripe],
  full: Object.values(PACKAGES),
  // The standard corpus's stripe part alone (271 files): a subset for repeated typed runs.
  stripe: [PACKAGES.stripe],
};
const SKIPPED = /\.d\.[mc]?ts$|\.test\.|\/__tests__\/|\/tests?\//;

const VARIANTS = {
  a: 'parser only (no rules)',
  b: '@retrysafe recommended',
  c: '@retrysafe recommended-type-checked',
  d: 'typescript-eslint recommended',
  e: '@typescript-eslint/no-floating-promises alone, with types',
};
/** Diagnostic variants, named in results: `e2` is (e) again (the A/A control of TIMING rounds). */
const DIAGNOSTIC_VARIANTS = {
  e2: VARIANTS.e,
  t0: 'the typed parser, no rule',
  't:': 'one type-aware @retrysafe rule alone, with types',
  'tb': 'one type-aware @retrysafe rule alone, with types, from --base-plugin',
};
const TYPED = new Set(['c', 'e']);


// ---------------------------------------------------------------------------------------------
// Parent: build the corpus, run the variants interleaved, write the JSON, print the tables.

async function parent() {
  const rounds = Number(args.rounds ?? 2);
  const variants = (args.variants ?? Object.keys(VARIANTS).join(',')).split(',');
  const out = args.out ?? join(benchDir, 'results', 'lint.json');
  const corpusName = args.corpus ?? 'standard';
  if (!CORPORA[corpusName]) throw new Error(`unknown corpus ${corpusName}; known: ${Object.keys(CORPORA).join(', ')}`);
  const loadavgStart = loadavg();
  // --corpus-root: a folder of one's own, where other runs on the machine rebuild the default one.
  const corpus = buildCorpus(args['corpus-root'] ?? join(tmpdir(), `retrysafe-bench-lint-corpus-${corpusName}`), CORPORA[corpusName]);
  console.log(`lint bench: ${corpus.files} files, ${corpus.lines} lines (${corpus.packages.map((p) => `${p.name} ${p.lines}`).join(', ')})`);
  console.log(`corpus folder: ${corpus.root}; ${rounds} rounds of ${variants.join(', ')}; load average ${fmtLoad()}`);

  const runs = [];
  for (let round = 0; round < rounds; round += 1) {
    // Rotate the order so that no variant always runs first (cold disk cache) or last (hot CPU).
    const order = variants.map((_, i) => variants[(i + round) % variants.length]);
    for (const variant of order) {
      const result = runChild(variant, corpus.root, false);
      result.round = round;
      runs.push(result);
      console.log(`  round ${round + 1} ${variant}: wall ${fmtMs(result.wallMs)}, cpu ${fmtMs(result.cpuMs)}, ${result.problems} problems, load ${result.loadAfter[0].toFixed(2)}`);
    }
  }
  // Warm and paired per file, in one process: the cost an editor's ESLint server pays per file.
  // Any variant may be paired, the diagnostic ones included (`--paired a,r:no-random-key`).
  const pairedVariants = (args.paired ?? (variants.includes('a') && variants.includes('b') ? 'a,b' : '')).split(',').filter(Boolean);
  // An even number of passes: each file is linted first by (a) as often as by (b), which matters
  // (the first lint of a text in a process runs measurably slower or faster than the second).
  const passes = 2 * Math.ceil(Number(args.passes ?? 4) / 2);
  const paired = pairedVariants.length >= 2 ? runPaired(pairedVariants, corpus.root, passes) : undefined;
  if (paired) {
    console.log(`  paired ${pairedVariants.join('/')} x ${paired.passes} passes: ${pairedVariants.map((v) => `${v} ${fmtMs(paired.totals[v].cpuMs)} cpu`).join(', ')}, load ${loadavg()[0].toFixed(2)}`);
  }
  // Instrumented runs of the variants with rules to time: ESLint's TIMING=all, and stats for parse.
  // One each by default; `--timing-rounds N` runs them N times interleaved (the order rotated each
  // round), where `e2` (no-floating-promises again) beside `e` is the A/A control of the ratios.
  const timingRounds = Number(args['timing-rounds'] ?? 1);
  const timedVariants = variants.filter((v) => ['b', 'c', 'e', 'e2'].includes(v) || v.startsWith('t:') || v.startsWith('tb:'));
  const instrumented = [];
  for (let round = 0; round < timingRounds; round += 1) {
    for (const variant of timedVariants.map((_, i) => timedVariants[(i + round) % timedVariants.length])) {
      const result = runChild(variant, corpus.root, true);
      result.round = round;
      instrumented.push(result);
      console.log(`  TIMING ${timingRounds > 1 ? `round ${round + 1} ` : ''}${variant}: parse ${fmtMs(result.parseMs)}, rules ${fmtMs(result.rulesMs)}, cpu ${fmtMs(result.cpuMs)}, load ${result.loadAfter[0].toFixed(2)}`);
    }
  }
  const summary = summarise(runs, instrumented.filter((r) => r.round === 0), variants, paired);
  if (timingRounds > 1) summary.typeAwareRounds = summariseTimingRounds(instrumented);
  const report = {
    bench: 'lint',
    date: new Date().toISOString(),
    machine: { ...machine(), loadavgStart, loadavgEnd: loadavg() },
    command: `node bench/lint.mjs --corpus ${corpusName} --rounds ${rounds} --variants ${variants.join(',')}${pairedVariants.length >= 2 ? ` --paired ${pairedVariants.join(',')} --passes ${passes}` : ''}${timingRounds > 1 ? ` --timing-rounds ${timingRounds}` : ''}`,
    corpus: { files: corpus.files, lines: corpus.lines, packages: corpus.packages, tsconfig: corpus.tsconfig },
    variants: Object.fromEntries(variants.map((v) => [v, VARIANTS[v] ?? DIAGNOSTIC_VARIANTS[v] ?? DIAGNOSTIC_VARIANTS[v.slice(0, 2)] ?? v])),
    summary,
    runs,
    instrumented,
    paired,
  };
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
  printSummary(report);
  console.log(`\nwritten: ${relative(process.cwd(), out)}`);
}

/**
 * One variant in a fresh process. Timed runs are not instrumented: ESLint's TIMING and `stats`
 * wrap every listener call in two clock reads, which would inflate the rules' share. The
 * instrumented run gives the per-rule and parse times.
 */
function runChild(variant, corpusRoot, instrument) {
  const resultFile = join(tmpdir(), `retrysafe-bench-lint-${process.pid}-${variant}.json`);
  const loadBefore = loadavg();
  const env = { ...process.env };
  delete env.TIMING;
  if (instrument) env.TIMING = 'all';
  const child = spawnSync(
    process.execPath,
    [fileURLToPath(import.meta.url), '--child', variant, '--corpus-dir', corpusRoot, '--result', resultFile, '--instrument', instrument ? '1' : '0', ...pluginFlags()],
    { env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  if (child.status !== 0) {
    throw new Error(`variant ${variant} failed (exit ${child.status}):\n${child.stderr}\n${child.stdout}`);
  }
  const result = JSON.parse(readFileSync(resultFile, 'utf8'));
  rmSync(resultFile, { force: true });
  // ESLint prints its TIMING table when the process exits.
  if (instrument) result.timingTable = child.stdout.trim();
  result.loadBefore = loadBefore;
  result.loadAfter = loadavg();
  return result;
}

function runPaired(variants, corpusRoot, passes) {
  const resultFile = join(tmpdir(), `retrysafe-bench-lint-${process.pid}-paired.json`);
  const env = { ...process.env };
  delete env.TIMING;
  const child = spawnSync(
    process.execPath,
    [fileURLToPath(import.meta.url), '--paired-child', variants.join(','), '--corpus-dir', corpusRoot, '--result', resultFile, '--passes', String(passes), ...pluginFlags()],
    { env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  if (child.status !== 0) throw new Error(`paired run failed (exit ${child.status}):\n${child.stderr}`);
  const result = JSON.parse(readFileSync(resultFile, 'utf8'));
  rmSync(resultFile, { force: true });
  return result;
}

function summarise(runs, instrumented, variants, paired) {
  const by = Object.fromEntries(variants.map((v) => [v, runs.filter((r) => r.variant === v)]));
  const timed = Object.fromEntries(instrumented.map((r) => [r.variant, r]));
  const summary = { median: {}, ratios: {}, rules: {} };
  for (const v of variants) {
    if (by[v].length === 0) continue; // --rounds 0: the paired and TIMING runs only
    summary.median[v] = {
      wallMs: median(by[v].map((r) => r.wallMs)),
      cpuMs: median(by[v].map((r) => r.cpuMs)),
      // From the instrumented run: parse (program creation included when typed) and rules.
      parseMs: timed[v]?.parseMs,
      rulesMs: timed[v]?.rulesMs,
      files: by[v][0].files,
      problems: by[v][0].problems,
      maxRssMb: Math.max(...by[v].map((r) => r.maxRssMb)),
    };
  }
  for (const v of variants) {
    if (timed[v]) {
      summary.rules[v] = Object.fromEntries(Object.entries(timed[v].rules).sort((x, y) => y[1].ms - x[1].ms));
    }
  }
  const has = (...vs) => vs.every((v) => by[v]?.length > 0);
  // Ratios per round (the two runs at most minutes apart), then the median over rounds.
  const rounds = [...new Set(runs.map((r) => r.round))];
  const perRound = (x, y, field) =>
    median(rounds.map((round) => {
      const rx = by[x].find((r) => r.round === round);
      const ry = by[y].find((r) => r.round === round);
      return (rx[field] - ry[field]) / ry[field];
    }));
  for (const [name, x, y] of [
    ['(b-a)/a', 'b', 'a'],
    ['(c-a)/a', 'c', 'a'],
    ['(d-a)/a', 'd', 'a'],
    ['(e-a)/a', 'e', 'a'],
    ['(c-e)/e', 'c', 'e'],
  ]) {
    if (has(x, y)) summary.ratios[name] = { wall: perRound(x, y, 'wallMs'), cpu: perRound(x, y, 'cpuMs') };
  }
  if (timed.b) {
    // ESLint's own clock on (b)'s rules over its clock on parsing (slightly high: the timers cost too).
    summary.ratios['TIMING rules(b)/parse(b)'] = { wall: timed.b.rulesMs / timed.b.parseMs };
  }
  if (timed.c && timed.e) {
    const nfp = timed.e.rules['@typescript-eslint/no-floating-promises']?.ms ?? 0;
    const ours = Object.keys(timed.c.rules).filter((id) => /-type-checked$/.test(id));
    summary.typeAware = Object.fromEntries(ours.map((id) => [id, { ms: timed.c.rules[id].ms, vsNoFloatingPromises: timed.c.rules[id].ms / nfp }]));
    summary.typeAware['@typescript-eslint/no-floating-promises'] = { ms: nfp, vsNoFloatingPromises: 1 };
  }
  if (paired) {
    const [base, ...others] = paired.variants;
    for (const v of others) {
      const perPass = paired.totals[v].perPass.map((p, i) => (p.cpuMs - paired.totals[base].perPass[i].cpuMs) / paired.totals[base].perPass[i].cpuMs);
      summary.ratios[`warm paired (${v}-${base})/${base}`] = {
        wall: (paired.totals[v].wallMs - paired.totals[base].wallMs) / paired.totals[base].wallMs,
        cpu: (paired.totals[v].cpuMs - paired.totals[base].cpuMs) / paired.totals[base].cpuMs,
        cpuPerPass: perPass,
      };
      if (paired.minWallMs) {
        summary.ratios[`warm paired (${v}-${base})/${base}, fastest pass per file`] = {
          wall: (paired.minWallMs[v] - paired.minWallMs[base]) / paired.minWallMs[base],
        };
      }
    }
  }
  if (paired?.engaged && paired.engaged.cpuMs.a !== undefined) {
    const { cpuMs, wallMs, minWallMs, files, lines } = paired.engaged;
    summary.engaged = { files, lines };
    summary.ratios[`warm paired (b-a)/a, the ${files} files the rules engage`] = {
      wall: (wallMs.b - wallMs.a) / wallMs.a,
      cpu: (cpuMs.b - cpuMs.a) / cpuMs.a,
    };
    summary.ratios[`warm paired (b-a)/a, the ${files} files the rules engage, fastest pass per file`] = {
      wall: (minWallMs.b - minWallMs.a) / minWallMs.a,
    };
  }
  // The target is judged on the fastest pass per file (wall): its A/A error was 0.2% where the
  // paired CPU total's was 1-2% and its passes spread over 0-12% (GC helper threads land on either
  // variant); the other measures are reported beside it.
  const fastest = summary.ratios['warm paired (b-a)/a, fastest pass per file'];
  const warm = summary.ratios['warm paired (b-a)/a'];
  const judged = fastest ? { label: 'warm paired, fastest pass per file, wall', value: fastest.wall }
    : warm ? { label: 'warm paired cpu', value: warm.cpu }
    : summary.ratios['(b-a)/a'] ? { label: 'cold cpu', value: summary.ratios['(b-a)/a'].cpu } : undefined;
  summary.targets = {
    [`recommended adds < 5% over parsing (${judged?.label ?? 'not measured'})`]: judged ? judged.value < 0.05 : null,
    'no type-aware rule of ours costs more than no-floating-promises': summary.typeAware
      ? Object.values(summary.typeAware).every((t) => t.vsNoFloatingPromises <= 1)
      : null,
  };
  return summary;
}

/**
 * The type-aware rules against no-floating-promises over `--timing-rounds` rounds: in each round,
 * every rule's TIMING over that round's (e); the median, lowest and highest ratio; and (e2)/(e), the
 * same rule measured twice, for the A/A control.
 */
function summariseTimingRounds(instrumented) {
  const nfp = (run) => run.rules['@typescript-eslint/no-floating-promises']?.ms;
  const rounds = [...new Set(instrumented.map((r) => r.round))];
  const perRule = {};
  const aa = [];
  for (const round of rounds) {
    const inRound = instrumented.filter((r) => r.round === round);
    const base = inRound.find((r) => r.variant === 'e');
    if (!base) continue;
    for (const run of inRound) {
      if (run.variant === 'e2') aa.push(nfp(run) / nfp(base));
      for (const [id, time] of Object.entries(run.rules)) {
        if (!/-type-checked$/.test(id)) continue;
        const key = `${id} (${run.variant})`;
        (perRule[key] ??= { ms: [], vsNoFloatingPromises: [] }).ms.push(time.ms);
        perRule[key].vsNoFloatingPromises.push(time.ms / nfp(base));
      }
    }
  }
  const spread = (values) => ({ median: median(values), min: Math.min(...values), max: Math.max(...values), values });
  return {
    rounds: rounds.length,
    rules: Object.fromEntries(Object.entries(perRule).map(([key, t]) => [key, { ms: spread(t.ms), vsNoFloatingPromises: spread(t.vsNoFloatingPromises) }])),
    noFloatingPromisesMs: spread(instrumented.filter((r) => r.variant === 'e').map(nfp)),
    aaNoFloatingPromises: aa.length > 0 ? spread(aa) : undefined,
  };
}

function printSummary(report) {
  const { summary } = report;
  console.log(`\n${report.corpus.files} files, ${report.corpus.lines} lines; wall and cpu: medians of ${new Set(report.runs.map((r) => r.round)).size} uninstrumented rounds; parse and rules: one run with TIMING=all`);
  console.log(table(
    ['variant', 'wall', 'cpu', 'parse', 'rules', 'problems'],
    Object.entries(summary.median).map(([v, m]) => [`${v} ${VARIANTS[v]}`, fmtMs(m.wallMs), fmtMs(m.cpuMs), m.parseMs === undefined ? '' : fmtMs(m.parseMs), m.rulesMs === undefined ? '' : fmtMs(m.rulesMs), String(m.problems)]),
  ));
  console.log(`\n${table(['ratio', 'wall', 'cpu'], Object.entries(summary.ratios).map(([k, r]) => [k, fmtPct(r.wall), r.cpu === undefined ? '' : fmtPct(r.cpu)]))}`);
  for (const v of ['b', 'c', 'e']) {
    if (!summary.rules[v]) continue;
    console.log(`\nper-rule time in ${v} (${VARIANTS[v]}), ESLint TIMING (instrumented run):`);
    console.log(table(['rule', 'ms', 'problems'], Object.entries(summary.rules[v]).map(([id, r]) => [id, r.ms.toFixed(1), String(r.problems)])));
  }
  if (summary.typeAware) {
    console.log(`\ntype-aware rules against no-floating-promises (both with types, each in its own process):`);
    console.log(table(['rule', 'ms', 'x no-floating-promises'], Object.entries(summary.typeAware).map(([id, t]) => [id, t.ms.toFixed(1), `${t.vsNoFloatingPromises.toFixed(2)}x`])));
  }
  const rounds = summary.typeAwareRounds;
  if (rounds) {
    const fmtSpread = (x) => `${x.median.toFixed(2)}x (${x.min.toFixed(2)}-${x.max.toFixed(2)})`;
    console.log(`\ntype-aware rules against no-floating-promises, ${rounds.rounds} interleaved TIMING rounds (median, lowest-highest):`);
    console.log(table(['rule (variant)', 'ms median', 'x no-floating-promises'], Object.entries(rounds.rules).map(([id, t]) => [id, t.ms.median.toFixed(0), fmtSpread(t.vsNoFloatingPromises)])));
    if (rounds.aaNoFloatingPromises) console.log(`A/A control, no-floating-promises (e2)/(e): ${fmtSpread(rounds.aaNoFloatingPromises)}`);
  }
  console.log(`\ntargets: ${Object.entries(summary.targets).map(([k, ok]) => `${k}: ${ok === null ? 'not measured' : ok ? 'met' : 'MISSED'}`).join('; ')}`);
}

// ---------------------------------------------------------------------------------------------
// Corpus

function buildCorpus(root, specs) {
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  const packages = [];
  let files = 0;
  let lines = 0;
  for (const spec of specs) {
    // Not require.resolve: some of these packages export no ./package.json.
    const pkgDir = join(benchDir, 'node_modules', spec.name);
    const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
    const target = join(root, spec.name.replace('/', '__'));
    let pkgFiles = 0;
    let pkgLines = 0;
    for (const file of walkFiles(join(pkgDir, spec.dir))) {
      const rel = relative(pkgDir, file);
      if (!spec.ext.some((e) => file.endsWith(e)) || SKIPPED.test(`/${rel}`)) continue;
      const text = readFileSync(file, 'utf8');
      mkdirSync(dirname(join(target, rel)), { recursive: true });
      writeFileSync(join(target, rel), text);
      pkgFiles += 1;
      pkgLines += countLines(text);
    }
    // package.json gives .js files their module type; node_modules gives imports their types.
    cpSync(join(pkgDir, 'package.json'), join(target, 'package.json'));
    // pnpm puts a package's dependencies beside it: <store>/<id>/node_modules/{<name>,<deps>}.
    const real = realpathSync(pkgDir);
    symlinkSync(spec.name.startsWith('@') ? dirname(dirname(real)) : dirname(real), join(target, 'node_modules'));
    packages.push({ name: spec.name, version: pkg.version, flavour: `${spec.dir}/**/*{${spec.ext.join(',')}}`, files: pkgFiles, lines: pkgLines });
    files += pkgFiles;
    lines += pkgLines;
  }
  const tsconfig = {
    compilerOptions: {
      allowJs: true,
      checkJs: false,
      noEmit: true,
      skipLibCheck: true,
      strict: true,
      target: 'es2022',
      lib: ['es2023', 'dom', 'dom.iterable'],
      module: 'preserve',
      moduleResolution: 'bundler',
      resolveJsonModule: true,
      types: [],
    },
    include: ['**/*'],
  };
  writeFileSync(join(root, 'tsconfig.json'), `${JSON.stringify(tsconfig, null, 2)}\n`);
  return { root, files, lines, packages, tsconfig };
}

function countLines(text) {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n += 1;
  return text.length > 0 && !text.endsWith('\n') ? n + 1 : n;
}

// ---------------------------------------------------------------------------------------------
// Child: one variant, one process.

async function child(variant, corpusRoot, resultFile, instrument) {
  const { ESLint } = await import(require.resolve('eslint'));
  const overrideConfig = await configFor(variant, corpusRoot);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const eslint = new ESLint({ cwd: corpusRoot, overrideConfigFile: true, overrideConfig, stats: instrument, cache: false });
  const results = await eslint.lintFiles(['.']);
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);

  const rules = {};
  let parseMs = 0;
  let rulesMs = 0;
  let problems = 0;
  const fatal = [];
  const packages = {};
  for (const result of results) {
    const pkg = (packages[relative(corpusRoot, result.filePath).split('/')[0]] ??= { files: 0, parseMs: 0, rulesMs: 0 });
    pkg.files += 1;
    for (const message of result.messages) {
      if (message.fatal) fatal.push(`${result.filePath}: ${message.message}`);
      const id = message.ruleId ?? '(none)';
      rules[id] ??= { ms: 0, problems: 0 };
      rules[id].problems += 1;
      // A few reports per rule, so that what a rule says about real code can be read back.
      rules[id].examples ??= [];
      if (rules[id].examples.length < 5) {
        rules[id].examples.push(`${relative(corpusRoot, result.filePath)}:${message.line}: ${message.message.slice(0, 200)}`);
      }
      problems += 1;
    }
    for (const pass of result.stats?.times?.passes ?? []) {
      parseMs += pass.parse?.total ?? 0;
      pkg.parseMs += pass.parse?.total ?? 0;
      for (const [id, time] of Object.entries(pass.rules ?? {})) {
        rules[id] ??= { ms: 0, problems: 0 };
        rules[id].ms += time.total;
        rulesMs += time.total;
        pkg.rulesMs += time.total;
      }
    }
  }
  if (fatal.length > 0) throw new Error(`variant ${variant}: ${fatal.length} files did not parse, e.g.\n${fatal.slice(0, 5).join('\n')}`);
  const report = {
    variant,
    name: VARIANTS[variant],
    instrumented: instrument,
    files: results.length,
    wallMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    parseMs,
    rulesMs,
    problems,
    rules,
    packages,
    maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    ruleIds: Object.keys(overrideConfig.flatMap((c) => Object.keys(c.rules ?? {})).reduce((a, id) => ({ ...a, [id]: 1 }), {})),
  };
  writeFileSync(resultFile, JSON.stringify(report));
}

/** The plugin's entry: this checkout's build, or `--plugin <folder>`'s (a copy that a rebuild during the run leaves alone). */
function pluginEntry() {
  return args.plugin ? join(args.plugin, 'dist', 'index.js') : require.resolve('@retrysafe/eslint-plugin');
}

/** The flags a child needs to load the same plugins as its parent. */
function pluginFlags() {
  return [...(args.plugin ? ['--plugin', args.plugin] : []), ...(args['base-plugin'] ? ['--base-plugin', args['base-plugin']] : [])];
}

async function configFor(variant, corpusRoot) {
  // `tb:<rule>` is `t:<rule>` from `--base-plugin <folder>` (another build, e.g. main's): before and after in one run.
  if (variant.startsWith('tb:') && !args['base-plugin']) throw new Error(`variant ${variant} needs --base-plugin <folder of another build of packages/eslint-plugin>`);
  const retrysafe = (await import(variant.startsWith('tb:') ? join(args['base-plugin'], 'dist', 'index.js') : pluginEntry())).default;
  const tseslint = (await import(require.resolve('typescript-eslint'))).default;
  const files = retrysafe.configs.recommended.files;
  const parser = tseslint.parser;
  const base = {
    files,
    languageOptions: { parser, sourceType: 'module' },
    // Published code carries its own eslint-disable comments for rules not loaded here.
    linterOptions: { reportUnusedDisableDirectives: 'off' },
  };
  const typed = { projectService: true, tsconfigRootDir: corpusRoot };
  switch (variant) {
    case 'a':
    case 'a2': // the same config under another name, for an A/A check of the paired method
      return [base];
    case 'b':
      return [base, retrysafe.configs.recommended];
    case 'c': {
      // The config gives the type-aware rules TypeScript files only; here they run on every corpus
      // file (mostly published JavaScript), as they did when the config typed every file.
      const [untyped, typeAware] = retrysafe.configs['recommended-type-checked'];
      return [base, untyped, { ...typeAware, files, languageOptions: { parserOptions: { ...typeAware.languageOptions?.parserOptions, ...typed } } }];
    }
    case 'd':
      return [base, ...tseslint.configs.recommended.map((c) => ({ ...c, files: c.files ?? files }))];
    case 'e':
    case 'e2': // the same config under another name, for an A/A check of the TIMING rounds
      return [
        base,
        {
          files,
          plugins: { '@typescript-eslint': tseslint.plugin },
          languageOptions: { parserOptions: typed },
          rules: { '@typescript-eslint/no-floating-promises': 'error' },
        },
      ];
    default:
      // Diagnostics: `-:<rule>` is `recommended` without that rule (leave-one-out).
      if (variant.startsWith('-:')) {
        const recommended = retrysafe.configs.recommended;
        return [base, { ...recommended, rules: { ...recommended.rules, [`@retrysafe/${variant.slice(2)}`]: 'off' } }];
      }
      // Diagnostics: `cfg` is `recommended` with its rules turned off (its parser and options only).
      if (variant === 'cfg') return [base, { ...retrysafe.configs.recommended, rules: {} }];
      // Diagnostics: `noop` is the parser plus as many rules as (b) has, each listening where a
      // tool or key rule listens but doing nothing: the floor any plugin of that size pays.
      if (variant === 'noop') {
        const count = Object.keys(retrysafe.configs.recommended.rules).length;
        const noop = () => {};
        const rules = Object.fromEntries(
          Array.from({ length: count }, (_, i) => [`noop-${i}`, { meta: { type: 'problem', schema: [] }, create: () => ({ CallExpression: noop, NewExpression: noop, Property: noop, AssignmentExpression: noop }) }]),
        );
        return [base, { files, plugins: { noop: { rules } }, rules: Object.fromEntries(Object.keys(rules).map((id) => [`noop/${id}`, 'error'])) }];
      }
      // Diagnostics: `t:<rule>` is one type-aware @retrysafe rule alone, with types, as (c) configures
      // it; `t0` is the same typed parser with no rule at all (what program creation alone costs).
      if (variant === 't0' || variant.startsWith('t:') || variant.startsWith('tb:')) {
        const rules = variant === 't0' ? {} : { [`@retrysafe/${variant.slice(variant.indexOf(':') + 1)}`]: 'error' };
        return [base, { files, plugins: retrysafe.configs.recommended.plugins, languageOptions: { parserOptions: typed }, rules }];
      }
      // Diagnostics: `r:<rule>` is the parser plus that one @retrysafe rule (--paired a,r:no-random-key).
      if (variant.startsWith('r:')) {
        const recommended = retrysafe.configs.recommended;
        return [base, { files, plugins: recommended.plugins, rules: { [`@retrysafe/${variant.slice(2)}`]: 'error' } }];
      }
      throw new Error(`unknown variant ${variant}; known: ${Object.keys(VARIANTS).join(', ')}, r:<rule>`);
  }
}

// ---------------------------------------------------------------------------------------------
// Paired child: the editor's view. One warm process lints each file with every listed variant in
// turn (rotating which goes first), so that load changes on a shared machine hit all variants alike.

async function pairedChild(variants, corpusRoot, resultFile, passes) {
  // The ESLint class, as an editor's ESLint server uses it (lintText per file): it computes each
  // config once, where Linter#verify given a config array would normalise it again for every file.
  const { ESLint } = await import(require.resolve('eslint'));
  const engines = Object.fromEntries(
    await Promise.all(
      variants.map(async (v) => [v, new ESLint({ cwd: corpusRoot, overrideConfigFile: true, overrideConfig: await configFor(v, corpusRoot), cache: false })]),
    ),
  );
  const files = [...walkFiles(corpusRoot)].filter((f) => /\.(m|c)?[jt]sx?$/.test(f)).sort();
  const texts = files.map((f) => readFileSync(f, 'utf8'));
  const lint = async (v, i) => {
    const [result] = await engines[v].lintText(texts[i], { filePath: files[i] });
    const fatal = result.messages.find((m) => m.fatal);
    if (fatal) throw new Error(`${files[i]}: ${fatal.message}`);
  };
  // Warm-up: JIT, and the project service's program for typed variants.
  for (let i = 0; i < files.length; i += Math.max(1, Math.floor(files.length / 100))) for (const v of variants) await lint(v, i);
  const totals = Object.fromEntries(variants.map((v) => [v, { wallMs: 0, cpuMs: 0, perPass: [] }]));
  // CPU per file and variant over all passes, to split the totals by the files the rules engage.
  const perFileCpu = Object.fromEntries(variants.map((v) => [v, new Float64Array(files.length)]));
  const perFileWall = Object.fromEntries(variants.map((v) => [v, new Float64Array(files.length)]));
  // The fastest of the passes per file: what is left when no GC pause or other process landed on
  // that lint. Summed over files it is the steadiest of the paired figures (bench/lint.mjs --passes).
  const perFileMinWall = Object.fromEntries(variants.map((v) => [v, new Float64Array(files.length).fill(Infinity)]));
  for (let pass = 0; pass < passes; pass += 1) {
    const passTotals = Object.fromEntries(variants.map((v) => [v, { wallMs: 0, cpuMs: 0 }]));
    for (let i = 0; i < files.length; i += 1) {
      for (let k = 0; k < variants.length; k += 1) {
        const v = variants[(i + pass + k) % variants.length];
        const cpu0 = process.cpuUsage();
        const t0 = performance.now();
        await lint(v, i);
        const wall = performance.now() - t0;
        const cpu = process.cpuUsage(cpu0);
        passTotals[v].wallMs += wall;
        passTotals[v].cpuMs += (cpu.user + cpu.system) / 1000;
        perFileCpu[v][i] += (cpu.user + cpu.system) / 1000;
        perFileWall[v][i] += wall;
        if (wall < perFileMinWall[v][i]) perFileMinWall[v][i] = wall;
      }
    }
    for (const v of variants) {
      totals[v].perPass.push(passTotals[v]);
      totals[v].wallMs += passTotals[v].wallMs;
      totals[v].cpuMs += passTotals[v].cpuMs;
    }
  }
  const memory = process.memoryUsage();
  const engaged = variants.includes('b') ? await engagedFiles(files, texts, corpusRoot) : undefined;
  const engagedTotals = engaged && {
    files: engaged.length,
    lines: engaged.reduce((sum, i) => sum + countLines(texts[i]), 0),
    cpuMs: Object.fromEntries(variants.map((v) => [v, engaged.reduce((sum, i) => sum + perFileCpu[v][i], 0)])),
    wallMs: Object.fromEntries(variants.map((v) => [v, engaged.reduce((sum, i) => sum + perFileWall[v][i], 0)])),
  };
  const sum = (values, indexes) => indexes.reduce((total, i) => total + values[i], 0);
  const all = files.map((_, i) => i);
  const minWallMs = Object.fromEntries(variants.map((v) => [v, sum(perFileMinWall[v], all)]));
  if (engagedTotals) engagedTotals.minWallMs = Object.fromEntries(variants.map((v) => [v, sum(perFileMinWall[v], engaged)]));
  writeFileSync(resultFile, JSON.stringify({ variants, files: files.length, passes, totals, minWallMs, engaged: engagedTotals, heapUsedMb: Math.round(memory.heapUsed / 2 ** 20) }));
}

/**
 * The files (indexes) where at least one rule of `recommended` does work: its `create` returned
 * listeners. The rules return none for a file that cannot hold what they judge (no tool module,
 * no key name), which is most files of these packages, so the whole corpus's ratio is mostly
 * that skip; the ratio over the engaged files is what a file that defines tools or keys pays.
 * Found in an untimed pass through a copy of the plugin whose rules record what `create` returned.
 */
async function engagedFiles(files, texts, corpusRoot) {
  const { ESLint } = await import(require.resolve('eslint'));
  const retrysafe = (await import(pluginEntry())).default;
  const probe = engagementProbe(retrysafe);
  const [base, recommended] = await configFor('b', corpusRoot);
  const probed = { ...recommended, plugins: { '@retrysafe': probe.plugin } };
  const eslint = new ESLint({ cwd: corpusRoot, overrideConfigFile: true, overrideConfig: [base, probed], cache: false });
  const engaged = [];
  for (let i = 0; i < files.length; i += 1) {
    await eslint.lintText(texts[i], { filePath: files[i] });
    if (probe.engaged()) engaged.push(i);
  }
  return engaged;
}

// ---------------------------------------------------------------------------------------------
// Helpers

function machine() {
  const c = cpus();
  return { cpu: c[0]?.model, cores: c.length, node: process.version, loadavg: loadavg() };
}

const fmtLoad = () => formatLoad(loadavg());
const fmtMs = (ms) => (ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`);
const fmtPct = (x) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;

// Entry point last, so that every declaration above is initialised.
const args = readFlags(['corpus', 'corpus-root', 'plugin', 'base-plugin', 'timing-rounds', 'rounds', 'variants', 'paired', 'passes', 'out', 'paired-child', 'child', 'corpus-dir', 'result', 'instrument']);
if (args['paired-child']) await pairedChild(args['paired-child'].split(','), args['corpus-dir'], args.result, Number(args.passes ?? 2));
else if (args.child) await child(args.child, args['corpus-dir'], args.result, args.instrument === '1');
else await parent();
