import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ESLint, Linter } from 'eslint';
import { describe, expect, it } from 'vitest';

import plugin from '../src/index.js';
import { rules } from '../src/rules/index.js';

const packageDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const ruleFiles = readdirSync(path.join(packageDir, 'src/rules'))
  .filter((file) => file.endsWith('.ts') && file !== 'index.ts')
  .map((file) => file.replace(/\.ts$/, ''))
  .sort();

describe('the plugin object', () => {
  it('names itself with meta and a namespace', () => {
    expect(plugin.meta).toMatchObject({ name: '@retrysafe/eslint-plugin', namespace: '@retrysafe' });
    expect(plugin.meta.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('registers every rule file, sorted by id', () => {
    expect(Object.keys(rules)).toEqual(ruleFiles);
    expect(ruleFiles.length).toBeGreaterThan(0);
  });

  it.each(ruleFiles)('%s has a doc and a test', (id) => {
    expect(existsSync(path.join(packageDir, 'docs/rules', `${id}.md`))).toBe(true);
    expect(existsSync(path.join(packageDir, 'tests/rules', `${id}.test.ts`))).toBe(true);
  });

  it.each(ruleFiles)('%s describes itself as Enforce, Require or Disallow', (id) => {
    const rule = rules[id as keyof typeof rules] as { meta: { docs?: { description?: string } } };
    expect(rule.meta.docs?.description).toMatch(/^(Enforce|Require|Disallow) /);
  });
});

describe('the programmatic entry point, @retrysafe/eslint-plugin/analysis', () => {
  it('is a subpath export of the built package, and exports the analysis', () => {
    const manifest = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
    expect(manifest.exports['./analysis']).toEqual({ types: './dist/analysis/index.d.ts', import: './dist/analysis/index.js', default: './dist/analysis/index.js' });
    expect(existsSync(path.join(packageDir, 'dist/analysis/index.js')), 'build first: pnpm --filter @retrysafe/eslint-plugin build').toBe(true);
    // Resolved by the package's own name, as a user's import is (Node's self-reference).
    const script = "const a = await import('@retrysafe/eslint-plugin/analysis'); console.log(Object.keys(a).sort().join(' '));";
    const exported = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: packageDir, encoding: 'utf8' }).trim();
    expect(exported.split(' ')).toEqual(expect.arrayContaining(['describeTool', 'findKeys', 'findSources', 'recogniseTools', 'traceKey']));
  });
});

describe('twin rules (a rule and its -type-checked twin)', () => {
  type TwinDocs = { twin?: string; requiresTypeChecking?: boolean };
  const docsOf = (id: string): TwinDocs => (rules as Record<string, { meta: { docs?: TwinDocs } }>)[id]?.meta.docs ?? {};
  const typeChecked = ruleFiles.filter((id) => id.endsWith('-type-checked'));

  it('every -type-checked rule has a twin', () => {
    expect(typeChecked.length).toBeGreaterThan(0);
    for (const id of typeChecked) expect(docsOf(id).twin, id).toBe(id.replace(/-type-checked$/, ''));
  });

  it.each(ruleFiles.filter((id) => docsOf(id).twin !== undefined))('%s and its twin name each other in meta.docs.twin', (id) => {
    const twin = docsOf(id).twin ?? '';
    expect(ruleFiles).toContain(twin);
    expect(docsOf(twin).twin).toBe(id);
    // One of the pair needs type information and is named for it; the other needs none.
    const [syntactic, typed] = docsOf(id).requiresTypeChecking ? [twin, id] : [id, twin];
    expect(docsOf(typed).requiresTypeChecking).toBe(true);
    expect(docsOf(syntactic).requiresTypeChecking).toBe(false);
    expect(typed).toBe(`${syntactic}-type-checked`);
  });
});

describe('configs generated from rule metadata', () => {
  type Docs = { recommended?: string; requiresTypeChecking?: boolean; severity?: 'error' | 'warn' };
  const docsOf = (id: string): Docs =>
    ((rules as Record<string, { meta: { docs?: Docs } }>)[id]?.meta.docs ?? {});
  /** The rule levels a config must hold: each rule at its metadata's severity, `'error'` by default. */
  const levelsOf = (ids: readonly string[]): Record<string, string> =>
    Object.fromEntries(ids.map((id) => [`@retrysafe/${id}`, docsOf(id).severity ?? 'error']));
  const recommendedUntyped = ruleFiles.filter((id) => docsOf(id).recommended === 'recommended' && !docsOf(id).requiresTypeChecking);
  const typeAware = ruleFiles.filter((id) => docsOf(id).requiresTypeChecking === true);
  const configObjects = (): Linter.Config[] => Object.values(plugin.configs).flat() as Linter.Config[];
  const [untyped, typed] = plugin.configs['recommended-type-checked'];

  it('ships recommended, recommended-type-checked and disable-type-checked', () => {
    // `strict` is gone: it listed what recommended lists (every rule meets the recommended bar).
    expect(Object.keys(plugin.configs).sort()).toEqual(['disable-type-checked', 'recommended', 'recommended-type-checked']);
  });

  it('recommended turns on every recommended rule that needs no types, at its severity', () => {
    expect(plugin.configs.recommended.rules).toEqual(levelsOf(recommendedUntyped));
    expect(recommendedUntyped).toEqual(expect.arrayContaining(['no-random-key', 'require-retry-policy']));
  });

  it('recommended-type-checked is recommended on every file, then the type-aware rules with the project service on TypeScript files', () => {
    expect(plugin.configs['recommended-type-checked']).toHaveLength(2);
    expect(untyped?.rules).toEqual(levelsOf(recommendedUntyped));
    expect(untyped?.files).toEqual(plugin.configs.recommended.files);
    const expectedTyped = typeAware.filter((id) => docsOf(id).recommended === 'recommended');
    expect(Object.keys(typed?.rules ?? {})).toEqual(expectedTyped.map((id) => `@retrysafe/${id}`));
    expect(typed?.rules).toEqual(levelsOf(expectedTyped));
    expect(typed?.files).toEqual(['**/*.{ts,mts,cts,tsx}']);
    expect(typed?.languageOptions?.parserOptions).toEqual({ projectService: true });
  });

  it('disable-type-checked turns every type-aware rule off and type information off', () => {
    const disable = plugin.configs['disable-type-checked'];
    expect(disable.rules).toEqual(Object.fromEntries(typeAware.map((id) => [`@retrysafe/${id}`, 'off'])));
    expect(typeAware.length).toBeGreaterThan(0);
    expect(disable.languageOptions?.parserOptions).toEqual({ program: null, project: false, projectService: false });
    expect(disable.files).toBeUndefined();
  });

  it('a rule that guesses (meta.docs.severity: warn) warns in every config; the others are errors', () => {
    const warning = ruleFiles.filter((id) => docsOf(id).severity === 'warn');
    expect(warning).toEqual(['no-misleading-idempotent-hint']);
    for (const config of configObjects().filter((object) => object !== plugin.configs['disable-type-checked'])) {
      for (const [ruleId, level] of Object.entries(config.rules ?? {})) {
        expect(level, `${config.name}: ${ruleId}`).toBe(warning.includes(ruleId.replace('@retrysafe/', '')) ? 'warn' : 'error');
      }
    }
    expect(plugin.configs.recommended.rules?.['@retrysafe/no-misleading-idempotent-hint']).toBe('warn');
  });

  it('lints JavaScript as well as TypeScript files, and every config object names the plugin', () => {
    expect(plugin.configs.recommended.files).toEqual(['**/*.{js,mjs,cjs,jsx,ts,mts,cts,tsx}']);
    for (const config of configObjects()) {
      expect(config.name).toMatch(/^@retrysafe\//);
      expect(config.plugins?.['@retrysafe']).toBe(plugin);
    }
  });
});

describe('options across files', () => {
  // createRule keeps the merged options per `context.options` array (docs/performance.md): configs
  // with different options, linted in turn by one Linter, must each get their own.
  it('each config gets its own options, and the defaults stay the defaults', async () => {
    const { Linter } = await import('eslint');
    const parser = await import('@typescript-eslint/parser');
    const linter = new Linter({ configType: 'flat' });
    const code = "fetch(url, { headers: { 'X-Op-Key': crypto.randomUUID() } });";
    const lint = (options: unknown[]) =>
      linter
        .verify(code, [
          {
            files: ['**/*.ts'],
            languageOptions: { parser: parser as Linter.Parser },
            // typescript-eslint's plugin types and ESLint's differ in optional-property details.
            plugins: { '@retrysafe': plugin as unknown as ESLint.Plugin },
            rules: { '@retrysafe/no-random-key': ['error', ...options] },
          },
        ], 'file.ts')
        .map((message) => message.ruleId);
    expect(lint([])).toEqual([]);
    expect(lint([{ keyNames: ['X-Op-Key'] }])).toEqual(['@retrysafe/no-random-key']);
    expect(lint([{ keyNames: ['X-Other'] }])).toEqual([]);
    expect(lint([{ keyNames: ['x-op-key'] }])).toEqual(['@retrysafe/no-random-key']);
    expect(lint([])).toEqual([]);
  });

  // Through the ESLint class, each file's `context.options` holds the config's own options object,
  // by which createRule finds the merged options: two configs in one engine, files in turn.
  it('the ESLint class: each config object keeps its own options across files', async () => {
    const { ESLint } = await import('eslint');
    const parser = await import('@typescript-eslint/parser');
    const rule = (options: unknown[]) => ({
      languageOptions: { parser: parser as Linter.Parser },
      plugins: { '@retrysafe': plugin as unknown as ESLint.Plugin },
      rules: { '@retrysafe/no-random-key': ['error', ...options] },
    });
    const eslint = new ESLint({
      overrideConfigFile: true,
      overrideConfig: [
        { files: ['keyed/**/*.ts'], ...rule([{ keyNames: ['X-Op-Key'] }]) },
        { files: ['plain/**/*.ts'], ...rule([]) },
      ] as never,
    });
    const code = "fetch(url, { headers: { 'X-Op-Key': crypto.randomUUID() } });";
    const ruleIds = async (filePath: string) =>
      (await eslint.lintText(code, { filePath }))[0]!.messages.map((message) => message.ruleId);
    for (let pass = 0; pass < 2; pass += 1) {
      expect(await ruleIds('keyed/a.ts')).toEqual(['@retrysafe/no-random-key']);
      expect(await ruleIds('plain/a.ts')).toEqual([]);
      expect(await ruleIds('keyed/b.ts')).toEqual(['@retrysafe/no-random-key']);
    }
  });
});
