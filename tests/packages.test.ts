// The packages as the registry shows them: each tarball `pnpm pack` makes (what `pnpm publish`
// uploads) names its repository, homepage and issue tracker, and no link in a markdown file it
// ships points outside it: the registry renders the README alone, so `../../docs/x.md` is a dead
// link there. Links to the repository on GitHub must name files that exist.
import MarkdownIt from 'markdown-it';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { listTarball, PACKAGES, packPackage, repoRoot, type PackageFolder } from './support/tarballs.js';
import { PACKAGE_DOCS } from '../scripts/package-docs.mjs';

const REPOSITORY = 'https://github.com/retrysafe/retrysafe';
const markdown = new MarkdownIt();

/** Every link target of a markdown text: inline links, reference definitions and images. */
function linkTargets(text: string): string[] {
  const targets: string[] = [];
  const visit = (tokens: ReturnType<typeof markdown.parse>): void => {
    for (const token of tokens) {
      const target = token.type === 'link_open' ? token.attrGet('href') : token.type === 'image' ? token.attrGet('src') : null;
      if (target !== null) targets.push(target);
      if (token.children) visit(token.children);
    }
  };
  visit(markdown.parse(text, {}));
  return targets;
}

/** Why a link from `file` (a path in the tarball) does not work on the registry, or undefined. */
function brokenLink(target: string, file: string, files: ReadonlySet<string>): string | undefined {
  if (target.startsWith('#') || /^mailto:/.test(target)) return undefined;
  if (/^https?:\/\//.test(target)) {
    const inRepository = new RegExp(`^${REPOSITORY}/(?:blob|tree)/main/([^#?]+)`).exec(target)?.[1];
    if (inRepository === undefined) return undefined;
    return existsSync(path.join(repoRoot, decodeURIComponent(inRepository))) ? undefined : `no ${inRepository} in the repository`;
  }
  const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(file), target.replace(/[#?].*$/, '')));
  if (resolved.startsWith('../')) return 'outside the tarball';
  return files.has(resolved) || [...files].some((entry) => entry.startsWith(`${resolved}/`)) ? undefined : 'not in the tarball';
}

describe.each<PackageFolder>([...PACKAGES])('the packed @retrysafe/%s', (folder) => {
  let tarball = '';
  let files: Set<string> = new Set();
  beforeAll(() => {
    tarball = packPackage(folder);
    files = new Set(listTarball(tarball));
  }, 120_000);
  afterAll(() => rmSync(path.dirname(tarball), { recursive: true, force: true }));

  it('ships its README, licence and build', () => {
    expect(files).toContain('README.md');
    expect(files).toContain('LICENSE');
    expect(files).toContain('dist/index.js');
  });

  it('names its repository, homepage and issue tracker', () => {
    const manifest = JSON.parse(execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' })) as Record<string, unknown>;
    expect(manifest['repository']).toEqual({ type: 'git', url: `git+${REPOSITORY}.git`, directory: `packages/${folder}` });
    expect(manifest['homepage']).toBe(`${REPOSITORY}/tree/main/packages/${folder}#readme`);
    expect(manifest['bugs']).toEqual({ url: `${REPOSITORY}/issues` });
  });

  it('ships the user guides it names, for a reader with only the tarball (the eslint-plugin ships its rule docs)', () => {
    const guides = (PACKAGE_DOCS as Record<string, string[]>)[folder] ?? [];
    if (folder === 'eslint-plugin') expect([...files].filter((file) => file.startsWith('docs/rules/')).length).toBeGreaterThan(5);
    expect(guides.length).toBeGreaterThan(0);
    for (const guide of guides) expect(files).toContain(`docs/${guide}`);
  });

  it('ships docs/effects.md, the effects analysis every package\'s docs and the plugin\'s messages name', () => {
    expect(files).toContain('docs/effects.md');
  });

  it('links, from every markdown file it ships, only to files in the tarball or on the repository', () => {
    const markdownFiles = [...files].filter((file) => file.endsWith('.md'));
    expect(markdownFiles).toContain('README.md');
    const broken = markdownFiles.flatMap((file) => {
      const text = execFileSync('tar', ['-xzOf', tarball, `package/${file}`], { encoding: 'utf8' });
      return linkTargets(text).flatMap((target) => {
        const reason = brokenLink(target, file, files);
        return reason === undefined ? [] : [`${file}: ${target} (${reason})`];
      });
    });
    expect(broken).toEqual([]);
  });
});

describe('the link check', () => {
  const files = new Set(['README.md', 'docs/rules/no-random-key.md', 'dist/index.js']);
  it.each([
    ['../../docs/concepts.md', 'README.md', 'outside the tarball'],
    ['docs/rules/missing.md', 'README.md', 'not in the tarball'],
    [`${REPOSITORY}/blob/main/docs/no-such-page.md`, 'README.md', 'no docs/no-such-page.md in the repository'],
  ])('refuses %s from %s', (target, file, reason) => {
    expect(brokenLink(target, file, files)).toBe(reason);
  });

  it.each([
    ['docs/rules/no-random-key.md#options', 'README.md'],
    ['./no-random-key.md', 'docs/rules/no-random-key.md'],
    [`${REPOSITORY}/blob/main/docs/concepts.md`, 'README.md'],
    ['https://eslint.org/docs/latest/', 'README.md'],
    ['#install', 'README.md'],
  ])('accepts %s from %s', (target, file) => {
    expect(brokenLink(target, file, files)).toBeUndefined();
  });

  it('finds inline links, reference links and images, and none in code', () => {
    const text = ['[a](one.md) and [b][ref] ![c](two.png)', '', '`[x](in-code.md)`', '', '```', '[y](in-block.md)', '```', '', '[ref]: three.md'].join('\n');
    expect(linkTargets(text)).toEqual(['one.md', 'three.md', 'two.png']);
  });
});
