#!/usr/bin/env node
// Copies the user guides a package's tarball ships into `packages/<name>/docs/` (git-ignored,
// made by the package's `build`; the plugin's docs/rules/ is committed and left alone), so that a user who has only the tarball (or only node_modules)
// can read them: the registry and an offline machine cannot follow a link to GitHub.
// A link to a guide shipped beside it stays relative; a link to anything else in the repository
// (another guide, an example, the root README) becomes its absolute GitHub address, which
// tests/packages.test.ts checks names a file that exists.
//
// Usage: node scripts/package-docs.mjs <spec|cli|eslint-plugin>
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPOSITORY = 'https://github.com/retrysafe/retrysafe';
const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

/** The guides each package ships, by file name under docs/. */
export const PACKAGE_DOCS = {
  spec: ['concepts.md', 'getting-started.md', 'runtime.md', 'frameworks.md', 'mcp.md', 'typescript-7.md', 'contributing.md', 'effects.md'],
  cli: ['concepts.md', 'audit.md', 'code-scanning.md', 'effects.md'],
  // the rule docs under docs/rules/ are committed (eslint-doc-generator); these guides sit beside them
  'eslint-plugin': ['concepts.md', 'effects.md'],
};

/** `text` (a guide under docs/) with every relative link outside `shipped` made absolute. */
export function rewriteLinks(text, shipped) {
  return text.replace(/(\]\()([^)\s]+)(\))/g, (whole, open, target, close) => {
    if (/^(?:[a-z][a-z0-9+.-]*:|#)/i.test(target)) return whole;
    const [file, fragment = ''] = target.split(/(?=#)/);
    const inRepository = path.posix.normalize(path.posix.join('docs', file));
    if (inRepository.startsWith('docs/') && shipped.includes(inRepository.slice('docs/'.length))) return whole;
    const kind = /\.[a-z0-9]+$/i.test(inRepository) ? 'blob' : 'tree';
    return `${open}${REPOSITORY}/${kind}/main/${inRepository}${fragment}${close}`;
  });
}

const name = process.argv[2];
if (fileURLToPath(import.meta.url) === path.resolve(process.argv[1] ?? '')) {
  const shipped = PACKAGE_DOCS[name];
  if (shipped === undefined) {
    console.error(`usage: node scripts/package-docs.mjs <${Object.keys(PACKAGE_DOCS).join('|')}>`);
    process.exit(2);
  }
  const out = path.join(root, 'packages', name, 'docs');
  // Only the guides at the top of docs/ are made here: a package's docs/rules/ (the plugin's
  // committed rule docs) is left as it is.
  mkdirSync(out, { recursive: true });
  for (const entry of readdirSync(out)) if (entry.endsWith('.md')) rmSync(path.join(out, entry), { force: true });
  for (const file of shipped) {
    writeFileSync(path.join(out, file), rewriteLinks(readFileSync(path.join(root, 'docs', file), 'utf8'), shipped));
  }
}
