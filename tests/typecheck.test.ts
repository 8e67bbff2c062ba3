import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

// vitest strips types without checking them: `tsc --noEmit` over each package's sources and tests
// (its tsconfig.json), so that a type error anywhere fails the test command, as `pnpm typecheck`.
const repoRoot = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const tsc = createRequire(path.join(repoRoot, 'packages/spec/package.json')).resolve('typescript/bin/tsc');

it.each(['packages/spec', 'packages/eslint-plugin', 'packages/cli'])('%s type-checks (tsc --noEmit -p tsconfig.json)', (packageDir) => {
  let output = '';
  try {
    execFileSync(process.execPath, [tsc, '--noEmit', '-p', path.join(repoRoot, packageDir, 'tsconfig.json')], { encoding: 'utf8', stdio: 'pipe' });
  } catch (error) {
    output = String((error as { stdout?: string }).stdout ?? error);
  }
  expect(output).toBe('');
});
