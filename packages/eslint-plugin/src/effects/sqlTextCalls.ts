import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import { getStaticPropertyName, resolveReference } from '../ast/index.js';
import type { FoundEffect } from './effectsOfCall.js';
import { readSql } from './kindReaders.js';
import { SQL_FRAGMENT_MODULES, SQL_TAGS, SQL_TEXT_METHODS } from './libraries/index.js';
import type { Env } from './values.js';

// SQL recognised by its text whatever the receiver (SQL_TEXT_METHODS in libraries/databases.ts): the statement
// is the evidence. A template tagged `sql` counts where it runs, not where it is handed to a
// function (that function's call is judged itself) nor where a fragment builder makes it.

type SourceCode = Readonly<TSESLint.SourceCode>;
type Invocation = TSESTree.CallExpression | TSESTree.NewExpression | TSESTree.TaggedTemplateExpression;

/** The statements `node` runs, if it is a SQL call or template recognised by its text; `undefined` otherwise. */
export function sqlTextEffects(sourceCode: SourceCode, top: Invocation, env: Env, through: readonly TSESTree.Node[]): FoundEffect[] | undefined {
  // `db.prepare('INSERT …').run(...values)`: the statement is given to a call further down the chain.
  for (let node: TSESTree.Node | undefined = top; node; node = innerCall(node)) {
    if (node.type !== AST_NODE_TYPES.CallExpression && node.type !== AST_NODE_TYPES.TaggedTemplateExpression) continue;
    const statement = sqlNode(sourceCode, node);
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
  }));
}

function sqlNode(sourceCode: SourceCode, node: Invocation): TSESTree.Node | undefined {
  if (node.type === AST_NODE_TYPES.TaggedTemplateExpression) {
    const tag = node.tag.type === AST_NODE_TYPES.MemberExpression ? getStaticPropertyName(node.tag) : node.tag.type === AST_NODE_TYPES.Identifier ? node.tag.name : undefined;
    if (tag === undefined || !SQL_TAGS.has(tag) || isArgument(node)) return undefined;
    const reference = resolveReference(sourceCode, node.tag);
    return reference && SQL_FRAGMENT_MODULES.has(reference.source) ? undefined : node.quasi;
  }
  if (node.type !== AST_NODE_TYPES.CallExpression || node.callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const method = getStaticPropertyName(node.callee);
  return method !== undefined && SQL_TEXT_METHODS.has(method) ? node.arguments[0] : undefined;
}

/** Whether a template is handed to a call (`db.execute(sql\`…\`)`) rather than run where it stands. */
function isArgument(node: TSESTree.Node): boolean {
  let current = node;
  while (current.parent?.type === AST_NODE_TYPES.AwaitExpression) current = current.parent;
  const parent = current.parent;
  return (parent?.type === AST_NODE_TYPES.CallExpression || parent?.type === AST_NODE_TYPES.NewExpression) && parent.arguments.includes(current as TSESTree.CallExpressionArgument);
}
