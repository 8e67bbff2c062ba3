/**
 * The source tree stays easy to extend (issue 9): no import cycle, type-only imports included (a
 * type-only cycle still ties two modules' meanings together and breaks declaration bundling), and
 * no folder so crowded that a new file has no obvious place.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const srcDir = resolve(dirname(fileURLToPath(import.meta.url)), '../src');
const MAX_FILES_PER_FOLDER = 15;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

/** Relative imports of `file`, as files: import and export declarations, `import type` and `import()` types alike. */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles
    .map(({ fileName }) => fileName)
    .filter((name) => name.startsWith('.'))
    .map((name) => resolve(dirname(file), name.replace(/\.js$/, '.ts')));
}

/** The first cycle found, as a list of files from src, or undefined. */
function findCycle(files: readonly string[]): string[] | undefined {
  const graph = new Map(files.map((file) => [file, importsOf(file)]));
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (file: string): string[] | undefined => {
    if (state.get(file) === 'done') return undefined;
    if (state.get(file) === 'open') return [...path.slice(path.indexOf(file)), file];
    state.set(file, 'open');
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(file, 'done');
    return undefined;
  };
  for (const file of files) {
    const cycle = visit(file);
    if (cycle) return cycle.map((f) => relative(srcDir, f));
  }
  return undefined;
}

describe('the root entry', () => {
  it('lists no store internals: they are on @retrysafe/spec/stores/protocol', async () => {
    const root = await import('../src/index.js');
    const protocol = await import('../src/stores/protocol.js');
    expect(Object.keys(protocol).filter((name) => name in root)).toEqual([]);
    for (const name of ['createDedupStore', 'decideClaim', 'completeRecord', 'releaseRecord', 'renewRecord', 'isLocked', 'mergeRun']) {
      expect(protocol).toHaveProperty(name);
    }
    const manifest = JSON.parse(readFileSync(join(srcDir, '../package.json'), 'utf8')) as { exports: Record<string, unknown> };
    expect(manifest.exports['./stores/protocol']).toEqual({
      types: './dist/stores/protocol.d.ts',
      import: './dist/stores/protocol.js',
      default: './dist/stores/protocol.js',
    });
  });
});

describe('packages/spec/src layout', () => {
  const files = sourceFiles(srcDir);

  it('has no import cycle, type-only imports included', () => {
    expect(findCycle(files)).toBeUndefined();
  });

  it(`holds at most ${MAX_FILES_PER_FOLDER} files in any folder`, () => {
    const counts = new Map<string, number>();
    for (const file of files) counts.set(relative(srcDir, dirname(file)) || '.', (counts.get(relative(srcDir, dirname(file)) || '.') ?? 0) + 1);
    const crowded = [...counts].filter(([, n]) => n > MAX_FILES_PER_FOLDER);
    expect(crowded).toEqual([]);
  });
});
