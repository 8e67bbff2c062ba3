import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import { findVariableOf, getStaticPropertyName, GLOBAL_SOURCE, resolveConst, resolveReference } from '../ast/index.js';
import { classifySql, isSqlTag, SQL_TEXT_METHODS, sqlStatementNode, sqlTextParts } from '../sql/index.js';

// Get-or-create: a random or per-attempt value that is stored before it is used as a key (in session
// storage, a queue job, a database row) is read back unchanged on the retry, so it is durable. A
// row is written by a method of that name (`db.insert`, `upsert`, `save`) or by SQL text whose
// statement writes (INSERT, REPLACE, UPDATE, MERGE, read by sql/'s classifier) with the value among
// its parameters: `db.query('INSERT … VALUES ($1, $2)', [id, key])`, `db.prepare('INSERT …').run(key)`,
// ``sql`INSERT … VALUES (${key})` ``. A SELECT stores nothing.

type SourceCode = Readonly<TSESLint.SourceCode>;

/** Calls whose result still holds their argument when climbing towards a persisting call. */
const SERIALIZING_CALLS = new Set(['JSON.stringify', 'String', 'structuredClone']);
/** Methods and functions that store what they are given (storage, queues, databases, files). */
const PERSISTING_METHODS = new Set([
  'add', 'enqueue', 'hSet', 'hset', 'insert', 'insertMany', 'insertOne', 'persist', 'put', 'putItem',
  'save', 'set', 'setEx', 'setItem', 'setNX', 'setex', 'setnx', 'store', 'updateData', 'upsert',
  'writeFile', 'writeFileSync',
]);
/** SQL verbs whose statement stores the values given to it. */
const WRITING_SQL_VERBS = new Set(['INSERT', 'MERGE', 'REPLACE', 'UPDATE']);
/** Receivers of `set` that only live in memory or on one request: headers, URL params, `Map`s. */
const IN_MEMORY_RECEIVER = /(headers|params|map)$/i;
const IN_MEMORY_CONSTRUCTORS = new Set(['Headers', 'Map', 'URLSearchParams', 'WeakMap']);
/** Nodes a value passes through unchanged on its way into a persisting call's argument. */
const CONTAINERS = new Set<AST_NODE_TYPES>([
  AST_NODE_TYPES.ObjectExpression,
  AST_NODE_TYPES.ArrayExpression,
  AST_NODE_TYPES.TemplateLiteral,
  AST_NODE_TYPES.SpreadElement,
  AST_NODE_TYPES.TSAsExpression,
  AST_NODE_TYPES.TSNonNullExpression,
  AST_NODE_TYPES.TSSatisfiesExpression,
]);

/**
 * Is the value of `node` stored by a persisting call, directly or inside the object, array, template
 * or `JSON.stringify(...)` it is part of? `queue.add('deliver', { deliveryId: nanoid() })` stores the
 * id with the job, so the job's retries all see the same one.
 */
export function isPersistedAt(node: TSESTree.Node, sourceCode: SourceCode): boolean {
  let current: TSESTree.Node = node;
  for (let parent = current.parent; parent; current = parent, parent = parent.parent) {
    if (CONTAINERS.has(parent.type)) continue;
    // ``sql`INSERT … VALUES (${key})` ``: a hole of a template tagged as SQL.
    if (parent.type === AST_NODE_TYPES.TaggedTemplateExpression) return parent.quasi === current && isSqlTag(parent) && writesSql(sourceCode, parent.quasi);
    if (parent.type === AST_NODE_TYPES.Property && parent.value === current) continue;
    if (parent.type === AST_NODE_TYPES.MemberExpression && parent.object === current) continue;
    if (parent.type !== AST_NODE_TYPES.CallExpression) return false;
    const index = parent.arguments.indexOf(current as TSESTree.CallExpressionArgument);
    if (index === -1) return false;
    if (isPersistingCall(parent, index, sourceCode)) return true;
    if (!isSerializingCall(parent, sourceCode)) return false;
  }
  return false;
}

/**
 * Does `call` store its argument number `argumentIndex` somewhere that outlives the attempt?
 * `sessionStorage.setItem(k, v)`, `redis.set(k, v)`, `db.insert(row)`, `queue.add(name, data)` (only
 * `data`: BullMQ's third argument is options), a parameter of a writing SQL statement
 * (`db.query('INSERT …', [k])`), but not `headers.set(...)`, a `Map`'s `set` or a SELECT's parameter.
 */
export function isPersistingCall(call: TSESTree.CallExpression, argumentIndex: number, sourceCode: SourceCode): boolean {
  const callee = call.callee;
  const name =
    callee.type === AST_NODE_TYPES.Identifier ? callee.name
    : callee.type === AST_NODE_TYPES.MemberExpression ? getStaticPropertyName(callee)
    : undefined;
  if (name !== undefined && SQL_TEXT_METHODS.has(name) && isSqlWriteParameter(call, sourceCode)) return true;
  if (name === undefined || !PERSISTING_METHODS.has(name)) return false;
  if (name === 'add') return argumentIndex === 1;
  return callee.type !== AST_NODE_TYPES.MemberExpression || !isInMemoryReceiver(callee.object, sourceCode);
}

/** Is the binding handed to a persisting call somewhere before `use` (get-or-create)? */
export function isPersistedBeforeUse(variable: TSESLint.Scope.Variable, use: TSESTree.Identifier, sourceCode: SourceCode): boolean {
  return variable.references.some(
    (reference) =>
      reference.identifier !== use &&
      reference.identifier.range[0] < use.range[0] &&
      isPersistedAt(reference.identifier, sourceCode),
  );
}

function isInMemoryReceiver(receiver: TSESTree.Node, sourceCode: SourceCode): boolean {
  const name =
    receiver.type === AST_NODE_TYPES.Identifier ? receiver.name
    : receiver.type === AST_NODE_TYPES.MemberExpression ? getStaticPropertyName(receiver)
    : undefined;
  if (name !== undefined && IN_MEMORY_RECEIVER.test(name)) return true;
  if (receiver.type !== AST_NODE_TYPES.Identifier) return false;
  const def = findVariableOf(receiver, sourceCode)?.defs[0];
  const init = def?.type === 'Variable' ? def.node.init : null;
  return (
    init?.type === AST_NODE_TYPES.NewExpression &&
    init.callee.type === AST_NODE_TYPES.Identifier &&
    IN_MEMORY_CONSTRUCTORS.has(init.callee.name)
  );
}

function isSerializingCall(node: TSESTree.CallExpression, sourceCode: SourceCode): boolean {
  const reference = resolveReference(sourceCode, node.callee);
  return reference?.source === GLOBAL_SOURCE && SERIALIZING_CALLS.has(reference.path.join('.'));
}

/**
 * Is a value given to a SQL-text method's call a parameter of a statement that writes?
 * The values after the text (`db.query('INSERT …', [k])`, `conn.execute('UPDATE … SET k = ?', [k])`),
 * the values of a `{ text, values }` config or a hole of the text, or any argument of a prepared statement's call
 * (`db.prepare('INSERT …').run(k)`, also through a `const stmt = db.prepare(...)`).
 */
function isSqlWriteParameter(call: TSESTree.CallExpression, sourceCode: SourceCode): boolean {
  const prepared = call.callee.type === AST_NODE_TYPES.MemberExpression ? resolveConst(sourceCode, call.callee.object) : undefined;
  if (prepared?.type === AST_NODE_TYPES.CallExpression && writesSql(sourceCode, sqlStatementNode(sourceCode, prepared))) return true;
  // Argument 0 is the text: a value there is a hole of it or in a config's `values`.
  return writesSql(sourceCode, call.arguments[0]);
}

/** Does the SQL text `node` holds have a statement that writes (INSERT, REPLACE, UPDATE, MERGE)? */
function writesSql(sourceCode: SourceCode, node: TSESTree.Node | undefined): boolean {
  const parts = sqlTextParts(sourceCode, node);
  const statements = parts && classifySql(parts);
  return statements?.some((statement) => WRITING_SQL_VERBS.has(statement.verb)) ?? false;
}
