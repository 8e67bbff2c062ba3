// The agent-code corpus: what published MCP servers and agent toolkits ship, the code our rules are
// for (tools registered on an MCP server, framework tools, keyed provider calls). The packages and
// their versions are pinned in bench/agent-corpus/package.json, their tarballs' integrity in
// bench/agent-corpus/integrity.json. Each package is fetched alone with `npm pack` (its own files,
// none of its dependencies: the corpus is linted without types), checked against the pinned
// integrity, unpacked into a temporary folder, and one flavour of its JavaScript and TypeScript is
// copied to the corpus folder:
//
// - no declarations (.d.ts, .d.mts, .d.cts), source maps, tests (`__tests__`, `test/`, `.test.`,
//   `test_kit`, `test-helpers`) or scripts;
// - one module flavour: `dist/cjs` is left out where `dist/esm` exists, `x.js` where `x.mjs` does;
// - no bundles (a file over BUNDLE_LINES lines is a package and its dependencies in one file) and no
//   minified files (lines averaging over MINIFIED_LINE_CHARS characters).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

import { walkFiles } from './lib.mjs';

const benchDir = dirname(fileURLToPath(import.meta.url));
const manifest = JSON.parse(readFileSync(join(benchDir, 'agent-corpus', 'package.json'), 'utf8'));
const integrity = JSON.parse(readFileSync(join(benchDir, 'agent-corpus', 'integrity.json'), 'utf8'));

/** A file longer than this is a bundle (a package and its dependencies), not the package's code. */
const BUNDLE_LINES = 5000;
/**
 * Nor is a minified file: one whose lines average more than this many characters (e.g.
 * `@notionhq/notion-mcp-server`'s `bin/cli.mjs`, 1.4 MB on 520 lines, was 45% of the corpus's bytes).
 */
const MINIFIED_LINE_CHARS = 300;
const SOURCE = /\.(m|c)?[jt]sx?$/;
const SKIPPED = /\.d\.[mc]?ts$|\.map$|\.test\.|\.spec\.|\/__tests__\/|\/tests?\/|\/test_kit\/|\/test-helpers\/|^scripts\//;

/**
 * Fetches (once; the tarballs are kept in the temporary folder) and copies the corpus to `root`.
 * Returns `{ root, files, lines, packages: [{ name, version, files, lines }] }`.
 */
export function buildAgentCorpus(root = join(tmpdir(), 'retrysafe-bench-agent-corpus')) {
  const cache = join(tmpdir(), 'retrysafe-bench-agent-corpus-tarballs');
  mkdirSync(cache, { recursive: true });
  const specs = Object.entries(manifest.dependencies).map(([name, version]) => ({ name, version, tarball: join(cache, tarballName(name, version)) }));
  const missing = specs.filter((s) => !existsSync(s.tarball));
  if (missing.length > 0) {
    execFileSync('npm', ['pack', ...missing.map((s) => `${s.name}@${s.version}`), '--pack-destination', cache, '--silent'], { stdio: ['ignore', 'ignore', 'inherit'] });
  }
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  const packages = [];
  let files = 0;
  let lines = 0;
  for (const spec of specs) {
    const pinned = integrity[`${spec.name}@${spec.version}`];
    const actual = `sha512-${createHash('sha512').update(readFileSync(spec.tarball)).digest('base64')}`;
    if (actual !== pinned) throw new Error(`${spec.name}@${spec.version}: tarball integrity ${actual} is not the pinned ${pinned}`);
    const unpacked = join(cache, 'unpacked', tarballName(spec.name, spec.version).replace(/\.tgz$/, ''));
    if (!existsSync(join(unpacked, 'package', 'package.json'))) {
      mkdirSync(unpacked, { recursive: true });
      execFileSync('tar', ['xzf', spec.tarball, '-C', unpacked]);
    }
    const pkgDir = join(unpacked, 'package');
    const all = [...walkFiles(pkgDir)].map((f) => relative(pkgDir, f));
    const present = new Set(all);
    const target = join(root, spec.name.replace('/', '__'));
    let pkgFiles = 0;
    let pkgLines = 0;
    for (const rel of all.sort()) {
      if (!SOURCE.test(rel) || SKIPPED.test(rel) || SKIPPED.test(`/${rel}`)) continue;
      if (rel.includes('dist/cjs/') && all.some((f) => f.includes('dist/esm/'))) continue;
      if (rel.endsWith('.js') && present.has(rel.replace(/\.js$/, '.mjs'))) continue;
      const text = readFileSync(join(pkgDir, rel), 'utf8');
      const n = countLines(text);
      if (n > BUNDLE_LINES || text.length / Math.max(n, 1) > MINIFIED_LINE_CHARS) continue;
      mkdirSync(dirname(join(target, rel)), { recursive: true });
      writeFileSync(join(target, rel), text);
      pkgFiles += 1;
      pkgLines += n;
    }
    // package.json gives .js files their module type.
    mkdirSync(target, { recursive: true });
    writeFileSync(join(target, 'package.json'), readFileSync(join(pkgDir, 'package.json')));
    packages.push({ name: spec.name, version: spec.version, files: pkgFiles, lines: pkgLines });
    files += pkgFiles;
    lines += pkgLines;
  }
  return { root, files, lines, packages };
}

/** The corpus's source files below `root`, sorted. */
export function corpusFiles(root) {
  return [...walkFiles(root)].filter((f) => SOURCE.test(f)).sort();
}

function tarballName(name, version) {
  return `${name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`;
}

export function countLines(text) {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n += 1;
  return text.length > 0 && !text.endsWith('\n') ? n + 1 : n;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const corpus = buildAgentCorpus(process.argv[2]);
  console.log(`${corpus.root}: ${corpus.files} files, ${corpus.lines} lines`);
  for (const p of corpus.packages) console.log(`  ${p.name}@${p.version}: ${p.files} files, ${p.lines} lines`);
}
