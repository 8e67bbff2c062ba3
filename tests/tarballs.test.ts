// The packed packages in fresh projects outside the monorepo, installed with npm from the npm
// registry as a user installs them (this test needs the registry; npm's cache makes reruns quick):
// - next to typescript-eslint 8.74, the plugin's @typescript-eslint/parser and utils are
//   typescript-eslint's own copies (one of each), lint works, and typescript-eslint's experimental
//   native (TypeScript 7.1) backend gives the type-aware rules the same findings as the classic one;
// - with TypeScript 7 as the only TypeScript, ESLint stops with the plugin's message, which spells
//   out the side-by-side setup; so does `retrysafe audit` when typescript-eslint is installed too
//   (exit code 2, no stack).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { packPackage } from './support/tarballs.js';

const INSTALL_MS = 300_000;
const projects: string[] = [];
let pluginTarball = '';
let specTarball = '';
let cliTarball = '';

beforeAll(() => {
  pluginTarball = packPackage('eslint-plugin');
  specTarball = packPackage('spec');
  cliTarball = packPackage('cli');
}, INSTALL_MS);
// Removing the projects' node_modules trees takes seconds, and more than vitest's default 10 s hook
// timeout on a loaded machine.
afterAll(() => {
  for (const dir of [...projects, path.dirname(pluginTarball), path.dirname(specTarball), path.dirname(cliTarball)]) {
    if (dir !== '.') rmSync(dir, { recursive: true, force: true });
  }
}, INSTALL_MS);

/** A fresh project in the system's temporary folder (nothing there resolves from the monorepo). */
function createProject(name: string, devDependencies: Record<string, string>, files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `retrysafe-${name}-`));
  projects.push(dir);
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, private: true, type: 'module', devDependencies }, null, 2));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

/** What a project that runs `retrysafe audit` installs: the packed CLI and plugin, ESLint and the given `typescript`. */
function auditDependencies(typescript: string): Record<string, string> {
  return { '@retrysafe/cli': `file:${cliTarball}`, '@retrysafe/eslint-plugin': `file:${pluginTarball}`, eslint: '10.15.0', typescript };
}

function npmInstall(dir: string, flags: readonly string[] = []): { status: number | null; stderr: string } {
  const result = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', ...flags], { cwd: dir, encoding: 'utf8' });
  return { status: result.status, stderr: result.stderr };
}

function installOrThrow(dir: string): void {
  const { status, stderr } = npmInstall(dir);
  if (status !== 0) throw new Error(`npm install in ${dir} failed (is the npm registry reachable?):\n${stderr}`);
}

function eslint(dir: string, env: Record<string, string> = {}): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, ['node_modules/eslint/bin/eslint.js', '--format', 'json', '.'], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function findings(stdout: string, dir: string): string[] {
  const results = JSON.parse(stdout) as { filePath: string; messages: { line: number; ruleId: string | null; message: string }[] }[];
  return results
    .flatMap((result) => result.messages.map((m) => `${path.relative(dir, result.filePath)}:${m.line} ${m.ruleId ?? `fatal: ${m.message}`}`))
    .sort();
}

/** Every installed copy of a package: its version, by folder. */
function installedCopies(dir: string, name: string): Record<string, string> {
  const copies: Record<string, string> = {};
  const visit = (modules: string): void => {
    if (!existsSync(modules)) return;
    const manifest = path.join(modules, name, 'package.json');
    if (existsSync(manifest)) copies[path.relative(dir, path.dirname(manifest))] = (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
    for (const entry of readdirSync(modules, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name === '.bin') continue;
      const packages = entry.name.startsWith('@') ? readdirSync(path.join(modules, entry.name)).map((inner) => path.join(entry.name, inner)) : [entry.name];
      for (const pkg of packages) visit(path.join(modules, pkg, 'node_modules'));
    }
  };
  visit(path.join(dir, 'node_modules'));
  return copies;
}

// Each type-aware rule once, in TypeScript; the untyped rules on a script outside the tsconfig.
const TYPED_PROJECT: Record<string, string> = {
  'tsconfig.json': JSON.stringify({
    compilerOptions: { strict: true, module: 'nodenext', target: 'es2022', noEmit: true, skipLibCheck: true, types: ['node'] },
    include: ['src'],
  }),
  'eslint.config.mjs': [
    "import retrysafe from '@retrysafe/eslint-plugin';",
    '',
    "const projectService = process.env.BACKEND === 'tsgo' ? { EXPERIMENTAL_backend: 'tsgo' } : true;",
    '',
    'export default [',
    "  ...retrysafe.configs['recommended-type-checked'],",
    "  { files: ['**/*.ts'], languageOptions: { parserOptions: { projectService, tsconfigRootDir: import.meta.dirname } } },",
    '];',
    '',
  ].join('\n'),
  'src/keys.ts': "import { randomUUID } from 'node:crypto';\n\nexport function makeKey(): string {\n  return randomUUID();\n}\n",
  'src/refund.ts': [
    "import { makeKey } from './keys.js';",
    '',
    'export async function refund(stripe: { refunds: { create(params: object, options: object): Promise<unknown> } }) {',
    "  return stripe.refunds.create({ charge: 'ch_1' }, { idempotencyKey: makeKey() });",
    '}',
    '',
  ].join('\n'),
  'src/client.ts': "export function post(url: string, key: string) {\n  return fetch(url, { method: 'POST', headers: { 'Idempotency-Key': key } });\n}\n",
  'src/charge.ts': "import { randomUUID } from 'node:crypto';\nimport { post } from './client.js';\n\nexport const sent = post('https://pay.example/charge', randomUUID());\n",
  'src/brand.ts': "import type { DeterministicKey } from '@retrysafe/spec';\n\nexport type OrderKey = DeterministicKey;\n",
  'src/cast.ts': "import type { OrderKey } from './brand.js';\n\nexport const forged = 'order-1:refund' as OrderKey;\n",
  'src/agent-tools.ts': "export { tool as defineAgentTool } from 'ai';\n",
  'src/refund-tool.ts': [
    "import { z } from 'zod';",
    "import { defineAgentTool } from './agent-tools.js';",
    '',
    'export const refundTool = defineAgentTool({',
    "  description: 'Refund part of an order',",
    '  inputSchema: z.object({ orderId: z.string() }),',
    '  execute: async ({ orderId }) => orderId,',
    '});',
    '',
  ].join('\n'),
  'scripts/backfill.mjs': "await fetch('https://pay.example/charge', { method: 'POST', headers: { 'Idempotency-Key': crypto.randomUUID() } });\n",
};

const TYPED_FINDINGS = [
  'scripts/backfill.mjs:1 @retrysafe/no-random-key',
  'src/cast.ts:3 @retrysafe/no-key-cast-type-checked',
  'src/charge.ts:4 @retrysafe/no-random-key-type-checked',
  'src/refund-tool.ts:4 @retrysafe/require-retry-policy-type-checked',
  'src/refund.ts:4 @retrysafe/no-random-key-type-checked',
];

describe('the packed plugin next to typescript-eslint 8.74, with TypeScript 6 beside TypeScript 7.1', () => {
  let dir = '';
  beforeAll(() => {
    dir = createProject(
      'typescript-eslint-project',
      {
        '@retrysafe/eslint-plugin': `file:${pluginTarball}`,
        '@retrysafe/spec': `file:${specTarball}`,
        '@types/node': '20.19.43',
        // What typescript-eslint 8.74's experimental native backend needs: TypeScript 6 as
        // `typescript`, a TypeScript 7.1 build as `@typescript/native`.
        '@typescript/native': 'npm:typescript@7.1.0-dev.20261021.1',
        ai: '6.0.325',
        eslint: '10.15.0',
        typescript: 'npm:@typescript/typescript6@6.0.2',
        'typescript-eslint': '8.74.0',
        zod: '4.6.7',
      },
      TYPED_PROJECT,
    );
    installOrThrow(dir);
  }, INSTALL_MS);

  it("installs one copy of @typescript-eslint/parser and of utils: typescript-eslint's", () => {
    expect(installedCopies(dir, '@typescript-eslint/parser')).toEqual({ 'node_modules/@typescript-eslint/parser': '8.74.0' });
    expect(installedCopies(dir, '@typescript-eslint/utils')).toEqual({ 'node_modules/@typescript-eslint/utils': '8.74.0' });
  });

  it('lints with recommended-type-checked', () => {
    const { stdout, stderr } = eslint(dir);
    expect(findings(stdout, dir), stderr).toEqual(TYPED_FINDINGS);
  }, 120_000);

  it("answers EXPERIMENTAL_backend: 'tsgo' with the native backend (its Program facade lacks getNodeCount)", () => {
    const probe = [
      "import { parseForESLint } from '@typescript-eslint/parser';",
      "import { readFileSync } from 'node:fs';",
      "const filePath = new URL('./src/cast.ts', import.meta.url).pathname;",
      "const { services } = parseForESLint(readFileSync(filePath, 'utf8'), { filePath, tsconfigRootDir: process.cwd(), projectService: { EXPERIMENTAL_backend: 'tsgo' } });",
      "try { services.program.getNodeCount(); console.log('classic'); } catch (error) { console.log(error.message); }",
      'process.exit(0);',
    ].join('\n');
    writeFileSync(path.join(dir, 'probe.mjs'), probe);
    const result = spawnSync(process.execPath, ['probe.mjs'], { cwd: dir, encoding: 'utf8' });
    expect(result.stdout.trim(), result.stderr).toBe('Program#getNodeCount is not available on the tsgo API.');
  }, 120_000);

  it("reports the same on typescript-eslint's experimental native backend (projectService.EXPERIMENTAL_backend: 'tsgo')", () => {
    const { stdout, stderr } = eslint(dir, { BACKEND: 'tsgo' });
    expect(findings(stdout, dir), stderr).toEqual(TYPED_FINDINGS);
  }, 120_000);
});

describe('the packed plugin with TypeScript 7 as the only typescript', () => {
  let dir = '';
  beforeAll(() => {
    dir = createProject(
      'typescript-7-project',
      { '@retrysafe/eslint-plugin': `file:${pluginTarball}`, eslint: '10.15.0', typescript: '7.0.2' },
      {
        'eslint.config.mjs': "import retrysafe from '@retrysafe/eslint-plugin';\n\nexport default [retrysafe.configs.recommended];\n",
        'src/index.ts': 'export const answer = 42;\n',
      },
    );
  });

  it("npm refuses the install: the plugin's peer range asks for TypeScript 6", () => {
    const { status, stderr } = npmInstall(dir);
    expect(status).not.toBe(0);
    expect(stderr).toContain('ERESOLVE');
    expect(stderr).toContain('peer typescript@">=5.5.0 <6.1.0" from @retrysafe/eslint-plugin@0.1.0');
  }, INSTALL_MS);

  it('forced past that (--legacy-peer-deps), ESLint stops at the config with the side-by-side setup for the installed version', () => {
    const install = npmInstall(dir, ['--legacy-peer-deps']);
    expect(install.status, install.stderr).toBe(0);
    const { status, stderr } = eslint(dir);
    expect(status).toBe(2);
    expect(stderr).toContain('@retrysafe/eslint-plugin: the typescript package is TypeScript 7.0.2, which has no JavaScript API.');
    expect(stderr).toContain('"typescript": "npm:@typescript/typescript6@6.0.2",');
    expect(stderr).toContain('"@typescript/native": "npm:typescript@7.0.2"');
    // Before the parser could throw its own bare "typescript-eslint does not support TS 7.0".
    expect(stderr).not.toContain('typescript-eslint does not support TS 7');
  }, INSTALL_MS);
});

describe('the packed CLI with TypeScript 7 as the only typescript and typescript-eslint installed', () => {
  let dir = '';
  beforeAll(() => {
    // The new-user trial's project: typescript-eslint beside the plugin puts its own parser where
    // bin.js's graph loads it, and that parser throws on TypeScript 7 while it loads.
    dir = createProject('audit-typescript-7-project', { ...auditDependencies('7.0.2'), 'typescript-eslint': '8.74.0' }, { 'src/index.ts': 'export const answer = 42;\n' });
    // Both the plugin and typescript-eslint ask for TypeScript 6 as a peer: forced past that, as a user would.
    const install = npmInstall(dir, ['--legacy-peer-deps']);
    if (install.status !== 0) throw new Error(`npm install in ${dir} failed (is the npm registry reachable?):\n${install.stderr}`);
  }, INSTALL_MS);

  it("exits 2 with the plugin's explanation, without a stack", () => {
    expect(installedCopies(dir, 'typescript')).toEqual({ 'node_modules/typescript': '7.0.2' });
    const result = spawnSync('npx', ['--no-install', 'retrysafe', 'audit', 'src'], { cwd: dir, encoding: 'utf8' });
    expect(result.status, result.stderr).toBe(2);
    expect(result.stderr).toContain('retrysafe: @retrysafe/eslint-plugin: the typescript package is TypeScript 7.0.2, which has no JavaScript API.');
    expect(result.stderr).toContain('"typescript": "npm:@typescript/typescript6@6.0.2",');
    expect(result.stderr).toContain('(exit code 2: ESLint or the plugin could not be loaded)');
    // Neither the parser's own bare message nor Node's report of an uncaught error (a stack).
    expect(result.stderr).not.toContain('typescript-eslint does not support TS 7');
    expect(result.stderr).not.toMatch(/^\s+at /m);
    expect(result.stdout).toBe('');
  }, 120_000);
});

describe('the packed CLI in a fresh project: npx retrysafe audit', () => {
  let dir = '';
  beforeAll(() => {
    dir = createProject(
      'audit-project',
      auditDependencies('6.0.3'),
      {
        'src/refund.ts': [
          "import { randomUUID } from 'node:crypto';",
          "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';",
          "const server = new McpServer({ name: 'shop', version: '1.0.0' });",
          "server.registerTool('refund', { _meta: { retrysafe: { side_effects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key' } } }, async () => pay({ idempotencyKey: randomUUID() }));",
          'declare function pay(options: { idempotencyKey: string }): Promise<{ content: [] }>;',
          '',
        ].join('\n'),
      },
    );
    installOrThrow(dir);
  }, INSTALL_MS);

  it('runs from its bin with the plugin it was installed with, and exits 1 on the random key', () => {
    const result = spawnSync('npx', ['--no-install', 'retrysafe', 'audit', '--format', 'json', 'src'], { cwd: dir, encoding: 'utf8' });
    expect(result.status, result.stderr).toBe(1);
    const report = JSON.parse(result.stdout) as { config: { kind: string }; tools: { name: string; questions: { q2: { verdict: string } } }[] };
    expect(report.config.kind).toBe('recommended');
    expect(report.tools.map((tool) => [tool.name, tool.questions.q2.verdict])).toEqual([['refund', 'no']]);
  }, 120_000);
});
