import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { type CliIo, runCli } from '../src/index.js';
import { createProgress } from '../src/progress.js';
import { fixture } from './support.js';

// The command line: exit codes (0 clean, 1 findings at or over --fail-on, 2 usage or parse error),
// --help, colour and the progress bar.

interface Captured extends CliIo {
  readonly out: () => string;
  readonly err: () => string;
}

function capture(env: Record<string, string> = {}, tty = false): Captured {
  const stdout = Object.assign(new PassThrough(), { isTTY: tty });
  const stderr = Object.assign(new PassThrough(), { isTTY: false });
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return { stdout, stderr, env, cwd: fixture('tools'), out: () => out, err: () => err };
}

const run = async (args: string[], io = capture()): Promise<{ code: number; out: string; err: string }> => {
  const code = await runCli(args, io);
  return { code, out: io.out(), err: io.err() };
};

describe('exit codes', () => {
  it('0 when nothing is at or over the threshold', async () => {
    expect((await run(['audit', '--cwd', fixture('clean'), '--no-config-lookup', '--fail-on', 'warn'])).code).toBe(0);
  });

  it('1 on errors (the default threshold), and with --fail-on warn on warnings too', async () => {
    expect((await run(['audit', '--no-config-lookup', 'src/refund.ts', 'src/points.ts', 'src/main.ts', 'src/worker.ts'])).code).toBe(1);
    expect((await run(['audit', '--no-config-lookup', '--fail-on', 'none', 'src/points.ts'])).code).toBe(0);
    expect((await run(['audit', '--no-config-lookup', 'src/mcp-server.ts'])).code).toBe(0);
    expect((await run(['audit', '--no-config-lookup', '--fail-on', 'warn', 'src/mcp-server.ts'])).code).toBe(1);
  });

  it('2 on a file that does not parse, after reporting everything else', async () => {
    const { code, out, err } = await run(['audit', '--no-config-lookup', '--format', 'json']);
    expect(code).toBe(2);
    expect(JSON.parse(out).tools).toHaveLength(18);
    expect(err).toMatch(/1 file\(s\) could not be parsed/);
  });

  it('2 on a usage error: an unknown format, an unknown option, a path that does not exist', async () => {
    expect((await run(['audit', '--format', 'xml'])).code).toBe(2);
    expect((await run(['audit', '--frobnicate'])).code).toBe(2);
    const missing = await run(['audit', '--no-config-lookup', 'no/such/folder']);
    expect(missing).toMatchObject({ code: 2, err: expect.stringContaining('No such file or folder: no/such/folder') });
  });
});

describe('--help', () => {
  it('documents every option and the exit codes', async () => {
    const { code, out } = await run(['audit', '--help']);
    expect(code).toBe(0);
    for (const option of ['--format', '--output', '--output-sarif', '--output-json', '--fail-on', '--config', '--no-config-lookup', '--no-ignore', '--cwd', '--color', '--no-color', '--no-progress', '--help']) {
      expect(out).toContain(option);
    }
    expect(out).toMatch(/Exit codes: 0 clean; 1 findings/);
  });

  it('the installed bin runs (node dist/bin.js)', () => {
    const bin = path.join(path.dirname(fileURLToPath(import.meta.url)), '../dist/bin.js');
    const result = spawnSync(process.execPath, [bin, 'audit', '--no-config-lookup', '--format', 'yaml', 'src/refund.ts'], { cwd: fixture('tools'), encoding: 'utf8' });
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('issue_refund:\n  side_effects: money_out');
  });
});

describe('colour', () => {
  const coloured = /\u001b\[/;
  it('plain when stdout is not a terminal, coloured on a terminal, NO_COLOR respected, --color forces', async () => {
    const args = ['audit', '--no-config-lookup', '--fail-on', 'none', 'src/refund.ts'];
    expect((await run(args)).out).not.toMatch(coloured);
    expect((await run(args, capture({}, true))).out).toMatch(coloured);
    expect((await run(args, capture({ NO_COLOR: '1' }, true))).out).not.toMatch(coloured);
    expect((await run([...args, '--color'])).out).toMatch(coloured);
    expect((await run([...args, '--no-color'], capture({}, true))).out).not.toMatch(coloured);
  });
});

describe('progress', () => {
  it('draws files scanned of the total on a terminal stream, and clears it at the end', () => {
    const stream = Object.assign(new PassThrough(), { isTTY: true, columns: 100, cursorTo: () => true, clearLine: () => true, moveCursor: () => true });
    let written = '';
    stream.on('data', (chunk: Buffer) => (written += chunk.toString()));
    const progress = createProgress(stream);
    progress.update(1, 3);
    progress.update(3, 3);
    progress.stop();
    expect(written).toMatch(/retrysafe audit .* 3\/3 files/);
  });

  it('stays off when stderr is not a terminal', async () => {
    expect((await run(['audit', '--no-config-lookup', '--fail-on', 'none', 'src/refund.ts'])).err).toBe('');
  });
});

describe('--output and --config', () => {
  it('--output writes the report to a file instead of stdout', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'retrysafe-cli-'));
    try {
      const file = path.join(dir, 'policies.yaml');
      const { code, out } = await run(['audit', '--no-config-lookup', '--format', 'yaml', '--output', file, 'src/refund.ts']);
      expect({ code, out }).toEqual({ code: 0, out: '' });
      expect(readFileSync(file, 'utf8')).toContain('issue_refund:');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('--output-<format> <file> writes several formats from one run, each as --format alone would (found by a new-user trial: five runs took six minutes)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'retrysafe-cli-outputs-'));
    try {
      const file = (format: string): string => path.join(dir, `audit.${format}`);
      const formats = ['table', 'json', 'sarif', 'markdown', 'yaml'] as const;
      const outputs = formats.flatMap((format) => [`--output-${format}`, file(format)]);
      const { code, out } = await run(['audit', '--no-config-lookup', '--no-color', ...outputs, 'src/refund.ts']);
      expect(code).toBe(0);
      // stdout still gets --format (the table by default) unless --output is given.
      expect(out).toBe(readFileSync(file('table'), 'utf8'));
      for (const format of formats) {
        const alone = await run(['audit', '--no-config-lookup', '--no-color', '--format', format, 'src/refund.ts']);
        expect(readFileSync(file(format), 'utf8'), format).toBe(alone.out);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('2 when the config lints none of the files: an audit that read nothing must not pass a CI gate (found by a new-user trial)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'retrysafe-audit-empty-'));
    try {
      mkdirSync(path.join(dir, 'src'));
      writeFileSync(path.join(dir, 'src/refund.ts'), 'export const refund = 1;\n');
      writeFileSync(path.join(dir, 'eslint.config.mjs'), "export default [{ files: ['src/**/*.js'] }];\n");
      const { code, err } = await run(['audit', '--cwd', dir, 'src']);
      expect(code).toBe(2);
      expect(err).toMatch(/^retrysafe: no file was audited under src: the ESLint config lints none/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('2 when the config file given with --config cannot be loaded', async () => {
    const { code, err } = await run(['audit', '--config', 'no-such.config.mjs', 'src/refund.ts']);
    expect(code).toBe(2);
    expect(err).toMatch(/^retrysafe: /);
  });
});
