import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';

/** The extensions the plugin's configs lint (its `LINTED_FILES`); declaration files hold no tools. */
const SOURCE_FILE = /\.(?:[cm]?[jt]s|[jt]sx)$/;
const DECLARATION_FILE = /\.d\.[cm]?ts$/;
/** Folders ESLint never lints by default, skipped below every given path. */
const SKIPPED_FOLDERS = new Set(['node_modules', '.git']);

/** Thrown for a path that does not exist: a usage error (exit code 2). */
export class MissingPathError extends Error {
  override readonly name = 'MissingPathError';
  constructor(readonly missing: string) {
    super(`No such file or folder: ${missing}`);
  }
}

/**
 * The source files under `paths` (files and folders, relative to `cwd`), sorted, without
 * `node_modules` and `.git` below them. Which of these ESLint lints (its ignores, its `files`) is
 * decided afterwards, per file, by the config.
 *
 * @throws MissingPathError when a path does not exist.
 */
export async function listSourceFiles(cwd: string, paths: readonly string[]): Promise<string[]> {
  const found = new Set<string>();
  for (const given of paths) {
    const absolute = path.resolve(cwd, given);
    const info = await stat(absolute).catch(() => undefined);
    if (!info) throw new MissingPathError(given);
    if (info.isFile()) found.add(absolute);
    else await walk(absolute, found);
  }
  return [...found].sort();
}

async function walk(folder: string, found: Set<string>): Promise<void> {
  const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_FOLDERS.has(entry.name)) await walk(full, found);
    } else if (entry.isFile() && SOURCE_FILE.test(entry.name) && !DECLARATION_FILE.test(entry.name)) {
      found.add(full);
    }
  }
}
