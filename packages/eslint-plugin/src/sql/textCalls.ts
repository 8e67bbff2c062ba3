import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import { findProperty, getStaticPropertyName, resolveConst, resolveReference, staticString } from '../ast/index.js';

// SQL recognised by its text alone, whatever the receiver: a method of these names whose first
// argument reads as a SQL statement (`db.query('UPDATE …')`, a pg-promise `db.none('INSERT …')`), and
// a template tagged `sql` that is run where it stands (awaited, not passed to a function that is
// judged on its own). The statement text is the evidence: the receiver need not be known.

/** Method names that run the SQL text of their first argument in the drivers and query builders in use. */
export const SQL_TEXT_METHODS: ReadonlySet<string> = new Set([
  '$executeRaw', '$executeRawUnsafe', '$queryRaw', '$queryRawUnsafe', 'all', 'any', 'each', 'exec', 'execute', 'get', 'many',
  'manyOrNone', 'multi', 'none', 'one', 'oneOrNone', 'prepare', 'query', 'raw', 'result', 'run', 'unsafe',
]);

/** Tag names whose templates are SQL statements when run in place. */
export const SQL_TAGS: ReadonlySet<string> = new Set(['sql', 'SQL', '$executeRaw', '$queryRaw']);

/** Modules whose `sql` tag builds a fragment for another call rather than running it. */
export const SQL_FRAGMENT_MODULES: ReadonlySet<string> = new Set(['drizzle-orm', 'slonik', 'sql-template-strings', 'sql-template-tag']);

type SourceCode = Readonly<TSESLint.SourceCode>;
/** A node that may run SQL text: a call, a `new`, or a tagged template. */
export type SqlInvocation = TSESTree.CallExpression | TSESTree.NewExpression | TSESTree.TaggedTemplateExpression;

/**
 * The node that holds the SQL text `node` runs where it stands: the first argument of a method in
 * {@link SQL_TEXT_METHODS} (`db.query('INSERT …', values)`), or the template of a tag in
 * {@link SQL_TAGS} that is neither handed to a call (that call is judged itself) nor a fragment
 * builder's ({@link SQL_FRAGMENT_MODULES}). `undefined` for anything else; the text itself is not read.
 */
export function sqlStatementNode(sourceCode: SourceCode, node: SqlInvocation): TSESTree.Node | undefined {
  if (node.type === AST_NODE_TYPES.TaggedTemplateExpression) {
    if (!isSqlTag(node) || isArgument(node)) return undefined;
    const reference = resolveReference(sourceCode, node.tag);
    return reference && SQL_FRAGMENT_MODULES.has(reference.source) ? undefined : node.quasi;
  }
  if (node.type !== AST_NODE_TYPES.CallExpression || node.callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const method = getStaticPropertyName(node.callee);
  return method !== undefined && SQL_TEXT_METHODS.has(method) ? node.arguments[0] : undefined;
}

/** Whether a template's tag is one of {@link SQL_TAGS} (`sql\`…\``, `prisma.$executeRaw\`…\``), whatever module it is from. */
export function isSqlTag(node: TSESTree.TaggedTemplateExpression): boolean {
  const tag = node.tag.type === AST_NODE_TYPES.MemberExpression ? getStaticPropertyName(node.tag) : node.tag.type === AST_NODE_TYPES.Identifier ? node.tag.name : undefined;
  return tag !== undefined && SQL_TAGS.has(tag);
}

/**
 * The static parts of the SQL text `node` holds, with a hole between two parts where a `${}` value
 * goes: a string, a template (tagged or not), a `const` holding one, a `{ text | sql | query }`
 * config (`pg`'s `db.query({ text, values })`). `undefined` when the text is not visible in the file.
 */
export function sqlTextParts(sourceCode: SourceCode, node: TSESTree.Node | undefined, depth = 0): string[] | undefined {
  if (!node || depth > MAX_TEXT_DEPTH) return undefined;
  const value = resolveConst(sourceCode, node);
  if (value.type === AST_NODE_TYPES.TaggedTemplateExpression) return sqlTextParts(sourceCode, value.quasi, depth + 1);
  if (value.type === AST_NODE_TYPES.TemplateLiteral) return value.quasis.map((quasi) => quasi.value.cooked ?? quasi.value.raw);
  if (value.type === AST_NODE_TYPES.ObjectExpression) {
    const property = SQL_CONFIG_FIELDS.map((name) => findProperty(value, name)).find(Boolean);
    return property ? sqlTextParts(sourceCode, property.value, depth + 1) : undefined;
  }
  const text = staticString(sourceCode, value);
  return text === undefined ? undefined : [text];
}

const MAX_TEXT_DEPTH = 4;
/** The fields of a query config object that hold its text. */
const SQL_CONFIG_FIELDS = ['text', 'sql', 'query'];

/** Whether a template is handed to a call (`db.execute(sql\`…\`)`) rather than run where it stands. */
function isArgument(node: TSESTree.Node): boolean {
  let current = node;
  while (current.parent?.type === AST_NODE_TYPES.AwaitExpression) current = current.parent;
  const parent = current.parent;
  return (parent?.type === AST_NODE_TYPES.CallExpression || parent?.type === AST_NODE_TYPES.NewExpression) && parent.arguments.includes(current as TSESTree.CallExpressionArgument);
}
