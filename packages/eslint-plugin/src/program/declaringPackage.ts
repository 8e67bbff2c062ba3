import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { SPEC_PACKAGE } from '../ast/index.js';

// Which package a declaration comes from, judged by the file that declares it. The type-aware rules
// use it to tell a framework's `tool` from a look-alike, whatever name it was imported under.

const packageNameByDirectory = new Map<string, string | undefined>();

/**
 * The package a file belongs to: the folder below the last `node_modules/` in its path (`ai`,
 * `@ai-sdk/provider-utils`; pnpm's `.pnpm/<id>/node_modules/<name>/` layout included), else the name
 * in the nearest `package.json` that has one (a workspace package, a stand-in mapped with `paths`).
 * `undefined` for a file outside any named package.
 */
export function getDeclaringPackage(fileName: string): string | undefined {
  const normalized = fileName.replaceAll('\\', '/');
  const marker = '/node_modules/';
  const index = normalized.lastIndexOf(marker);
  if (index !== -1) {
    const [first, second] = normalized.slice(index + marker.length).split('/');
    if (first === undefined) return undefined;
    return first.startsWith('@') && second !== undefined ? `${first}/${second}` : first;
  }
  // ESLint names linted text without a file `<input>` or `<text>`: no package to look up.
  if (!path.isAbsolute(fileName)) return undefined;
  return getPackageName(path.dirname(fileName));
}

/** The name in the nearest `package.json` that has one (a nameless one only sets `type`); cached. */
function getPackageName(directory: string): string | undefined {
  if (packageNameByDirectory.has(directory)) return packageNameByDirectory.get(directory);
  let name = readPackageName(path.join(directory, 'package.json'));
  if (name === undefined) {
    const parent = path.dirname(directory);
    name = parent === directory ? undefined : getPackageName(parent);
  }
  packageNameByDirectory.set(directory, name);
  return name;
}

function readPackageName(packageJsonPath: string): string | undefined {
  if (!existsSync(packageJsonPath)) return undefined;
  try {
    const { name } = JSON.parse(readFileSync(packageJsonPath, 'utf8')) as { name?: unknown };
    return typeof name === 'string' ? name : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether a file belongs to `@retrysafe/spec` (by `getDeclaringPackage`: its folder below the last
 * `node_modules/`, or the nearest named `package.json`, the real path of a workspace package included).
 * The package's own files may construct its brands; everything else must not.
 */
export function isInSpecPackage(fileName: string): boolean {
  return getDeclaringPackage(fileName) === SPEC_PACKAGE;
}
