import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { audit } from '../src/index.js';
import { fixture } from './support.js';

// The compiled twin of tests/fixtures/clean/src/status.ts: that file has no type annotations, so
// tsc's output is its text.
const COMPILED = readFileSync(path.join(fixture('clean'), 'src/status.ts'), 'utf8');

describe('build output, with the plugin\'s recommended config (no project config)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'retrysafe-cli-build-output-'));
    cpSync(fixture('clean'), dir, { recursive: true });
    for (const folder of ['dist', 'build', 'out', '.next', 'coverage', 'packages/api/dist']) {
      mkdirSync(path.join(dir, folder), { recursive: true });
      writeFileSync(path.join(dir, folder, 'status.js'), COMPILED);
    }
    mkdirSync(path.join(dir, 'lib'));
    writeFileSync(path.join(dir, 'lib/status.js'), COMPILED);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const files = async (paths: string[] = ['.'], ignore = true) =>
    (await audit({ cwd: dir, configLookup: false, paths, ignore })).tools.map((tool) => tool.file).sort();

  it('audits the sources once, not dist/, build/, out/, .next/ or coverage/ at any depth', async () => {
    expect(await files()).toEqual(['lib/status.js', 'src/status.ts']);
  });

  it('audits a build folder that a given path names or lies in', async () => {
    expect(await files(['dist'])).toEqual(['dist/status.js']);
    expect(await files(['packages/api/dist/status.js'])).toEqual(['packages/api/dist/status.js']);
  });

  it('audits every folder with --no-ignore', async () => {
    expect(await files(['.'], false)).toHaveLength(8);
  });
});
