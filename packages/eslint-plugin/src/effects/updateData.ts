import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import { getReturnedExpressions, isFunctionNode } from '../ast/index.js';
import { getStaticPropertyName } from '../ast/index.js';
import { getPropertyKeyName } from '../ast/index.js';
import type { UpdateStyle } from './libraries/index.js';
import { type Env, follow, followString } from './values.js';

// Whether the data of an update sets values (absolute) or changes them relative to what is there:
// Prisma's atomic operators, Mongo's update operators, SQL fragments built from the same column
// (Drizzle and Kysely `sql`, Knex `raw`, TypeORM `() => 'points + 1'`, Kysely `eb('n', '+', 1)`),
// and DynamoDB update expressions.

type SourceCode = Readonly<TSESLint.SourceCode>;

/** The verdict on some update data. */
export interface DataReading {
  readonly kind: 'absolute' | 'create' | 'relative' | 'write';
  /** For a relative change: the field and how (`points`, `+`), and what to show (`points: { increment }`). */
  readonly column?: string | undefined;
  readonly operator?: string | undefined;
  readonly shown?: string | undefined;
}

const PRISMA_RELATIVE: Readonly<Record<string, string>> = { increment: '+', decrement: '-', multiply: '*', divide: '/', push: 'push' };
const PRISMA_CREATES = new Set(['create', 'createMany']);
const MONGO_RELATIVE: Readonly<Record<string, string>> = { $inc: '+', $mul: '*', $push: 'push', $pop: 'pop', $bit: 'bit' };
const ARITHMETIC = /[+\-*/]/;

/** Reads update data written at `node` in `style`; `undefined` when it is not visible. */
export function readUpdateData(sourceCode: SourceCode, node: TSESTree.Node | undefined, env: Env, style: UpdateStyle): DataReading | undefined {
  if (!node) return undefined;
  if (style === 'dynamodb') return readUpdateExpression(followParts(sourceCode, node, env));
  let found = follow(sourceCode, node, env);
  // Kysely's `.set((eb) => ({ … }))`: the object the callback returns.
  if (isFunctionNode(found.node)) {
    const [returned] = getReturnedExpressions(found.node, sourceCode);
    if (!returned) return undefined;
    found = follow(sourceCode, returned, found.env);
  }
  if (found.node.type === AST_NODE_TYPES.ArrayExpression) return style === 'mongo' ? { kind: 'write' } : undefined; // an aggregation pipeline
  if (found.node.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
  const object = found.node;
  let unclear = false;
  for (const property of object.properties) {
    if (property.type === AST_NODE_TYPES.SpreadElement) {
      unclear = true;
      continue;
    }
    const name = getPropertyKeyName(property, sourceCode);
    if (name === undefined) {
      unclear = true;
      continue;
    }
    const reading = readField(sourceCode, style, name, property.value, found.env);
    if (reading.kind === 'relative' || reading.kind === 'create') return reading;
    if (reading.kind === 'write') unclear = true;
  }
  return { kind: unclear ? 'write' : 'absolute' };
}

function readField(sourceCode: SourceCode, style: UpdateStyle, name: string, value: TSESTree.Node, env: Env): DataReading {
  const inner = follow(sourceCode, value, env);
  if (style === 'prisma') return readPrismaField(sourceCode, name, inner.node);
  if (style === 'mongo') return readMongoField(sourceCode, name, inner.node);
  return readSetValue(sourceCode, name, inner.node, inner.env);
}

function readPrismaField(sourceCode: SourceCode, name: string, value: TSESTree.Node): DataReading {
  if (value.type !== AST_NODE_TYPES.ObjectExpression) return { kind: 'absolute' };
  for (const property of value.properties) {
    const key = property.type === AST_NODE_TYPES.Property ? getPropertyKeyName(property, sourceCode) : undefined;
    if (key === undefined) continue;
    const operator = PRISMA_RELATIVE[key];
    if (operator) return { kind: 'relative', column: name, operator, shown: `${name}: { ${key} }` };
    if (PRISMA_CREATES.has(key)) return { kind: 'create', column: name, shown: `${name}: { ${key} }` };
  }
  return { kind: 'absolute' };
}

function readMongoField(sourceCode: SourceCode, name: string, value: TSESTree.Node): DataReading {
  const operator = MONGO_RELATIVE[name];
  if (!operator) return { kind: 'absolute' }; // `$set`, `$addToSet`, `$pull`, `$min`..., or a replacement field
  const field =
    value.type === AST_NODE_TYPES.ObjectExpression && value.properties[0]?.type === AST_NODE_TYPES.Property
      ? getPropertyKeyName(value.properties[0], sourceCode)
      : undefined;
  return { kind: 'relative', column: field, operator, shown: field === undefined ? name : `${name}: { ${field} }` };
}

/** A column value in a SET: a plain value, or a SQL fragment that may be built from the same column. */
function readSetValue(sourceCode: SourceCode, name: string, value: TSESTree.Node, env: Env): DataReading {
  // Kysely: `eb('points', '+', 1)`.
  if (value.type === AST_NODE_TYPES.CallExpression && value.arguments.length === 3) {
    const [column, operator] = value.arguments.map((argument) => followString(sourceCode, argument, env));
    if (column === name && (operator === '+' || operator === '-')) return { kind: 'relative', column: name, operator, shown: `${name}: eb('${name}', '${operator}', …)` };
  }
  const parts = fragmentParts(sourceCode, value, env);
  if (!parts) return { kind: 'absolute' };
  const selfReference =
    parts.holes.some((hole) => hole === name) || new RegExp(`(^|[^\\w.])${escape(name)}\\b`, 'i').test(parts.text.join(' '));
  if (!selfReference) return { kind: 'absolute' };
  const operator = parts.text.join(' ').match(ARITHMETIC)?.[0];
  if (!operator) return { kind: 'write' };
  return { kind: 'relative', column: name, operator, shown: `${name}: ${sourceCode.getText(value).replace(/\s+/g, ' ').slice(0, 40)}` };
}

interface Fragment {
  /** Static text of the fragment. */
  readonly text: readonly string[];
  /** For each hole, the property name it reads when it is `${table.column}`. */
  readonly holes: readonly (string | undefined)[];
}

/** A SQL fragment: `sql\`…\``, `knex.raw('…')`, `() => 'points + 1'`. */
function fragmentParts(sourceCode: SourceCode, value: TSESTree.Node, env: Env): Fragment | undefined {
  if (value.type === AST_NODE_TYPES.TaggedTemplateExpression) {
    return {
      text: value.quasi.quasis.map((quasi) => quasi.value.cooked ?? quasi.value.raw),
      holes: value.quasi.expressions.map((expression) => (expression.type === AST_NODE_TYPES.MemberExpression ? getStaticPropertyName(expression) : undefined)),
    };
  }
  if (value.type === AST_NODE_TYPES.CallExpression && value.callee.type === AST_NODE_TYPES.MemberExpression && getStaticPropertyName(value.callee) === 'raw') {
    const text = followString(sourceCode, value.arguments[0], env);
    return text === undefined ? undefined : { text: [text], holes: [] };
  }
  if (isFunctionNode(value)) {
    const [returned] = getReturnedExpressions(value, sourceCode);
    const text = followString(sourceCode, returned, env);
    return text === undefined ? undefined : { text: [text], holes: [] };
  }
  return undefined;
}

/** The static parts of a string written as a literal, a template or a `const`; holes split it. */
export function followParts(sourceCode: SourceCode, node: TSESTree.Node, env: Env): readonly string[] | undefined {
  const found = follow(sourceCode, node, env).node;
  if (found.type === AST_NODE_TYPES.TemplateLiteral) return found.quasis.map((quasi) => quasi.value.cooked ?? quasi.value.raw);
  const text = followString(sourceCode, found, env);
  return text === undefined ? undefined : [text];
}

/** DynamoDB: `ADD`, `#n = #n + :v`, `list_append(...)` are relative; other `SET` / `REMOVE` / `DELETE` clauses absolute. */
function readUpdateExpression(parts: readonly string[] | undefined): DataReading | undefined {
  if (!parts) return undefined;
  const text = parts.join(' ');
  if (/\bADD\s/i.test(text)) return { kind: 'relative', operator: 'ADD', shown: 'ADD' };
  if (/list_append\s*\(/i.test(text)) return { kind: 'relative', operator: 'list_append', shown: 'list_append' };
  for (const assignment of text.replace(/^[\s\S]*?\bSET\b/i, '').split(/,|\b(?:REMOVE|DELETE)\b/i)) {
    const [target, value] = assignment.split('=');
    const name = target?.trim();
    if (!name || value === undefined) continue;
    if (ARITHMETIC.test(value) && new RegExp(`(^|[^\\w#])${escape(name)}\\b`).test(value)) {
      return { kind: 'relative', column: name, operator: value.match(ARITHMETIC)?.[0], shown: `${name} =${value.trim() ? ` ${value.trim()}` : ''}` };
    }
  }
  return { kind: 'absolute' };
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\#]/g, '\\$&');
}
