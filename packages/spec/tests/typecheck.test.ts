import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

// vitest strips types without checking them: this runs `tsc --noEmit` over the package's sources
// and tests (tsconfig.json), so that a type error anywhere in the package fails the test command.
const packageDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

it('the package type-checks (tsc --noEmit -p tsconfig.json)', () => {
  let output = '';
  try {
    execFileSync(process.execPath, [tsc, '--noEmit', '-p', path.join(packageDir, 'tsconfig.json')], { encoding: 'utf8', stdio: 'pipe' });
  } catch (error) {
    output = String((error as { stdout?: string }).stdout ?? error);
  }
  expect(output).toBe('');
}, 120_000);
