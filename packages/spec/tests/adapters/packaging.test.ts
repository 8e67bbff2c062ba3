/**
 * A user installs only the framework they use: each adapter imports its own framework and no
 * other, the main entry imports none, and every framework is an optional peer dependency with a
 * subpath export per adapter.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

const FRAMEWORKS = ['ai', '@openai/agents', '@langchain/core', '@modelcontextprotocol/sdk', '@mastra/core', '@ai-sdk/mcp'] as const;

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

const frameworksOf = (file: string) => [...reachable(file)].filter((name) => (FRAMEWORKS as readonly string[]).includes(name));

describe('adapter packaging', () => {
  it.each([
    ['adapters/ai-sdk.ts', ['ai']],
    ['adapters/openai-agents.ts', ['@openai/agents']],
    ['adapters/mcp.ts', ['@modelcontextprotocol/sdk']],
    ['adapters/ai-sdk-mcp.ts', ['@ai-sdk/mcp']],
    ['adapters/langchain.ts', ['@langchain/core']],
    ['adapters/mastra.ts', ['@mastra/core']],
    ['index.ts', []],
    ['testing.ts', []],
  ])('%s imports only its own framework', (file, own) => {
    expect(frameworksOf(file)).toEqual(own);
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

  it('exports each adapter as a subpath and declares each framework an optional peer', () => {
    const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      exports: Record<string, unknown>;
      peerDependencies: Record<string, string>;
      peerDependenciesMeta: Record<string, { optional?: boolean }>;
    };
    for (const name of ['ai-sdk', 'openai-agents', 'mcp', 'ai-sdk-mcp', 'langchain', 'mastra']) {
      expect(manifest.exports[`./adapters/${name}`]).toEqual({
        types: `./dist/adapters/${name}.d.ts`,
        import: `./dist/adapters/${name}.js`,
        default: `./dist/adapters/${name}.js`,
      });
    }
    expect(manifest.exports['./adapters/shared']).toBeUndefined();
    expect(manifest.peerDependencies).toMatchObject({
      ai: '^6.0.0 || ^7.0.0',
      '@mastra/core': '^1.0.0',
      '@openai/agents': '>=0.20.0 <1',
      '@langchain/core': '^1.0.0',
      '@modelcontextprotocol/sdk': '^1.20.0',
      '@ai-sdk/mcp': '^2.0.0',
    });
    for (const framework of FRAMEWORKS) expect(manifest.peerDependenciesMeta[framework]).toEqual({ optional: true });
  });
});
