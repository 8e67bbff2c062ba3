import type { TSESLint, TSESTree } from '@typescript-eslint/utils';

import type { FunctionNode } from '../ast/index.js';

// Where the effects analysis may leave the file it reads. On its own it stops at an import: an
// imported helper (`addPoints(id, n)`) or client (`db.query(…)` with `export const db = new Pool()`
// in another module) is unknown and reports nothing. The type-aware twin of no-contradicted-policy
// hands the analysis a resolver, built in program/ on the type checker, that names the declaration
// in another file of the program; the analysis then reads that file with the same walk, under that
// file's own SourceCode. The interface lives here, so that this layer does not depend on program/.

type SourceCode = Readonly<TSESLint.SourceCode>;

/** A node of another file of the program, with the SourceCode it is read under. */
export interface ForeignNode<T extends TSESTree.Node> {
  readonly sourceCode: SourceCode;
  /** The file's path, for the evidence an effect found there carries. */
  readonly fileName: string;
  readonly node: T;
}

/**
 * What the analysis asks when it reaches an import. Each answer is `undefined` when the declaration
 * cannot be resolved or is not readable code (a package, a declaration file), or when it is in the
 * same file: then the analysis stays as it is without a resolver, silent.
 */
export interface CrossFileResolver {
  /**
   * The function with a body that `call`'s callee names, when the callee is an imported binding or
   * a member of one (`addPoints(…)`, `points.add(…)`), declared in another file.
   */
  functionOf(sourceCode: SourceCode, call: TSESTree.CallExpression): ForeignNode<FunctionNode> | undefined;
  /**
   * The name a `const` is declared with in another file, when `identifier` is an imported binding
   * that reads it (re-exports followed): `db` in `export const db = new Pool()`.
   */
  valueOf(sourceCode: SourceCode, identifier: TSESTree.Identifier): ForeignNode<TSESTree.Identifier> | undefined;
}
