import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';

const tests = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Starts `tests/fixtures/<fixture>` (TypeScript, through helpers/ts-loader.mjs) in a Node child
 * process with `args` as its one JSON argument, from the package's folder, stdout and stderr piped:
 * the crash, resume, redelivery and store-down tests' own process.
 */
export function spawnFixture(fixture: string, args: object): ChildProcessByStdio<null, Readable, Readable> {
  return spawn(process.execPath, ['--import', join(tests, 'helpers/ts-loader.mjs'), join(tests, 'fixtures', fixture), JSON.stringify(args)], {
    cwd: join(tests, '..'),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}
