// The TypeScript 7 setup of docs/typescript-7.md, as this project installs it: `typescript` is
// @typescript/typescript6 (the TypeScript 6 API, for ESLint and the plugin), `@typescript/native` is
// typescript@7.0.2 (its `tsc`). pnpm installs the plugin as a copy (injected), so its `typescript`
// peer resolves here, as in a user's project, and not to the monorepo's own TypeScript.
import { NOT_DURABLE_KEY_PART } from '@retrysafe/spec';
import { spawnSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const projectDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');

function run(bin: string, args: readonly string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(path.join(projectDir, 'node_modules/.bin', bin), args, { cwd: projectDir, encoding: 'utf8' });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

interface EslintResult {
  readonly filePath: string;
  readonly messages: readonly { readonly line: number; readonly ruleId: string | null; readonly fatal?: boolean; readonly message: string }[];
}

describe('a TypeScript 7 project, side by side with TypeScript 6', () => {
  it('runs tsc from TypeScript 7 and keeps TypeScript 6 as tsc6', () => {
    expect(run('tsc', ['--version']).stdout.trim()).toBe('Version 7.0.2');
    expect(run('tsc6', ['--version']).stdout.trim()).toMatch(/^Version 6\.0\.\d+$/);
  });

  it('gives the plugin the TypeScript 6 API under the name typescript', () => {
    const pluginDir = realpathSync(path.join(projectDir, 'node_modules/@retrysafe/eslint-plugin'));
    expect(pluginDir.startsWith(path.join(projectDir, '../../packages'))).toBe(false); // a copy, not the workspace folder
    const fromPlugin = createRequire(path.join(pluginDir, 'package.json'));
    expect((fromPlugin('typescript/package.json') as { name: string }).name).toBe('@typescript/typescript6');
    const fromParser = createRequire(fromPlugin.resolve('@typescript-eslint/parser'));
    expect(realpathSync(fromParser.resolve('typescript'))).toBe(realpathSync(fromPlugin.resolve('typescript')));
  });

  it('lints with recommended-type-checked: the type-aware rules on TypeScript, the others on a .mjs outside the tsconfig', () => {
    const { stdout } = run('eslint', ['--format', 'json', '.']);
    const findings = (JSON.parse(stdout) as EslintResult[])
      .flatMap((result) =>
        result.messages.map((message) => `${path.relative(projectDir, result.filePath)}:${message.line} ${message.ruleId ?? `fatal: ${message.message}`}`),
      )
      .sort();
    expect(findings).toEqual([
      'scripts/backfill.mjs:6 @retrysafe/no-random-key',
      'src/tools.ts:30 @retrysafe/no-random-key',
      'src/tools.ts:36 @retrysafe/no-key-cast-type-checked',
    ]);
  });

  it("type-checks with TypeScript 7's tsc, which names the part of the key that is not durable", () => {
    const { status, stdout } = run('tsc', ['-p', 'tsconfig.json', '--pretty', 'false']);
    expect(stdout.trim().split('\n')).toEqual([
      `src/tools.ts(30,46): error TS2345: Argument of type 'number' is not assignable to parameter of type 'NotDurableKeyPart<"${NOT_DURABLE_KEY_PART}">'.`,
    ]);
    expect(status).not.toBe(0);
  });
});
