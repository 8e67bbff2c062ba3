import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import {
  findProperty,
  getPropertyKeyName,
  getStaticPropertyName,
  hasSpread,
  resolveConst,
  resolveObject,
  staticString,
} from '../ast/index.js';

type SourceCode = Readonly<TSESLint.SourceCode>;

const MAX_SCHEMA_DEPTH = 8;
/** Schema builders whose first argument is the shape: `z.object`, `Type.Object`, `z.strictObject`. */
const OBJECT_BUILDERS = new Set(['object', 'Object', 'strictObject']);
/** Methods that add the fields of their argument to the receiver's. */
const MERGING_METHODS = new Set(['extend', 'merge']);

/**
 * The field names of an input schema: a zod raw shape, `z.object({...})` (with `.strict()` and the
 * like), JSON Schema `{ type: 'object', properties }`, `zodToJsonSchema(x)`, or a `const` holding
 * one. `undefined` when the fields are not statically visible.
 */
export function getInputFieldNames(
  sourceCode: SourceCode,
  schema: TSESTree.Node | undefined,
  depth = 0,
): string[] | undefined {
  if (!schema || depth > MAX_SCHEMA_DEPTH) return undefined;
  const value = resolveConst(sourceCode, schema);
  if (value.type === AST_NODE_TYPES.ObjectExpression) return objectSchemaFieldNames(sourceCode, value);
  if (value.type === AST_NODE_TYPES.CallExpression) return builtSchemaFieldNames(sourceCode, value, depth);
  return undefined;
}

/** A raw shape `{ a: z.string() }`, or JSON Schema `{ type: 'object', properties: {...} }`. */
function objectSchemaFieldNames(sourceCode: SourceCode, value: TSESTree.ObjectExpression): string[] | undefined {
  const properties = findProperty(value, 'properties');
  const isObjectSchema = staticString(sourceCode, findProperty(value, 'type')?.value) === 'object';
  if (isObjectSchema && !properties) return [];
  const isJsonSchema = isObjectSchema || !!findProperty(value, 'required');
  const shape = isJsonSchema ? resolveObject(sourceCode, properties?.value) : value;
  if (!shape || hasSpread(shape)) return undefined;
  const names = shape.properties.map((p) => (p.type === AST_NODE_TYPES.Property ? (getPropertyKeyName(p) ?? '') : ''));
  return names.map((name) => name.replace(/\?$/, '')); // arktype spells an optional key `name?`
}

/** `z.object(shape)`, `base.extend(shape)`, `schema.strict()`, `zodToJsonSchema(schema)`, `z.toJSONSchema(schema)`. */
function builtSchemaFieldNames(sourceCode: SourceCode, value: TSESTree.CallExpression, depth: number): string[] | undefined {
  const [first] = value.arguments;
  if (value.callee.type !== AST_NODE_TYPES.MemberExpression) return getInputFieldNames(sourceCode, first, depth + 1);
  const method = getStaticPropertyName(value.callee);
  if (method !== undefined && OBJECT_BUILDERS.has(method)) return getInputFieldNames(sourceCode, first, depth + 1);
  const base = getInputFieldNames(sourceCode, value.callee.object, depth + 1);
  if (method !== undefined && MERGING_METHODS.has(method)) {
    const extra = getInputFieldNames(sourceCode, first, depth + 1);
    return base && extra && [...base, ...extra];
  }
  return base ?? (method === 'toJSONSchema' ? getInputFieldNames(sourceCode, first, depth + 1) : undefined);
}
