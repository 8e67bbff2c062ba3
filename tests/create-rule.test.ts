import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterAll, describe, expect, it } from 'vitest';

// scripts/create-rule.mjs, the scaffold docs/contributing.md's "Add a rule" starts from: run into a
// copy of the plugin package, what it writes type-checks, lints clean and is registered in order.
const repoRoot = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const script = path.join(repoRoot, 'scripts/create-rule.mjs');
const pluginDir = path.join(repoRoot, 'packages/eslint-plugin');
const tsc = createRequire(path.join(pluginDir, 'package.json')).resolve('typescript/bin/tsc');
const WRITTEN = ['src/rules/no-example-call.ts', 'tests/rules/no-example-call.test.ts', 'docs/rules/no-example-call.md'];

const run = (...args: string[]) => spawnSync(process.execPath, [script, ...args], { encoding: 'utf8' });

describe('scripts/create-rule.mjs', () => {
  it('--dry-run prints the rule, its test, its doc and the registration, and writes nothing', () => {
    const indexBefore = readFileSync(path.join(pluginDir, 'src/rules/index.ts'), 'utf8');
    const result = run('no-example-call', '--description', 'Disallow example calls', '--dry-run');
    expect(result.status, result.stderr).toBe(0);
    for (const file of WRITTEN) {
      expect(result.stdout).toContain(`--- would write packages/eslint-plugin/${file}`);
      expect(existsSync(path.join(pluginDir, file))).toBe(false);
    }
    expect(result.stdout).toContain("  'no-example-call': noExampleCall,");
    expect(readFileSync(path.join(pluginDir, 'src/rules/index.ts'), 'utf8')).toBe(indexBefore);
  });

  it.each([
    ['an existing rule', ['no-random-key', '--description', 'Disallow random keys'], 'registered already'],
    ['a type-aware rule alone', ['no-example-call-type-checked', '--description', 'Disallow example calls'], 'createTwinRule'],
    ['a description that is not Enforce, Require or Disallow', ['no-example-call', '--description', 'Checks calls'], 'Enforce, Require or Disallow'],
    ['an id that is not kebab-case', ['noExampleCall', '--description', 'Disallow example calls'], 'kebab-case'],
  ])('refuses %s', (_case, args, message) => {
    const result = run(...args, '--dry-run');
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain(message);
  });

  describe('into a copy of the plugin package', () => {
    // The copy sits where its tsconfig finds the repository's base config and packages.
    const copy = mkdtempSync(path.join(tmpdir(), 'retrysafe-create-rule-'));
    afterAll(() => rmSync(copy, { recursive: true, force: true }));
    const copiedPlugin = path.join(copy, 'packages/eslint-plugin');
    cpSync(pluginDir, copiedPlugin, { recursive: true, filter: (source) => !/\/(node_modules|dist)$/.test(source) });
    cpSync(path.join(repoRoot, 'tsconfig.base.json'), path.join(copy, 'tsconfig.base.json'));
    symlinkSync(path.join(pluginDir, 'node_modules'), path.join(copiedPlugin, 'node_modules'));
    symlinkSync(path.join(repoRoot, 'node_modules'), path.join(copy, 'node_modules'));
    const result = run('no-example-call', '--description', 'Disallow example calls', '--root', copy);

    it('writes the rule, its test and its doc', () => {
      expect(result.status, result.stderr).toBe(0);
      for (const file of WRITTEN) expect(existsSync(path.join(copiedPlugin, file)), file).toBe(true);
    });

    it('registers the rule in src/rules/index.ts, sorted by id as plugin.test.ts checks', async () => {
      const rulesDir = path.join(copiedPlugin, 'src/rules');
      const index = readFileSync(path.join(rulesDir, 'index.ts'), 'utf8');
      const registered = [...index.matchAll(/^ {2}'([^']+)': /gm)].map((match) => match[1]);
      const files = readdirSync(rulesDir).filter((file) => file.endsWith('.ts') && file !== 'index.ts').map((file) => file.replace(/\.ts$/, '')).sort();
      expect(registered).toEqual(files);
      expect(registered).toContain('no-example-call');
    });

    it('type-checks with the package (tsc --noEmit -p tsconfig.json)', () => {
      let output = '';
      try {
        execFileSync(process.execPath, [tsc, '--noEmit', '-p', path.join(copiedPlugin, 'tsconfig.json')], { encoding: 'utf8', stdio: 'pipe' });
      } catch (error) {
        output = String((error as { stdout?: string }).stdout ?? error);
      }
      expect(output).toBe('');
    });

    it('lints clean with typescript-eslint’s recommended config, as the repository lints its sources', async () => {
      const eslint = new ESLint({
        cwd: copy,
        overrideConfigFile: true,
        overrideConfig: tseslint.config({ files: ['**/*.ts'], extends: [tseslint.configs.recommended] }) as ESLint.Options['overrideConfig'],
      });
      const results = await eslint.lintFiles(['src/rules/no-example-call.ts', 'src/rules/index.ts', 'tests/rules/no-example-call.test.ts'].map((file) => `packages/eslint-plugin/${file}`));
      expect(results.flatMap((lint) => lint.messages.map((message) => `${path.basename(lint.filePath)}:${message.line} ${message.ruleId}: ${message.message}`))).toEqual([]);
    });
  });
});
