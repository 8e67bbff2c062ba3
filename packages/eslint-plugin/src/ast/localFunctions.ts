import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import { getClassMember } from './classMembers.js';
import { getStaticPropertyName } from './imports.js';
import { type FunctionNode, isFunctionNode, skipWrappers } from './nodes.js';
import { getPropertyKeyName, resolveObject } from './staticValues.js';
import { findVariableOf, variableNames } from './variables.js';

type SourceCode = Readonly<TSESLint.SourceCode>;

/** How many bindings and members one lookup follows before it gives up. */
const MAX_RESOLVE_DEPTH = 4;

/**
 * The function a callee names in this file, so that a trace can step into it: a declaration, a
 * `const` arrow, a class method or field (`this.newKey()`), or a function in a `const` object
 * literal (`helpers.newKey()`). `undefined` for imports and anything not visible.
 */
export function resolveLocalFunction(callee: TSESTree.Node, sourceCode: SourceCode, depth = 0): FunctionNode | undefined {
  const node = skipWrappers(callee, { optionalChains: true });
  if (isFunctionNode(node)) return node;
  if (depth > MAX_RESOLVE_DEPTH) return undefined;
  if (node.type === AST_NODE_TYPES.Identifier) return resolveFunctionBinding(node, sourceCode, depth);
  const name = node.type === AST_NODE_TYPES.MemberExpression ? getStaticPropertyName(node) : undefined;
  if (node.type !== AST_NODE_TYPES.MemberExpression || name === undefined) return undefined;
  if (node.object.type === AST_NODE_TYPES.ThisExpression) {
    const member = getClassMember(node, name, sourceCode);
    const value = member?.method ?? member?.values[0];
    return value ? resolveLocalFunction(value, sourceCode, depth + 1) : undefined;
  }
  const property = resolveObject(sourceCode, skipWrappers(node.object, { optionalChains: true }))?.properties.find(
    (candidate): candidate is TSESTree.Property =>
      candidate.type === AST_NODE_TYPES.Property && getPropertyKeyName(candidate, sourceCode) === name,
  );
  return property ? resolveLocalFunction(property.value, sourceCode, depth + 1) : undefined;
}

/**
 * `function f() {}` or `const f = () => ...` (followed through further `const`s). Of a function
 * with overload signatures, the implementation; a `declare function` has no body to follow.
 */
function resolveFunctionBinding(identifier: TSESTree.Identifier, sourceCode: SourceCode, depth: number): FunctionNode | undefined {
  if (getFunctionBindingNames(sourceCode)?.has(identifier.name) === false) return undefined;
  const defs = findVariableOf(identifier, sourceCode)?.defs ?? [];
  const def = defs[0];
  if (def?.type === 'FunctionName') {
    const implementation = defs.find((candidate) => candidate.node.type === AST_NODE_TYPES.FunctionDeclaration);
    return implementation?.node as TSESTree.FunctionDeclaration | undefined;
  }
  if (def?.type === 'Variable' && def.node.id.type === AST_NODE_TYPES.Identifier && def.node.init) {
    return resolveLocalFunction(def.node.init, sourceCode, depth + 1);
  }
  return undefined;
}

const functionBindingNamesByFile = new WeakMap<SourceCode, ReadonlySet<string>>();

/**
 * The names the file binds with a function declaration or an initialised plain `const`/`let`/`var`:
 * a name outside it cannot resolve to a local function, so most callees (imports, globals,
 * parameters) are answered without a scope lookup. The rules ask this of every call, so the set is
 * built once per file.
 */
function getFunctionBindingNames(sourceCode: SourceCode): ReadonlySet<string> | undefined {
  let names = functionBindingNamesByFile.get(sourceCode);
  if (!names) {
    names = variableNames(sourceCode, (variable) =>
      variable.defs.some((def) => def.type === 'FunctionName' || (def.type === 'Variable' && def.node.id.type === AST_NODE_TYPES.Identifier && def.node.init)),
    );
    if (!names) return undefined;
    functionBindingNamesByFile.set(sourceCode, names);
  }
  return names;
}
