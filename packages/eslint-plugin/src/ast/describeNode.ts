import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

const MAX_DESCRIPTION_LENGTH = 40;

/** A short, single-line rendering of `node` for messages: `randomUUID()`, `new Date()`, `crypto.randomUUID(…)`. */
export function describeNode(node: TSESTree.Node, sourceCode: Readonly<TSESLint.SourceCode>): string {
  const text = sourceCode.getText(node).replace(/\s+/g, ' ');
  if (text.length <= MAX_DESCRIPTION_LENGTH) return text;
  if (node.type === AST_NODE_TYPES.CallExpression || node.type === AST_NODE_TYPES.NewExpression) {
    const prefix = node.type === AST_NODE_TYPES.NewExpression ? 'new ' : '';
    return `${prefix}${describeNode(node.callee, sourceCode)}(…)`;
  }
  return `${text.slice(0, MAX_DESCRIPTION_LENGTH - 1)}…`;
}
