// Instruction counts of the lint cost: what `recommended` adds per file, in a measure that does not
// move with the machine's load. Lints every `--step`-th file of the standard corpus (built by
// bench/lint.mjs) twice with one variant, in one process, meant to run under callgrind:
//
//   valgrind --tool=callgrind --callgrind-out-file=/dev/null node --predictable bench/lint-instructions.mjs --variant a --step 8
//
// and read the "Collected" total. `--predictable` makes V8 single-threaded (no concurrent compiler
// or GC threads), so the same run gives the same count to within 0.1%. Run a and b at two steps
// (8 and 40): the difference between the steps is the per-file cost, without process start-up.
// docs/performance.md has the figures.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { readFlags, walkFiles } from './lib.mjs';

const benchDir = dirname(fileURLToPath(import.meta.url));
const require = createRequire(join(benchDir, 'package.json'));
const flags = readFlags(['variant', 'step', 'corpus-dir']);
const root = flags['corpus-dir'] ?? join(tmpdir(), 'retrysafe-bench-lint-corpus-standard');
const variant = flags.variant ?? 'b';
const step = Number(flags.step ?? 8);

const { Linter } = await import(require.resolve('eslint'));
const retrysafe = (await import(require.resolve('@retrysafe/eslint-plugin'))).default;
const tseslint = (await import(require.resolve('typescript-eslint'))).default;
const files = retrysafe.configs.recommended.files;
const base = { files, languageOptions: { parser: tseslint.parser, sourceType: 'module' }, linterOptions: { reportUnusedDisableDirectives: 'off' } };
const config = variant === 'a' ? [base] : [base, retrysafe.configs.recommended];

const paths = [...walkFiles(root)].filter((f) => /\.(m|c)?[jt]sx?$/.test(f)).sort().filter((_, i) => i % step === 0);
const texts = paths.map((f) => readFileSync(f, 'utf8'));
const linter = new Linter({ configType: 'flat', cwd: root });
for (let pass = 0; pass < 2; pass += 1) {
  for (let i = 0; i < paths.length; i += 1) linter.verify(texts[i], config, paths[i]);
}
console.log(`variant ${variant}: ${paths.length} files, 2 passes`);
