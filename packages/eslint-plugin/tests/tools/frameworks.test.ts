// The catalogue of frameworks (src/tools/frameworks) against what it describes: each entry's
// packages are those of its modules, its stand-in (tests/fixtures) declares what the type-aware
// table looks for, and its adapter is the one @retrysafe/spec exports. An entry and the files it
// names cannot drift apart silently.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

import { DECLARED_TOOL_FACTORIES } from '../../src/program/index.js';
import { type FrameworkEntry, FRAMEWORKS, getToolFactories, isFrameworkModule, STAND_INS } from '../../src/tools/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const pluginDir = path.join(here, '../..');
const fixturesDir = path.join(pluginDir, 'tests/fixtures');
const frameworksDir = path.join(pluginDir, 'src/tools/frameworks');
const specManifest = JSON.parse(readFileSync(path.join(pluginDir, '../spec/package.json'), 'utf8')) as {
  exports: Record<string, unknown>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};
const fixturePaths = (JSON.parse(readFileSync(path.join(fixturesDir, 'tsconfig.json'), 'utf8')) as {
  compilerOptions: { paths: Record<string, string[]> };
}).compilerOptions.paths;

/** Stand-ins of packages that are not frameworks: look-alikes that the rules must not take for one. */
const LOOK_ALIKES = ['stand-ins/agent-kit-lite'];
/**
 * Adapters of the spec that belong to no framework whose tools the rules recognise, and why: a client
 * calls tools, it defines none.
 */
const CLIENT_ADAPTERS: Record<string, string> = {
  './adapters/ai-sdk-mcp': "a retrying MCP client for @ai-sdk/mcp's createMCPClient",
};
/** Modules of the catalogue that are not one framework's. */
const CATALOGUE_HELPERS = ['index.ts', 'remedies.ts', 'types.ts'];

const packageOf = (specifier: string): string =>
  specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : (specifier.split('/')[0] as string);

/** Every declaration file text of an entry's stand-ins. */
function standInText(entry: FrameworkEntry): string {
  return entry.standIns
    .flatMap((standIn) => listFiles(path.join(fixturesDir, standIn.folder)))
    .filter((file) => /\.tsx?$/.test(file))
    .map((file) => readFileSync(file, 'utf8'))
    .join('\n');
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? listFiles(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
  );
}

describe('the framework catalogue', () => {
  it('has one module per framework, named by its id', () => {
    const modules = readdirSync(frameworksDir).filter((file) => !CATALOGUE_HELPERS.includes(file));
    expect(modules.sort()).toEqual(FRAMEWORKS.map((entry) => `${entry.id}.ts`).sort());
  });

  it.each(FRAMEWORKS.map((entry) => [entry.id, entry] as const))('%s: its packages are the packages of its modules', (_id, entry) => {
    expect([...new Set(entry.modules.map(packageOf))].sort()).toEqual([...entry.packages].sort());
  });

  it('frameworks that share a ToolFramework share where a run id comes from, and each says what is not one', () => {
    for (const entry of FRAMEWORKS) {
      expect(entry.runId, entry.id).toEqual(FRAMEWORKS.find((other) => other.framework === entry.framework)?.runId);
      expect(entry.runId, entry.id).toMatch(/; not /);
    }
  });

  it('frameworks that share a ToolFramework share where their policy is declared', () => {
    for (const entry of FRAMEWORKS) {
      const first = FRAMEWORKS.find((candidate) => candidate.framework === entry.framework);
      expect(entry.policy, entry.id).toEqual(first?.policy);
    }
  });

  it('every factory is in the syntactic table and in the type-aware one, with its config argument', () => {
    const syntactic = getToolFactories([]);
    for (const entry of FRAMEWORKS) {
      for (const factory of entry.factories) {
        expect(syntactic.find((known) => known.exportPath === factory.export && known.sources === entry.modules), `${entry.id} ${factory.export}`).toMatchObject({
          framework: entry.framework,
          configArgument: factory.configArgument,
        });
        expect(DECLARED_TOOL_FACTORIES.find((declared) => declared.names.includes(factory.export) && declared.packages === entry.packages)).toMatchObject({
          kind: 'factory',
          framework: entry.framework,
        });
      }
      for (const { owner, method } of entry.registrations) {
        expect(DECLARED_TOOL_FACTORIES.find((declared) => declared.names.includes(`${owner}.${method}`))).toMatchObject({
          kind: 'serverMethod',
          framework: entry.framework,
          packages: entry.packages,
        });
      }
    }
    expect(syntactic).toHaveLength(FRAMEWORKS.reduce((sum, entry) => sum + entry.factories.length, 0));
  });
});

describe('each framework and its stand-in (tests/fixtures)', () => {
  it('every stand-in folder belongs to a framework, or is a look-alike', () => {
    const folders = readdirSync(path.join(fixturesDir, 'stand-ins')).map((name) => `stand-ins/${name}`);
    const named = STAND_INS.map((standIn) => standIn.folder).filter((folder) => folder.startsWith('stand-ins/'));
    expect(folders.sort()).toEqual([...new Set([...named, ...LOOK_ALIKES])].sort());
  });

  it('every module the typed tests map to a stand-in is a framework’s (or a look-alike’s)', () => {
    const mapped = Object.entries(fixturePaths)
      .filter(([module]) => !module.endsWith('/*'))
      .map(([module, [target]]) => ({ module, folder: path.dirname(path.normalize(target ?? '')).split(path.sep).slice(0, 2).join('/') }));
    for (const { module, folder } of mapped) {
      const owner = STAND_INS.find((standIn) => standIn.module === module);
      if (owner) expect(folder.startsWith(owner.folder), module).toBe(true);
      else expect(LOOK_ALIKES.some((lookAlike) => folder.startsWith(lookAlike)), `${module} → ${folder}: no framework names it`).toBe(true);
    }
  });

  describe.each(FRAMEWORKS.map((entry): [string, FrameworkEntry] => [entry.id, entry]))('%s', (_id, entry) => {
    const recognisedByType = entry.factories.length + entry.registrations.length > 0;

    it('has a stand-in if the type-aware rule recognises it', () => {
      expect(entry.standIns.length > 0).toBe(recognisedByType);
    });

    it.each(entry.standIns.map((standIn) => [standIn.module, standIn] as const))('%s is mapped to its stand-in, which names its package', (module, standIn) => {
      expect(isFrameworkModule(entry, module)).toBe(true);
      const [target] = fixturePaths[module] ?? [];
      expect(target, `tests/fixtures/tsconfig.json maps ${module}`).toBeDefined();
      expect(path.normalize(target ?? '').startsWith(path.normalize(standIn.folder))).toBe(true);
      const manifest = path.join(fixturesDir, standIn.folder, 'package.json');
      expect(existsSync(manifest)).toBe(true);
      expect(entry.packages).toContain((JSON.parse(readFileSync(manifest, 'utf8')) as { name: string }).name);
    });

    if (recognisedByType) {
      it('its stand-in declares every factory and registration', () => {
        const text = standInText(entry);
        for (const factory of entry.factories) expect(text, factory.export).toMatch(new RegExp(`\\b(function|class)\\s+${factory.export}\\b`));
        for (const { owner, method } of entry.registrations) {
          expect(text, owner).toMatch(new RegExp(`\\bclass\\s+${owner}\\b`));
          expect(text, method).toMatch(new RegExp(`\\b${method}\\s*\\(`));
        }
      });
    }
  });
});

describe('each framework and its @retrysafe/spec adapter (packages/spec/package.json)', () => {
  it.each(FRAMEWORKS.map((entry) => [entry.id, entry] as const))('%s', (_id, entry) => {
    const { adapter } = entry;
    if ('none' in adapter) {
      expect(adapter.none.length).toBeGreaterThan(0);
      expect(specManifest.exports[`./adapters/${entry.id}`]).toBeUndefined();
      return;
    }
    const name = adapter.subpath.slice('./adapters/'.length);
    expect(specManifest.exports[adapter.subpath]).toEqual({
      types: `./dist/adapters/${name}.d.ts`,
      import: `./dist/adapters/${name}.js`,
      default: `./dist/adapters/${name}.js`,
    });
    expect(entry.packages).toContain(adapter.peerDependency);
    expect(specManifest.peerDependencies[adapter.peerDependency]).toBeDefined();
    expect(specManifest.peerDependenciesMeta[adapter.peerDependency]).toEqual({ optional: true });
  });

  it('every adapter the spec exports is a framework’s (or a client’s, listed here)', () => {
    const claimed = FRAMEWORKS.flatMap((entry) => ('subpath' in entry.adapter ? [entry.adapter.subpath] : []));
    const exported = Object.keys(specManifest.exports).filter((subpath) => subpath.startsWith('./adapters/') && !(subpath in CLIENT_ADAPTERS));
    expect(exported.sort()).toEqual(claimed.sort());
  });
});
