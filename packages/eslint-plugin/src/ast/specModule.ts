import type { TSESLint } from '@typescript-eslint/utils';

import { getImportedModules } from './imports.js';

// `@retrysafe/spec` as an import: the tool, key and brand analyses all ask whether a name comes from
// it, and most files never import it, so each asks this first.

/** The package that declares the brands, `defineTool`, `key` and `declarePolicy`. */
export const SPEC_PACKAGE = '@retrysafe/spec';

/**
 * Whether the file imports or `require`s `@retrysafe/spec` itself: only then can a name in it be one
 * of the spec's exports (`key`, `vouchDurable`, `defineTool`, `declarePolicy`), so most files need
 * no scope lookup for them (docs/performance.md).
 */
export function importsSpecPackage(sourceCode: Readonly<TSESLint.SourceCode>): boolean {
  return getImportedModules(sourceCode).has(SPEC_PACKAGE);
}

/** `'@retrysafe/spec'` and its subpaths (`'@retrysafe/spec/testing'`). */
export function isSpecModule(source: string): boolean {
  return source === SPEC_PACKAGE || source.startsWith(`${SPEC_PACKAGE}/`);
}
