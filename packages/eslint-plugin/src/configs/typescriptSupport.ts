import { createRequire } from 'node:module';

// Every config sets @typescript-eslint/parser, which loads the `typescript` package's JavaScript API
// to read every file, JavaScript included. TypeScript 7 (the native compiler, npm's `latest` since
// 7.0) ships no such API: typescript-eslint throws "typescript-eslint does not support TS 7.0" from
// inside the parser, and the user learns neither which package is at fault nor what to install.
// This module is the plugin's first import, so it speaks before the parser loads.

/** The page that explains running TypeScript 7 beside TypeScript 6. */
export const TYPESCRIPT_7_GUIDE = 'https://github.com/retrysafe/retrysafe/blob/main/docs/typescript-7.md';

/**
 * What is wrong with the `typescript` package the parser would load, as the error to show, or
 * `undefined` when it can serve ESLint.
 *
 * @param version - the installed `typescript` package's version, `undefined` when none is installed.
 * @returns a message that names the package at fault and the setup that fixes it: the side-by-side
 *   setup of the TypeScript 7.0 announcement for TypeScript 7 (`typescript` aliased to
 *   `@typescript/typescript6` for ESLint, `@typescript/native` aliased to TypeScript 7 for `tsc`).
 */
export function describeUnsupportedTypeScript(version: string | undefined): string | undefined {
  if (version === undefined) {
    return (
      "@retrysafe/eslint-plugin: the typescript package is not installed. ESLint's TypeScript parser " +
      '(@typescript-eslint/parser, set by every retrysafe config) needs it to read every file, JavaScript ' +
      `included. Install TypeScript 6: npm install --save-dev typescript@6 (on TypeScript 7, see ${TYPESCRIPT_7_GUIDE}).`
    );
  }
  if (!(Number.parseInt(version, 10) >= 7)) return undefined;
  return [
    `@retrysafe/eslint-plugin: the typescript package is TypeScript ${version}, which has no JavaScript API. ESLint's`,
    'TypeScript parser (typescript-eslint, set by every retrysafe config) needs the TypeScript 6 API. Run the two side by',
    'side: give ESLint TypeScript 6 under the name typescript and keep tsc on TypeScript 7, in package.json:',
    '',
    '  "devDependencies": {',
    '    "typescript": "npm:@typescript/typescript6@6.0.2",',
    `    "@typescript/native": "npm:typescript@${version}"`,
    '  }',
    '',
    'then install again. `tsc` is then TypeScript 7 and `tsc6` TypeScript 6; run tsc as before.',
    `See ${TYPESCRIPT_7_GUIDE}`,
  ].join('\n');
}

/**
 * Throws the error {@link describeUnsupportedTypeScript} describes for the `typescript` package
 * that `require` resolves from `fromUrl` (the plugin's own location: pnpm links the peer next to
 * it, npm hoists it above, so the parser resolves the same copy).
 *
 * @throws Error with that message when `typescript` is missing or is TypeScript 7 or later.
 */
export function assertSupportedTypeScript(fromUrl: string | URL = import.meta.url): void {
  const message = describeUnsupportedTypeScript(readTypeScriptVersion(fromUrl));
  if (message !== undefined) throw new Error(message);
}

function readTypeScriptVersion(fromUrl: string | URL): string | undefined {
  let typescript: { version?: unknown };
  try {
    // `require`, not `import`: the parser requires the same copy next, from the module cache.
    typescript = createRequire(fromUrl)('typescript') as { version?: unknown };
  } catch (error) {
    if ((error as { code?: unknown }).code === 'MODULE_NOT_FOUND') return undefined;
    throw error;
  }
  return typeof typescript.version === 'string' ? typescript.version : '';
}

assertSupportedTypeScript();
