import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import { getImportedModules, resolveReference } from './imports.js';
import { skipWrappers } from './nodes.js';

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

/**
 * `currentCall().key` (`currentCall()?.key`) with `currentCall` from `@retrysafe/spec`: the key a
 * guard (or an MCP server's `enableIdempotency`) derived for the call it runs, from the durable run,
 * the tool and the canonical arguments; `undefined` outside such a call.
 */
export function isCurrentCallKey(sourceCode: Readonly<TSESLint.SourceCode>, node: TSESTree.Node): boolean {
  const member = skipWrappers(node, { optionalChains: true });
  if (member.type !== AST_NODE_TYPES.MemberExpression || member.computed || member.property.type !== AST_NODE_TYPES.Identifier || member.property.name !== 'key') return false;
  const object = skipWrappers(member.object, { optionalChains: true, awaits: true });
  if (object.type !== AST_NODE_TYPES.CallExpression || !importsSpecPackage(sourceCode)) return false;
  const reference = resolveReference(sourceCode, object.callee);
  return reference?.source === SPEC_PACKAGE && reference.path.length === 1 && reference.path[0] === 'currentCall';
}

/** The name of the `@retrysafe/spec` export `node` refers to (`key`, `defineTool` ...), if it refers to one of its top-level exports. */
export function getSpecExportName(sourceCode: Readonly<TSESLint.SourceCode>, node: TSESTree.Node): string | undefined {
  if (!importsSpecPackage(sourceCode)) return undefined;
  const reference = resolveReference(sourceCode, node);
  return reference?.source === SPEC_PACKAGE && reference.path.length === 1 ? reference.path[0] : undefined;
}

/** Whether `callee` is the spec's `key` tagged template or `vouchDurable`, which make a key or a durable value of their parts. */
export function isSpecKeyCallee(sourceCode: Readonly<TSESLint.SourceCode>, callee: TSESTree.Node): boolean {
  const name = getSpecExportName(sourceCode, callee);
  return name === 'key' || name === 'vouchDurable';
}
