import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import { type SqlInvocation, sqlStatementNode } from '../sql/index.js';
import type { FoundEffect } from './effectsOfCall.js';
import { readSql } from './kindReaders.js';
import type { Env } from './values.js';

// SQL recognised by its text whatever the receiver (sqlStatementNode in sql/textCalls.ts): the statement
// is the evidence. A template tagged `sql` counts where it runs, not where it is handed to a
// function (that function's call is judged itself) nor where a fragment builder makes it.

type SourceCode = Readonly<TSESLint.SourceCode>;

/** The statements `node` runs, if it is a SQL call or template recognised by its text; `undefined` otherwise. */
export function sqlTextEffects(sourceCode: SourceCode, top: SqlInvocation, env: Env, through: readonly TSESTree.Node[]): FoundEffect[] | undefined {
  // `db.prepare('INSERT …').run(...values)`: the statement is given to a call further down the chain.
  for (let node: TSESTree.Node | undefined = top; node; node = innerCall(node)) {
    if (node.type !== AST_NODE_TYPES.CallExpression && node.type !== AST_NODE_TYPES.TaggedTemplateExpression) continue;
    const statement = sqlStatementNode(sourceCode, node);
    const readings = statement && readSql(sourceCode, statement, env);
    if (readings) return toEffects(sourceCode, node, statement, readings, through);
  }
  return undefined;
}

/** The call whose result `node`'s callee reads a member of: `a.b(…)` in `a.b(…).c(…)`. */
function innerCall(node: TSESTree.Node): TSESTree.Node | undefined {
  const callee = node.type === AST_NODE_TYPES.CallExpression ? node.callee : node.type === AST_NODE_TYPES.TaggedTemplateExpression ? node.tag : undefined;
  if (callee?.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const object = callee.object.type === AST_NODE_TYPES.AwaitExpression ? callee.object.argument : callee.object;
  return object.type === AST_NODE_TYPES.CallExpression || object.type === AST_NODE_TYPES.TaggedTemplateExpression ? object : undefined;
}

function toEffects(
  sourceCode: SourceCode,
  node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression,
  statement: TSESTree.Node,
  readings: NonNullable<ReturnType<typeof readSql>>,
  through: readonly TSESTree.Node[],
): FoundEffect[] {
  return readings.map((reading) => ({
    kind: reading.kind,
    library: 'SQL',
    sideEffects: 'internal_write',
    text: reading.text ?? sourceCode.getText(statement).slice(0, 60),
    detail: undefined,
    does: reading.does,
    node,
    line: node.loc.start.line,
    keyPassed: reading.kind === 'create' ? 'no' : undefined,
    keySlot: reading.kind === 'create' ? 'none' : undefined,
    change: reading.change,
    through,
    additive: reading.additive ?? false,
    ...(reading.kind === 'absolute' && reading.guarded ? { guarded: reading.guarded } : {}),
  }));
}
