import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
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
    expect(err).toMatch(/1 file could not be parsed and was skipped/);
  });

  it('2 on a usage error: an unknown format, an unknown option, a path that does not exist', async () => {
    expect((await run(['audit', '--format', 'xml'])).code).toBe(2);
    expect((await run(['audit', '--frobnicate'])).code).toBe(2);
    const missing = await run(['audit', '--no-config-lookup', 'no/such/folder']);
    expect(missing).toMatchObject({ code: 2, err: expect.stringContaining('No such file or folder: no/such/folder') });
  });
});

describe('exit code 2 on a setup ESLint cannot run, with the message and no stack', () => {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const packages = path.join(here, '../..');
  /**
   * A project laid out as npm installs it (the CLI and the plugin in its node_modules, their
   * dependencies beside them) whose `typescript` is the real TypeScript 7.0.2, not the documented
   * side-by-side: the plugin refuses it when it is imported, which is before the CLI runs.
   */
  function typescript7Project(files: Record<string, string>): string {
    const dir = mkdtempSync(path.join(tmpdir(), 'retrysafe-cli-ts7-'));
    const modules = path.join(dir, 'node_modules');
    const link = (name: string, from: string): void => {
      mkdirSync(path.dirname(path.join(modules, name)), { recursive: true });
      symlinkSync(realpathSync(path.join(from, 'node_modules', name)), path.join(modules, name));
    };
    for (const [name, parts] of [['cli', ['package.json', 'dist', 'schema']], ['eslint-plugin', ['package.json', 'dist']]] as const) {
      for (const part of parts) cpSync(path.join(packages, name, part), path.join(modules, '@retrysafe', name, part), { recursive: true });
    }
    for (const name of ['commander', 'cli-table3', 'cli-progress', 'picocolors', 'yaml', 'eslint']) link(name, path.join(packages, 'cli'));
    for (const name of ['@typescript-eslint/parser', '@typescript-eslint/utils']) link(name, path.join(packages, 'eslint-plugin'));
    const typescript7 = path.join(packages, '..', 'node_modules/.pnpm/typescript@7.0.2/node_modules/typescript');
    symlinkSync(realpathSync(typescript7), path.join(modules, 'typescript'));
    for (const [file, text] of Object.entries({ 'package.json': '{ "type": "module" }\n', 'src/index.ts': 'export const answer = 42;\n', ...files })) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), text);
    }
    return dir;
  }
  const audit = (dir: string, args: readonly string[]) =>
    spawnSync(process.execPath, [path.join(dir, 'node_modules/@retrysafe/cli/dist/bin.js'), 'audit', ...args], { cwd: dir, encoding: 'utf8' });

  it.each([
    ['the plugin\'s recommended config', {}, ['--no-config-lookup', 'src']],
    ['the project\'s eslint.config.mjs', { 'eslint.config.mjs': "import retrysafe from '@retrysafe/eslint-plugin';\nexport default [retrysafe.configs.recommended];\n" }, ['src']],
  ])('TypeScript 7 as the only typescript, with %s', (_name, files, args) => {
    const dir = typescript7Project(files);
    try {
      expect(readFileSync(path.join(dir, 'node_modules/typescript/package.json'), 'utf8')).toContain('"version": "7.0.2"');
      const result = audit(dir, args);
      expect(result.status, result.stderr).toBe(2);
      expect(result.stderr).toContain('retrysafe: @retrysafe/eslint-plugin: the typescript package is TypeScript 7.0.2, which has no JavaScript API.');
      expect(result.stderr).toContain('"typescript": "npm:@typescript/typescript6@6.0.2",');
      expect(result.stderr).not.toMatch(/^\s+at /m);
      expect(result.stderr).not.toContain('throw new Error');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('a project config whose parser is not installed', () => {
    const config = "import parser from 'no-such-parser-retrysafe';\nexport default [{ files: ['**/*.ts'], languageOptions: { parser } }];\n";
    const dir = mkdtempSync(path.join(tmpdir(), 'retrysafe-cli-noparser-'));
    try {
      writeFileSync(path.join(dir, 'eslint.config.mjs'), config);
      writeFileSync(path.join(dir, 'index.ts'), 'export const answer = 42;\n');
      const result = spawnSync(process.execPath, [path.join(here, '../dist/bin.js'), 'audit', '.'], { cwd: dir, encoding: 'utf8' });
      expect(result.status, result.stderr).toBe(2);
      expect(result.stderr).toMatch(/^retrysafe: .*no-such-parser-retrysafe/m);
      expect(result.stderr).not.toMatch(/^\s+at /m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
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
