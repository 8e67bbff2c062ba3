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

/**
 * The names of the file's variables, in any scope, that `binds` accepts; `undefined` for a
 * SourceCode without scopes. A name outside the set cannot resolve to such a variable anywhere in the
 * file, so a caller asked about every call can answer most of them without a scope lookup; callers
 * build their set once per file.
 */
export function variableNames(sourceCode: Readonly<TSESLint.SourceCode>, binds: (variable: Variable) => boolean): Set<string> | undefined {
  if (!sourceCode.scopeManager) return undefined;
  const found = new Set<string>();
  for (const scope of sourceCode.scopeManager.scopes) {
    for (const variable of scope.variables) if (binds(variable)) found.add(variable.name);
  }
  return found;
}
