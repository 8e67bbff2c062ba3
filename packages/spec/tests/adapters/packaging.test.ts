/**
 * A user installs only the framework they use: each adapter imports its own framework and no
 * other, the main entry imports none, and every framework is an optional peer dependency with a
 * subpath export per adapter. The frameworks and their adapters are the ESLint plugin's catalogue
 * (`FRAMEWORKS` from `@retrysafe/eslint-plugin/analysis`, one data module per framework), so a
 * framework added there is checked here too, and an adapter added here without a catalogue entry
 * fails.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { FRAMEWORKS as CATALOGUE } from '@retrysafe/eslint-plugin/analysis';
import { describe, expect, it } from 'vitest';

interface AdapterOf {
  /** `./adapters/<name>`, this package's subpath export. */
  readonly subpath: string;
  /** The framework package the adapter takes as an optional peer. */
  readonly peerDependency: string;
  /** Every package of the framework: what the adapter may import of it. */
  readonly packages: readonly string[];
}

/**
 * Adapters for a package the catalogue does not list, because no tool is defined with it: an MCP
 * client calls tools (the plugin's tests/tools/frameworks.test.ts lists the same exception).
 */
const CLIENT_ADAPTERS: readonly AdapterOf[] = [{ subpath: './adapters/ai-sdk-mcp', peerDependency: '@ai-sdk/mcp', packages: ['@ai-sdk/mcp'] }];

const ADAPTERS: readonly AdapterOf[] = [
  ...CATALOGUE.flatMap((entry) => ('subpath' in entry.adapter ? [{ ...entry.adapter, packages: entry.packages }] : [])),
  ...CLIENT_ADAPTERS,
];

/** The package of every framework any adapter is for, and of every framework the catalogue knows. */
const FRAMEWORK_PACKAGES = new Set([...CATALOGUE.flatMap((entry) => entry.packages), ...CLIENT_ADAPTERS.flatMap((adapter) => adapter.packages)]);
FRAMEWORK_PACKAGES.delete('@retrysafe/spec');

/** The peer ranges this package declares: its own decision, one per adapter's framework. */
const PEER_RANGES: Record<string, string> = {
  ai: '^6.0.0 || ^7.0.0',
  '@mastra/core': '^1.0.0',
  '@openai/agents': '>=0.20.0 <1',
  '@langchain/core': '^1.0.0',
  '@modelcontextprotocol/sdk': '^1.20.0',
  '@ai-sdk/mcp': '^2.0.0',
};

const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  exports: Record<string, unknown>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};

const packageOf = (specifier: string): string =>
  specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : (specifier.split('/')[0] as string);

// Every module `file` reaches through relative imports, and the packages they name.
function reachable(file: string, seen = new Set<string>()): Set<string> {
  const source = readFileSync(new URL(`../../src/${file}`, import.meta.url), 'utf8');
  for (const [, specifier] of source.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/gm)) {
    if (specifier === undefined) continue;
    if (specifier.startsWith('.')) {
      const next = join(dirname(file), specifier).replace(/\.js$/, '.ts');
      if (!seen.has(next)) {
        seen.add(next);
        reachable(next, seen);
      }
    } else seen.add(packageOf(specifier));
  }
  return seen;
}

const frameworksOf = (file: string) => [...reachable(file)].filter((name) => FRAMEWORK_PACKAGES.has(name));

describe('adapter packaging', () => {
  it.each(ADAPTERS.map((adapter) => [`${adapter.subpath.slice(2)}.ts`, adapter] as const))('%s imports only its own framework', (file, adapter) => {
    const reached = frameworksOf(file);
    expect(reached).toContain(adapter.peerDependency);
    expect(reached.filter((name) => !adapter.packages.includes(name))).toEqual([]);
  });

  it.each(['index.ts', 'testing.ts'])('%s imports no framework', (file) => {
    expect(frameworksOf(file)).toEqual([]);
  });

  it("the called-twice helpers' framework path (adapters/calledTwice.ts, loaded on demand) imports frameworks for types only", () => {
    const modules = ['adapters/calledTwice.ts', ...[...reachable('adapters/calledTwice.ts')].filter((name) => name.endsWith('.ts'))];
    expect(modules.length).toBeGreaterThan(4);
    for (const module of modules) {
      const source = readFileSync(new URL(`../../src/${module}`, import.meta.url), 'utf8');
      for (const framework of FRAMEWORK_PACKAGES) {
        const imports = [...source.matchAll(new RegExp(`^import\\s+(type\\s+)?[^;]*?from\\s+'${framework.replace('/', '\\/')}[^']*';`, 'gm'))];
        expect(imports.filter((match) => match[1] === undefined).map((match) => `${module}: ${match[0]}`)).toEqual([]);
      }
    }
  });

  it.each([
    ['adapters/mcp.ts', '@modelcontextprotocol/sdk'],
    ['adapters/mcp/server.ts', '@modelcontextprotocol/sdk'],
    ['adapters/mcp/client.ts', '@modelcontextprotocol/sdk'],
    ['adapters/mcp/sdkHooks.ts', '@modelcontextprotocol/sdk'],
    ['adapters/ai-sdk-mcp.ts', '@ai-sdk/mcp'],
  ])('%s imports %s for types only: the server or client is passed in', (file, framework) => {
    const source = readFileSync(new URL(`../../src/${file}`, import.meta.url), 'utf8');
    const fromSdk = [...source.matchAll(new RegExp(`^import\\s+(type\\s+)?[^;]*?from\\s+'${framework.replace('/', '\\/')}[^']*';`, 'gm'))];
    expect(fromSdk.length).toBeGreaterThan(0);
    expect(fromSdk.every((match) => match[1] !== undefined)).toBe(true);
  });

  it('exports each adapter as a subpath, and no adapter the catalogue does not know', () => {
    for (const { subpath } of ADAPTERS) {
      const name = subpath.slice('./adapters/'.length);
      expect(manifest.exports[subpath]).toEqual({
        types: `./dist/adapters/${name}.d.ts`,
        import: `./dist/adapters/${name}.js`,
        default: `./dist/adapters/${name}.js`,
      });
    }
    const exported = Object.keys(manifest.exports).filter((subpath) => subpath.startsWith('./adapters/'));
    expect(exported.sort()).toEqual(ADAPTERS.map((adapter) => adapter.subpath).sort());
    expect(manifest.exports['./adapters/shared']).toBeUndefined();
  });

  it("declares each adapter's framework an optional peer, with this package's range", () => {
    expect(Object.keys(PEER_RANGES).sort()).toEqual([...new Set(ADAPTERS.map((adapter) => adapter.peerDependency))].sort());
    expect(manifest.peerDependencies).toMatchObject(PEER_RANGES);
    for (const { peerDependency } of ADAPTERS) expect(manifest.peerDependenciesMeta[peerDependency]).toEqual({ optional: true });
  });
});
