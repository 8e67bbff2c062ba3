import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES, ASTUtils } from '@typescript-eslint/utils';

import {
  getPropertyKeyName,
  getReturnedExpressions,
  getStaticPropertyName,
  getSpecExportName,
  GLOBAL_SOURCE,
  isSpecKeyCallee,
  resolveLocalFunction,
  resolveReference,
} from '../ast/index.js';
import { getEngineKeys } from './durableEngines.js';
import { isKeyFamilyName, type KeyNameMatcher } from './keyNames.js';

/** Where in the code a key position is. */
export type KeyPositionKind =
  /** `{ idempotencyKey: v }`, `{ 'Idempotency-Key': v }`, `new Headers({ ... })` */
  | 'property'
  /** `class C { idempotencyKey = v }` */
  | 'classField'
  /** `opts.idempotencyKey = v`, `headers['webhook-id'] = v` */
  | 'memberAssignment'
  /** `headers.set('Idempotency-Key', v)`, `.append`, `.setHeader`, `.setRequestHeader` */
  | 'headerCall'
  /** `new Headers([['Idempotency-Key', v]])` */
  | 'headerEntry'
  /** every argument of `key\`...\`` / `key(...)` and `vouchDurable(...)` from `@retrysafe/spec` */
  | 'specKey'
  /** what the `key` function of `defineTool({ ..., key })` from `@retrysafe/spec` returns */
  | 'toolKey'
  /** the id of an outgoing event or message envelope: `{ eventId, type, data }`, `{ id: msg.id ?? randomUUID(), role, content }` */
  | 'envelopeId'
  /** a call of a helper of the file whose name says it makes a key: `generateIdempotencyKey()` */
  | 'keyHelper'
  /** an id a durable-execution engine dedupes or memoises on: `step.run(id, ...)`, `workflowId`, `jobId` (keys/durableEngines.ts) */
  | 'engineKey';

/** A place whose value becomes a deduplication key (a sink). */
export interface KeyPosition {
  readonly kind: KeyPositionKind;
  /** The key name as configured (`'Idempotency-Key'`), or `key` / `vouchDurable` for the spec's constructors. */
  readonly keyName: string;
  /** The expression whose value becomes the key: what to trace and where to report. */
  readonly value: TSESTree.Expression;
}

/** What {@link getKeyPositions} needs: the file and the key names in force. */
export interface KeyPositionContext {
  readonly sourceCode: Readonly<TSESLint.SourceCode>;
  readonly matchKeyName: KeyNameMatcher;
}

/** The node types that can hold a key position; a rule listens to these and calls {@link getKeyPositions}. */
export const KEY_POSITION_NODE_TYPES = [
  AST_NODE_TYPES.AssignmentExpression,
  AST_NODE_TYPES.CallExpression,
  AST_NODE_TYPES.NewExpression,
  AST_NODE_TYPES.Property,
  AST_NODE_TYPES.PropertyDefinition,
  AST_NODE_TYPES.TaggedTemplateExpression,
] as const;

const HEADER_SETTERS = new Set(['append', 'header', 'set', 'setHeader', 'setRequestHeader']);
const ASSIGNMENT_OPERATORS = new Set(['=', '??=', '||=']);

/**
 * The key positions `node` creates, if it is one of {@link KEY_POSITION_NODE_TYPES}; `[]` otherwise.
 * A position whose value is a function (`idempotencyKey: () => ...`) yields what the function returns.
 */
export function getKeyPositions(node: TSESTree.Node, context: KeyPositionContext): KeyPosition[] {
  const positions = getDirectKeyPositions(node, context);
  // Almost every node has none: return the empty array rather than copy it.
  if (positions.length === 0) return positions;
  return positions
    .flatMap((position) => expandFunctionValue(position, context.sourceCode))
    .filter((position) => !(position.kind === 'toolKey' && isSpecKeyConstruction(position.value, context)));
}

/**
 * `key\`...\``, `key(...)` or `vouchDurable(...)` from `@retrysafe/spec`: a tool's `key` function that
 * returns one is judged by its parts (each a `specKey` position), so a report lands on the part at
 * fault (`randomUUID()`), not on the whole template. A template with no part (`` key`refund` ``) has
 * none to judge: it stays the whole key, one constant for every call (keys/findConstantKey).
 */
function isSpecKeyConstruction(node: TSESTree.Expression, context: KeyPositionContext): boolean {
  if (node.type === AST_NODE_TYPES.TaggedTemplateExpression) return node.quasi.expressions.length > 0 && isSpecKeyCallee(context.sourceCode, node.tag);
  return node.type === AST_NODE_TYPES.CallExpression && isSpecKeyCallee(context.sourceCode, node.callee);
}

/**
 * The key position that `expression` fills, if any: `expression` is the value of a key property, the
 * right side of a key assignment, the value argument of a header setter, or an argument of the
 * spec's key constructors. Use it to ask "is this value used as a key?" from the value's side.
 */
export function getKeyPositionOf(expression: TSESTree.Node, context: KeyPositionContext): KeyPosition | undefined {
  // The container is the parent, or two or three levels up for templates and header entries.
  for (let container = expression.parent, level = 0; container && level < 3; container = container.parent, level++) {
    const position = getDirectKeyPositions(container, context).find((candidate) => candidate.value === expression);
    if (position) return position;
  }
  return undefined;
}

function getDirectKeyPositions(node: TSESTree.Node, context: KeyPositionContext): KeyPosition[] {
  switch (node.type) {
    case AST_NODE_TYPES.Property:
      return getPropertyPosition(node, context);
    case AST_NODE_TYPES.PropertyDefinition:
      return getClassFieldPosition(node, context);
    case AST_NODE_TYPES.AssignmentExpression:
      return getAssignmentPosition(node, context);
    case AST_NODE_TYPES.CallExpression: {
      const header = getHeaderCallPosition(node, context);
      const spec = getSpecCallPositions(node, context);
      const helper = getKeyHelperPosition(node, context);
      if (helper) return [helper];
      const engine = getEngineKeys(node, context.sourceCode);
      if (engine.length > 0) return [...header, ...engine.map((found): KeyPosition => ({ kind: 'engineKey', keyName: found.name, value: found.value }))];
      return spec.length === 0 ? header : header.length === 0 ? spec : [...header, ...spec];
    }
    case AST_NODE_TYPES.NewExpression:
      return getHeaderEntryPositions(node, context);
    case AST_NODE_TYPES.TaggedTemplateExpression:
      return getSpecExportName(context.sourceCode, node.tag) === 'key'
        ? node.quasi.expressions.map((value) => ({ kind: 'specKey', keyName: 'key', value }))
        : [];
    default:
      return [];
  }
}

function getPropertyPosition(node: TSESTree.Property, context: KeyPositionContext): KeyPosition[] {
  if (node.parent.type !== AST_NODE_TYPES.ObjectExpression || node.kind !== 'init') return [];
  const name = getPropertyKeyName(node, context.sourceCode);
  if (name === 'key' && isDefineToolConfig(node.parent, context)) {
    return [{ kind: 'toolKey', keyName: 'key', value: node.value as TSESTree.Expression }];
  }
  const keyName = matchName(name, context);
  if (keyName !== undefined) return [{ kind: 'property', keyName, value: node.value as TSESTree.Expression }];
  return name !== undefined && isEnvelopeId(name, node, context.sourceCode) ? [{ kind: 'envelopeId', keyName: name, value: node.value as TSESTree.Expression }] : [];
}

/** The id fields of an event or message envelope, which its receivers dedupe on. */
const ENVELOPE_EVENT_IDS = new Set(['eventId', 'event_id', 'messageId', 'message_id']);
/** What an event envelope carries besides its id: a type or name, and its data. */
const ENVELOPE_TYPE_FIELDS = new Set(['type', 'name', 'event', 'eventType', 'event_type', 'topic']);
const ENVELOPE_DATA_FIELDS = new Set(['data', 'payload', 'detail', 'body']);

/**
 * `{ eventId, type, data }`, `{ messageId, role, content }`: the id of an outgoing event or chat
 * message envelope, which the receiver (a webhook consumer, an event bus, a chat store) dedupes on.
 * A plain `id` counts only where it falls back to something (`message.id ?? randomUUID()`): an `id`
 * minted when the message is first made is its identity, read back from state on a resend; a
 * fallback mints a new one on every send of a message that came without one.
 */
function isEnvelopeId(name: string, node: TSESTree.Property, sourceCode: Readonly<TSESLint.SourceCode>): boolean {
  const isId = name === 'id';
  if (!isId && !ENVELOPE_EVENT_IDS.has(name)) return false;
  if (isId && !isFallback(node.value)) return false;
  const names = new Set<string>();
  for (const property of (node.parent as TSESTree.ObjectExpression).properties) {
    if (property.type === AST_NODE_TYPES.Property) {
      const key = getPropertyKeyName(property, sourceCode);
      if (key !== undefined) names.add(key);
    }
  }
  const has = (fields: ReadonlySet<string>): boolean => [...fields].some((field) => names.has(field));
  const event = has(ENVELOPE_TYPE_FIELDS) && has(ENVELOPE_DATA_FIELDS);
  const chat = names.has('role') && (names.has('content') || names.has('parts'));
  return event || chat;
}

function isFallback(value: TSESTree.Node): boolean {
  return (value.type === AST_NODE_TYPES.LogicalExpression && value.operator !== '&&') || value.type === AST_NODE_TYPES.AssignmentPattern;
}

/**
 * `generateIdempotencyKey()`, `this.newDedupKey()`: a call of a helper of this file whose name is of
 * the key family ({@link isKeyFamilyName}). What it returns is a key wherever it is used (passed
 * positionally, stored in a variable of any name), so the call itself is a key position.
 */
function getKeyHelperPosition(node: TSESTree.CallExpression, context: KeyPositionContext): KeyPosition | undefined {
  const callee = node.callee;
  const name =
    callee.type === AST_NODE_TYPES.Identifier ? callee.name
    : callee.type === AST_NODE_TYPES.MemberExpression && callee.object.type === AST_NODE_TYPES.ThisExpression ? getStaticPropertyName(callee)
    : undefined;
  if (name === undefined || !isKeyFamilyName(name)) return undefined;
  if (callee.type === AST_NODE_TYPES.Identifier && !resolveLocalFunction(callee, context.sourceCode)) return undefined;
  return { kind: 'keyHelper', keyName: name, value: node };
}

/**
 * `defineTool({ ... })` from `@retrysafe/spec`: its `key` function makes the tool's idempotency key.
 * In TypeScript the brands reject a random key at compile time; in JavaScript (or past an `as any`)
 * only this position catches it, and the runner cannot (a random key just never replays).
 */
function isDefineToolConfig(object: TSESTree.ObjectExpression, context: KeyPositionContext): boolean {
  if (isDefineToolArgument(object, context)) return true;
  // `const config = { ... }; defineTool(config)`
  const declarator = object.parent;
  if (declarator?.type !== AST_NODE_TYPES.VariableDeclarator || declarator.init !== object) return false;
  return context.sourceCode
    .getDeclaredVariables(declarator)
    .some((variable) => variable.references.some((reference) => isDefineToolArgument(reference.identifier, context)));
}

function isDefineToolArgument(node: TSESTree.Node, context: KeyPositionContext): boolean {
  const call = node.parent;
  return call?.type === AST_NODE_TYPES.CallExpression && call.arguments[0] === node && getSpecExportName(context.sourceCode, call.callee) === 'defineTool';
}

function getClassFieldPosition(node: TSESTree.PropertyDefinition, context: KeyPositionContext): KeyPosition[] {
  const keyName = matchName(getPropertyKeyName(node, context.sourceCode), context);
  return keyName === undefined || !node.value ? [] : [{ kind: 'classField', keyName, value: node.value }];
}

function getAssignmentPosition(node: TSESTree.AssignmentExpression, context: KeyPositionContext): KeyPosition[] {
  if (!ASSIGNMENT_OPERATORS.has(node.operator) || node.left.type !== AST_NODE_TYPES.MemberExpression) return [];
  const keyName = matchName(getMemberName(node.left, context.sourceCode), context);
  return keyName === undefined ? [] : [{ kind: 'memberAssignment', keyName, value: node.right }];
}

function getHeaderCallPosition(node: TSESTree.CallExpression, context: KeyPositionContext): KeyPosition[] {
  const callee = node.callee;
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return [];
  const method = getStaticPropertyName(callee);
  const [name, value] = node.arguments;
  if (method === undefined || !HEADER_SETTERS.has(method) || !name || !value || value.type === AST_NODE_TYPES.SpreadElement) return [];
  const keyName = matchName(getStringValue(name, context.sourceCode), context);
  return keyName === undefined ? [] : [{ kind: 'headerCall', keyName, value }];
}

function getSpecCallPositions(node: TSESTree.CallExpression, context: KeyPositionContext): KeyPosition[] {
  const exported = getSpecExportName(context.sourceCode, node.callee);
  const keyName = exported === 'key' || exported === 'vouchDurable' ? exported : undefined;
  if (keyName === undefined) return [];
  return node.arguments.flatMap((value) =>
    value.type === AST_NODE_TYPES.SpreadElement ? [] : [{ kind: 'specKey' as const, keyName, value }],
  );
}

/** `new Headers([['Idempotency-Key', v]])`: the object form is covered by {@link getPropertyPosition}. */
function getHeaderEntryPositions(node: TSESTree.NewExpression, context: KeyPositionContext): KeyPosition[] {
  const [entries] = node.arguments;
  // Cheap tests first: this runs on every `new` in every file, and the scope lookup does not.
  if (entries?.type !== AST_NODE_TYPES.ArrayExpression) return [];
  if (node.callee.type !== AST_NODE_TYPES.Identifier || node.callee.name !== 'Headers') return [];
  const reference = resolveReference(context.sourceCode, node.callee);
  if (reference?.source !== GLOBAL_SOURCE || reference.path.join('.') !== 'Headers') return [];
  return entries.elements.flatMap((entry): KeyPosition[] => {
    if (entry?.type !== AST_NODE_TYPES.ArrayExpression) return [];
    const [name, value] = entry.elements;
    if (!name || !value || value.type === AST_NODE_TYPES.SpreadElement) return [];
    const keyName = matchName(getStringValue(name, context.sourceCode), context);
    return keyName === undefined ? [] : [{ kind: 'headerEntry', keyName, value }];
  });
}

/** A function written in place or named (`key: makeKey`, a local function or `const` arrow): what it returns. */
function expandFunctionValue(position: KeyPosition, sourceCode: Readonly<TSESLint.SourceCode>): KeyPosition[] {
  const fn = resolveLocalFunction(position.value, sourceCode);
  if (!fn) return [position];
  return getReturnedExpressions(fn, sourceCode).map((returned) => ({ ...position, value: returned }));
}

/** The name `node` has among `@retrysafe/spec`'s exports (`key`, `vouchDurable`), if it is one. */
function matchName(name: string | undefined, context: KeyPositionContext): string | undefined {
  return name === undefined ? undefined : context.matchKeyName(name);
}

/** `a.b`, `a['b']`, and `a[NAME]` with a constant `NAME`. */
function getMemberName(node: TSESTree.MemberExpression, sourceCode: Readonly<TSESLint.SourceCode>): string | undefined {
  return getStaticPropertyName(node) ?? (node.computed ? getStringValue(node.property, sourceCode) : undefined);
}

function getStringValue(node: TSESTree.Node, sourceCode: Readonly<TSESLint.SourceCode>): string | undefined {
  const value = ASTUtils.getStaticValue(node, sourceCode.getScope(node))?.value;
  return typeof value === 'string' ? value : undefined;
}
