// The warm cost of `recommended` per file, as an editor or a long-lived ESLint instance pays it: two
// ESLint instances in one process (the TypeScript parser alone, and the parser with `recommended`),
// each warmed by one pass over the agent corpus, then every file linted `--repeat` times by each in
// turn, and the lowest CPU time (process.cpuUsage, user + system) of each kept. Prints the total
// over all files, (b - a) / a, and the files that cost the most. A wall-clock diagnostic beside the
// instruction counts of bench/lint-instructions.mjs (whose `--passes N` measures the same steady
// cost by instructions); not a timed assertion.
//
//   node bench/lint-per-file.mjs [--plugin <folder of a build of packages/eslint-plugin>] [--repeat 5] [--top 15]
//   (the corpus is bench/agentCorpus.mjs's, in the temp folder; `node bench/lint-instructions.mjs` builds it)
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

import { buildAgentCorpus, corpusFiles } from './agentCorpus.mjs';
import { readFlags } from './lib.mjs';

const benchDir = dirname(fileURLToPath(import.meta.url));
const require = createRequire(join(benchDir, 'package.json'));
const flags = readFlags(['plugin', 'repeat', 'top']);
const root = join(tmpdir(), 'retrysafe-bench-agent-corpus');
buildAgentCorpus(root);
const { ESLint } = await import(require.resolve('eslint'));
const tseslint = (await import(require.resolve('typescript-eslint'))).default;
const plugin = (await import(flags.plugin ? join(flags.plugin, 'dist', 'index.js') : require.resolve('@retrysafe/eslint-plugin'))).default;
const base = { files: ['**/*.{js,mjs,cjs,jsx,ts,mts,cts,tsx}'], languageOptions: { parser: tseslint.parser, sourceType: 'module' }, linterOptions: { reportUnusedDisableDirectives: 'off' } };
const parseOnly = new ESLint({ cwd: root, overrideConfigFile: true, overrideConfig: [base], cache: false });
const recommended = new ESLint({ cwd: root, overrideConfigFile: true, overrideConfig: [base, plugin.configs.recommended], cache: false });
const files = corpusFiles(root);
await parseOnly.lintFiles(files);
await recommended.lintFiles(files);
const cpuMs = async (eslint, file) => {
  const start = process.cpuUsage();
  await eslint.lintFiles([file]);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};
const repeat = Number(flags.repeat ?? 5);
const rows = [];
for (const file of files) {
  let a = Infinity;
  let b = Infinity;
  for (let i = 0; i < repeat; i += 1) {
    a = Math.min(a, await cpuMs(parseOnly, file));
    b = Math.min(b, await cpuMs(recommended, file));
  }
  rows.push({ file: relative(root, file), a, b });
}
const sumA = rows.reduce((n, row) => n + row.a, 0);
const sumB = rows.reduce((n, row) => n + row.b, 0);
console.log(`${files.length} files, lowest of ${repeat} CPU times each: parser only ${sumA.toFixed(0)} ms, recommended ${sumB.toFixed(0)} ms, (b-a)/a ${(((sumB - sumA) / sumA) * 100).toFixed(1)}%`);
console.log('  b-a ms   a ms  file');
for (const row of rows.sort((x, y) => y.b - y.a - (x.b - x.a)).slice(0, Number(flags.top ?? 15))) {
  console.log(`${(row.b - row.a).toFixed(1).padStart(8)} ${row.a.toFixed(1).padStart(6)}  ${row.file}`);
}
