import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import type { InferredPolicy } from '../../effects/index.js';
import { findProperty, hasSpread } from '../../ast/index.js';
import type { ToolDefinition } from '../../tools/index.js';

// The declaration an inferred policy stands for, written in the tool's own framework: MCP
// annotations, `declarePolicy(...)` for AI SDK, OpenAI Agents and Mastra, LangChain's
// `metadata.retrysafe`, the `defineTool` fields. Offered as an editor suggestion, never a fix: the
// analysis sees what the handler reaches in this file, and the author decides.

type SourceCode = Readonly<TSESLint.SourceCode>;
type Fix = (fixer: TSESLint.RuleFixer) => TSESLint.RuleFix | TSESLint.RuleFix[];

/** A suggestion: the declaration as it will read, and the edit that writes it. */
export interface PolicySuggestion {
  readonly declaration: string;
  readonly fix: Fix;
}

const SPEC_MODULE = '@retrysafe/spec';

/**
 * The declaration `policy` stands for in `tool`'s framework, or `undefined` when the tool has no
 * place to write one (see {@link planPolicySuggestion}).
 */
export function suggestPolicy(sourceCode: SourceCode, tool: ToolDefinition, policy: InferredPolicy): PolicySuggestion | undefined {
  return planPolicySuggestion(sourceCode, tool)?.(policy);
}

/** Writes the suggestion for a policy, once {@link planPolicySuggestion} found where it goes. */
export type PolicySuggestionWriter = (policy: InferredPolicy) => PolicySuggestion;

/**
 * Where `tool` can take a declaration, decided from the tool alone: `undefined` when it cannot
 * (a config a wrapper rebuilds, a LangChain config with its own `metadata`, MCP annotations already
 * written or a config with a spread, ...), whatever the policy would be. A caller can then skip
 * inferring the policy, which only decides the text.
 */
export function planPolicySuggestion(sourceCode: SourceCode, tool: ToolDefinition): PolicySuggestionWriter | undefined {
  // A config a wrapper rebuilds is written nowhere as one object (ToolDefinition.configRebuilt):
  // which of the call's fields the wrapper would pass on is the author's to choose.
  const config = tool.configRebuilt ? undefined : tool.config;
  switch (tool.framework) {
    case 'mcp':
    case 'mcp-low-level':
      return tool.configRebuilt ? undefined : planAnnotations(sourceCode, tool);
    case 'retrysafe':
    case 'custom':
      return config && ((policy) => addTo(sourceCode, config, defineToolFields(policy)));
    case 'langchain':
      if (!config || findProperty(config, 'metadata')) return undefined;
      return (policy) => addTo(sourceCode, config, `metadata: { retrysafe: ${policyData(policy)} }`);
    default:
      return planDeclarePolicy(sourceCode, tool);
  }
}

function defineToolFields(policy: InferredPolicy): string {
  return `sideEffects: '${policy.sideEffects}', idempotent: ${policy.idempotent}, retry: '${policy.retry}'`;
}

function policyData(policy: InferredPolicy): string {
  return `{ side_effects: '${policy.sideEffects}', idempotent: ${policy.idempotent}, retry: '${policy.retry}' }`;
}

function annotationsFor(policy: InferredPolicy): string {
  if (policy.sideEffects === 'none') return 'readOnlyHint: true';
  return `readOnlyHint: false, destructiveHint: ${policy.destructive}, idempotentHint: ${policy.idempotent}`;
}

function planAnnotations(sourceCode: SourceCode, tool: ToolDefinition): PolicySuggestionWriter | undefined {
  const config = tool.config ?? (tool.node.type === AST_NODE_TYPES.ObjectExpression ? tool.node : undefined);
  if (!config || hasSpread(config) || findProperty(config, 'annotations')) return undefined;
  // `server.registerTool(name, config, cb)`, a listed tool object, FastMCP's `addTool({...})`.
  if (config.properties.length > 0 || tool.configNode) return (policy) => addTo(sourceCode, config, `annotations: { ${annotationsFor(policy)} }`);
  return undefined;
}

/** Wraps the tool's call in `declarePolicy(…, policy)`, importing `declarePolicy` when the file does not. */
function planDeclarePolicy(sourceCode: SourceCode, tool: ToolDefinition): PolicySuggestionWriter | undefined {
  const node = tool.node;
  if (node.type !== AST_NODE_TYPES.CallExpression && node.type !== AST_NODE_TYPES.NewExpression) return undefined;
  return (policy) => wrapInDeclarePolicy(sourceCode, node, policy);
}

function wrapInDeclarePolicy(sourceCode: SourceCode, node: TSESTree.CallExpression | TSESTree.NewExpression, policy: InferredPolicy): PolicySuggestion {
  const local = importedName(sourceCode, 'declarePolicy');
  const name = local ?? 'declarePolicy';
  const fix: Fix = (fixer) => {
    const fixes = [fixer.insertTextBefore(node, `${name}(`), fixer.insertTextAfter(node, `, ${policyData(policy)})`)];
    if (local === undefined) fixes.push(addImport(fixer, sourceCode));
    return fixes;
  };
  return { declaration: `${name}(…, ${policyData(policy)})`, fix };
}

/** The local name `declarePolicy` is imported under from `@retrysafe/spec`, if it is. */
function importedName(sourceCode: SourceCode, exported: string): string | undefined {
  for (const statement of sourceCode.ast.body) {
    if (statement.type !== AST_NODE_TYPES.ImportDeclaration || statement.source.value !== SPEC_MODULE || statement.importKind === 'type') continue;
    for (const specifier of statement.specifiers) {
      if (specifier.type !== AST_NODE_TYPES.ImportSpecifier) continue;
      const name = specifier.imported.type === AST_NODE_TYPES.Identifier ? specifier.imported.name : specifier.imported.value;
      if (name === exported) return specifier.local.name;
    }
  }
  return undefined;
}

function addImport(fixer: TSESLint.RuleFixer, sourceCode: SourceCode): TSESLint.RuleFix {
  const imports = sourceCode.ast.body.filter((statement) => statement.type === AST_NODE_TYPES.ImportDeclaration);
  const text = `import { declarePolicy } from '${SPEC_MODULE}';`;
  const last = imports.at(-1);
  return last ? fixer.insertTextAfter(last, `\n${text}`) : fixer.insertTextBeforeRange([0, 0], `${text}\n`);
}

/** Adds `text` as the last entry of an object literal, on its own line when the object spans lines. */
function addTo(sourceCode: SourceCode, object: TSESTree.ObjectExpression, text: string): PolicySuggestion {
  const fix: Fix = (fixer) => {
    const last = object.properties.at(-1);
    if (!last) return fixer.replaceText(object, `{ ${text} }`);
    if (last.loc.start.line === object.loc.start.line) return fixer.insertTextAfter(last, `, ${text}`);
    const indent = /^\s*/.exec(sourceCode.lines[last.loc.start.line - 1] ?? '')?.[0] ?? '';
    const comma = sourceCode.getTokenAfter(last)?.value === ',' ? '' : ',';
    const after = comma === '' ? (sourceCode.getTokenAfter(last) ?? last) : last;
    return fixer.insertTextAfter(after, `${comma}\n${indent}${text}${comma === '' ? ',' : ''}`);
  };
  return { declaration: text, fix };
}
