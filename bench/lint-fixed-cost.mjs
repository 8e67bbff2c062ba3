// The fixed per-process cost of `recommended`: one trivial file linted through the ESLint class, as
// `eslint file.ts` does, so nearly all of what the plugin adds is start-up: importing it and ESLint
// compiling each enabled rule's `meta.schema` with ajv (once per process, options given or not).
// Each variant runs as one process under valgrind (`--tool=cachegrind --cache-sim=no`, `node
// --predictable`, as bench/lint-instructions.mjs does) and the bench reads valgrind's "I refs".
//
//   node bench/lint-fixed-cost.mjs [--rounds 2] [--variants a,b,a2] [--plugin <folder>] [--jobs 2]
//   node bench/lint-fixed-cost.mjs --child <variant>     (one process, what valgrind runs)
//
// Variants:
//   a, a2   the TypeScript parser and no rules (the plugin is not loaded); a2 is the A/A control;
//   b       the parser and the plugin's `recommended` config;
//   b0      the same from another build of the plugin (`--plugin <packages/eslint-plugin folder>`);
//   b:empty `recommended` with every rule's `meta.schema` replaced by `[]` (and no `meta.defaultOptions`,
//           which ESLint would validate) before ESLint sees it:
//           what the options' schemas cost to compile, beyond ajv itself (a diagnostic only: the
//           rules then take no options);
//   b:none  the same with `meta.schema: false`: ajv is never loaded (a diagnostic only).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { countInstructionsOf, formatLoad, median, readFlags, table } from './lib.mjs';

const benchDir = dirname(fileURLToPath(import.meta.url));
const require = createRequire(join(benchDir, 'package.json'));
const flags = readFlags(['variants', 'rounds', 'child', 'plugin', 'jobs', 'dir']);
const FILES = ['**/*.{js,mjs,cjs,jsx,ts,mts,cts,tsx}'];

async function configFor(variant) {
  const tseslint = (await import(require.resolve('typescript-eslint'))).default;
  const base = { files: FILES, languageOptions: { parser: tseslint.parser, sourceType: 'module' } };
  if (variant === 'a' || variant === 'a2') return [base];
  const entry = variant === 'b0' ? join(flags.plugin, 'dist', 'index.js') : require.resolve('@retrysafe/eslint-plugin');
  const retrysafe = (await import(entry)).default;
  const recommended = retrysafe.configs.recommended;
  if (variant === 'b' || variant === 'b0') return [base, recommended];
  const schema = { 'b:empty': [], 'b:none': false }[variant];
  if (schema === undefined) throw new Error(`unknown variant ${variant}; known: a, a2, b, b0, b:empty, b:none`);
  const rules = Object.fromEntries(Object.entries(retrysafe.rules).map(([id, rule]) => [id, { ...rule, meta: { ...rule.meta, schema, defaultOptions: undefined } }]));
  return [base, { ...recommended, plugins: { '@retrysafe': { ...retrysafe, rules } } }];
}

async function child(variant) {
  const { ESLint } = await import(require.resolve('eslint'));
  const dir = flags.dir;
  const eslint = new ESLint({ cwd: dir, overrideConfigFile: true, overrideConfig: await configFor(variant), cache: false });
  const results = await eslint.lintFiles([join(dir, 'tool.ts')]);
  console.log(JSON.stringify({ variant, messages: results.flatMap((r) => r.messages.map((m) => `${m.ruleId} ${m.message}`)) }));
}

async function countInstructions(variant, dir) {
  const args = [fileURLToPath(import.meta.url), '--child', variant, '--dir', dir, ...(flags.plugin ? ['--plugin', flags.plugin] : [])];
  const { instructions, stdout } = await countInstructionsOf(args, `variant ${variant}`);
  return { variant, instructions, out: JSON.parse(stdout.trim().split('\n').pop()) };
}

async function parent() {
  const rounds = Number(flags.rounds ?? 2);
  const variants = (flags.variants ?? 'a,b,a2').split(',');
  if (variants[0] !== 'a') throw new Error('the first variant is the baseline and must be a');
  const dir = mkdtempSync(join(tmpdir(), 'retrysafe-fixed-cost-'));
  // One small file that none of the rules engage: what every process pays before the first finding.
  writeFileSync(join(dir, 'tool.ts'), 'export function add(a: number, b: number): number {\n  return a + b;\n}\n');
  const start = loadavg();
  const queue = [];
  for (let round = 0; round < rounds; round += 1) for (const v of round % 2 === 0 ? variants : [...variants].reverse()) queue.push({ round, v });
  const runs = [];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const r = { round: next.round, ...(await countInstructions(next.v, dir)) };
      runs.push(r);
      console.log(`  round ${r.round + 1} ${r.variant}: ${(r.instructions / 1e6).toFixed(1)}M instructions`);
    }
  };
  await Promise.all(Array.from({ length: Number(flags.jobs ?? 2) }, worker));
  const at = (v, round) => runs.find((r) => r.variant === v && r.round === round).instructions;
  const rows = variants.map((v) => {
    const xs = [...Array(rounds).keys()].map((round) => at(v, round));
    const over = [...Array(rounds).keys()].map((round) => at(v, round) - at('a', round));
    return [v, `${(median(xs) / 1e6).toFixed(1)}M`, `${(median(over) / 1e6).toFixed(1)}M`, `${over.map((x) => (x / 1e6).toFixed(1)).join(', ')}`];
  });
  console.log(table(['variant', 'instructions (median)', 'over a (median)', 'over a per round (M)'], rows));
  console.log(`load ${formatLoad(start)} -> ${formatLoad(loadavg())}`);
}

if (flags.child) await child(flags.child);
else await parent();
