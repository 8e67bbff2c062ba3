import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import {
  findProperty,
  importsSpecPackage,
  outermostTypeWrapper,
  resolveObject,
  resolveReference,
  SPEC_PACKAGE,
} from '../ast/index.js';
import { BARE_POLICY_KEY, MCP_POLICY_KEY, type PolicyLocation } from './frameworks/index.js';
import type { PolicyDeclaration } from './toolDefinition.js';

// A policy declared next to a tool rather than inside its config: `declarePolicy(tool, policy)`
// from @retrysafe/spec, and the policy data some frameworks carry (`metadata.retrysafe`, `_meta.retrysafe`).

type SourceCode = Readonly<TSESLint.SourceCode>;

/**
 * Whether the file can call `declarePolicy`: only an import or `require` of `@retrysafe/spec` binds
 * it, so most files need no scope lookup for it (bench/lint.mjs).
 */
export function isDeclarePolicyPossible(sourceCode: SourceCode): boolean {
  return importsSpecPackage(sourceCode);
}

/** Whether a call is `declarePolicy(tool, policy)` from `@retrysafe/spec`. */
export function isDeclarePolicyCall(sourceCode: SourceCode, node: TSESTree.CallExpression): boolean {
  if (!isDeclarePolicyPossible(sourceCode)) return false;
  const reference = resolveReference(sourceCode, node.callee);
  return reference?.source === SPEC_PACKAGE && reference.path.join('.') === 'declarePolicy';
}

/**
 * The policy `declarePolicy` gives the tool that `node` defines: `declarePolicy(tool(...), policy)`,
 * or `const t = tool(...)` with `declarePolicy(t, policy)` anywhere in the file.
 */
export function getDeclaredPolicy(sourceCode: SourceCode, node: TSESTree.Node): PolicyDeclaration | undefined {
  const outer = outermostTypeWrapper(node);
  const call = asDeclarePolicyCall(sourceCode, outer.parent, outer);
  if (call) return getDeclarePolicyCallPolicy(sourceCode, call);
  const declarator = outer.parent;
  if (declarator?.type !== AST_NODE_TYPES.VariableDeclarator || declarator.init !== outer) return undefined;
  for (const variable of sourceCode.getDeclaredVariables(declarator)) {
    for (const reference of variable.references) {
      const used = outermostTypeWrapper(reference.identifier);
      const wrapping = asDeclarePolicyCall(sourceCode, used.parent, used);
      if (wrapping) return getDeclarePolicyCallPolicy(sourceCode, wrapping);
    }
  }
  return undefined;
}

/**
 * The policy object in a container such as LangChain's `metadata` or MCP's `_meta`: under
 * `io.github.retrysafe/policy` (the reverse-DNS key of MCP 2026-07-28's `_meta` rules, which
 * `@retrysafe/spec/adapters/mcp` publishes and reads) or the bare `retrysafe` of earlier releases.
 */
export function getNestedPolicy(
  sourceCode: SourceCode,
  container: TSESTree.Node | undefined,
  via: PolicyDeclaration['via'],
): PolicyDeclaration | undefined {
  const object = resolveObject(sourceCode, container);
  const policy = (findProperty(object, MCP_POLICY_KEY) ?? findProperty(object, BARE_POLICY_KEY))?.value;
  return policy && { via, node: policy, object: resolveObject(sourceCode, policy) };
}

/**
 * The policy a tool declares inside its config where its framework's catalogue entry says
 * (`location.nested`): LangChain's `metadata.retrysafe`, MCP's `_meta["io.github.retrysafe/policy"]`, following each
 * step of the path through `const` objects.
 */
export function getNestedConfigPolicy(
  sourceCode: SourceCode,
  config: TSESTree.ObjectExpression | undefined,
  location: PolicyLocation,
): PolicyDeclaration | undefined {
  const nested = location.nested;
  if (!nested) return undefined;
  let object = config;
  let container: TSESTree.Node | undefined;
  for (const [index, name] of nested.path.entries()) {
    container = findProperty(object, name)?.value;
    if (index < nested.path.length - 1) object = resolveObject(sourceCode, container);
  }
  return getNestedPolicy(sourceCode, container, nested.via);
}

/** `declarePolicy(...)` from `@retrysafe/spec` whose first argument is `argument`, if `node` is one. */
function asDeclarePolicyCall(
  sourceCode: SourceCode,
  node: TSESTree.Node | undefined,
  argument: TSESTree.Node,
): TSESTree.CallExpression | undefined {
  if (node?.type !== AST_NODE_TYPES.CallExpression || node.arguments[0] !== argument) return undefined;
  return isDeclarePolicyCall(sourceCode, node) ? node : undefined;
}

/** The policy a `declarePolicy(tool, policy)` call declares (the call itself when it has no second argument). */
export function getDeclarePolicyCallPolicy(sourceCode: SourceCode, call: TSESTree.CallExpression): PolicyDeclaration {
  const policy = call.arguments[1];
  return { via: 'declarePolicy', node: policy ?? call, object: resolveObject(sourceCode, policy) };
}
