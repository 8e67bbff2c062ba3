import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES, ASTUtils } from '@typescript-eslint/utils';

// What a name is bound to: the variable an identifier reads, whether anything writes it again, and
// the value a constant holds. The constant resolver (staticValues), the walks and the key-origin walk
// read bindings through these.

type Variable = TSESLint.Scope.Variable;

/** The variable `identifier` reads or declares, looked up from its own scope; `undefined` for an unbound (global) name. */
export function findVariableOf(identifier: TSESTree.Identifier, sourceCode: Readonly<TSESLint.SourceCode>): Variable | undefined {
  return ASTUtils.findVariable(sourceCode.getScope(identifier), identifier) ?? undefined;
}

/** Whether anything assigns the variable after its declaration (`x = ...`, `x++`, a `for` update). */
export function isReassigned(variable: Variable): boolean {
  return variable.references.some((reference) => reference.isWrite() && !reference.init);
}

/**
 * The value of a constant: the initialiser of a variable that has one declaration, binds a plain
 * name (not a pattern) and is never reassigned, whatever its keyword (`const`, or a `let` nobody
 * writes again). `undefined` otherwise.
 */
export function getConstantInitializer(variable: Variable | undefined): TSESTree.Expression | undefined {
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (def?.type !== 'Variable' || def.node.id.type !== AST_NODE_TYPES.Identifier || !def.node.init) return undefined;
  return variable && !isReassigned(variable) ? def.node.init : undefined;
}
