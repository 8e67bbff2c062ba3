// The packages as the registry would get them: `pnpm pack` of each built package (what `pnpm
// publish` uploads), and the files each tarball holds.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.join(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The published packages, by folder under packages/. */
export const PACKAGES = ['eslint-plugin', 'spec', 'cli'] as const;
export type PackageFolder = (typeof PACKAGES)[number];

/** Packs `packages/<folder>` into a fresh temporary folder and returns the tarball's path. */
export function packPackage(folder: PackageFolder): string {
  const destination = mkdtempSync(path.join(os.tmpdir(), `retrysafe-pack-${folder}-`));
  execFileSync('pnpm', ['pack', '--pack-destination', destination], {
    cwd: path.join(repoRoot, 'packages', folder),
    stdio: 'pipe',
  });
  const [tarball] = readdirSync(destination).filter((file) => file.endsWith('.tgz'));
  if (tarball === undefined) throw new Error(`pnpm pack wrote no tarball for packages/${folder}`);
  return path.join(destination, tarball);
}

/** The files a tarball holds, relative to the package root (`README.md`, `dist/index.js` ...). */
export function listTarball(tarball: string): string[] {
  return execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' })
    .split('\n')
    .filter((entry) => entry !== '' && !entry.endsWith('/'))
    .map((entry) => entry.replace(/^package\//, ''));
}
