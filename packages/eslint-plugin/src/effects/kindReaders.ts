import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import { normalizeModuleName, resolveReference } from '../ast/index.js';
import { codeSpan, findProperty } from '../ast/index.js';
import { matchOperation } from './callPatterns.js';
import type { EffectChange, EffectCommand, EffectKind, EffectLibrary, KeySlot, KindSource } from './libraries/index.js';
import { classifySql } from '../sql/index.js';
import { followParts, readUpdateData } from './updateData.js';
import { type Env, follow, followObject, followString } from './values.js';

// The readers a catalogue operation's `from` names: each looks at the call's arguments and says
// what kind the operation is, with what the messages show. A reader that cannot see its input
// returns nothing, and the operation keeps the kind its name gives it.

type SourceCode = Readonly<TSESLint.SourceCode>;
type Invocation = TSESTree.CallExpression | TSESTree.NewExpression | TSESTree.TaggedTemplateExpression;

/** What a reader found: one reading per statement for SQL, one otherwise. */
export interface Reading {
  readonly kind: EffectKind;
  /** What to show for the operation instead of the callee: the statement, `POST`, the command. */
  readonly text?: string | undefined;
  /** Shown after the operation: `with \`points: { increment }\``. */
  readonly detail?: string | undefined;
  readonly change?: EffectChange | undefined;
  /** Where a command reader found a key slot, and the node whose arguments it applies to. */
  readonly key?: { readonly slot: KeySlot; readonly node: TSESTree.NewExpression } | undefined;
  readonly does?: string | undefined;
  readonly additive?: boolean | undefined;
  /** An absolute SQL statement's column changed relatively under its WHERE's guard (SqlStatement#guarded). */
  readonly guarded?: string | undefined;
}

const HTTP_KINDS: Readonly<Record<string, EffectKind>> = {
  GET: 'read', HEAD: 'read', OPTIONS: 'read', PUT: 'absolute', DELETE: 'absolute', POST: 'create', PATCH: 'write',
};

/** The arguments of a call or `new`; a tagged template's template is its argument 0. */
export function argumentsOf(node: Invocation): readonly TSESTree.Node[] {
  return node.type === AST_NODE_TYPES.TaggedTemplateExpression ? [node.quasi] : node.arguments;
}

export function readKind(sourceCode: SourceCode, source: KindSource, node: Invocation, env: Env, library: EffectLibrary): readonly Reading[] | undefined {
  const args = argumentsOf(node);
  switch (source.from) {
    case 'sql':
      return readSql(sourceCode, args[source.argument], env);
    case 'http':
      return wrap(readHttp(sourceCode, source, args, env));
    case 'graphql': {
      const text = followParts(sourceCode, args[source.argument] ?? node, env)?.join(' ').trim();
      if (text === undefined) return undefined;
      return [{ kind: /^(#[^\n]*\n\s*)*mutation\b/.test(text) ? 'write' : 'read' }];
    }
    case 'command':
      return wrap(readCommand(sourceCode, args[source.argument], env, library));
    case 'update': {
      const data = readData(sourceCode, args[source.argument], source.property, env, source.style);
      return data && [data];
    }
    case 'upsert':
      return wrap(readUpsert(sourceCode, source, args, env));
  }
}

function wrap(reading: Reading | undefined): readonly Reading[] | undefined {
  return reading && [reading];
}

/** SQL text: a literal, a template (tagged or not), a `const`, `'a' + b`, or `{ text }` / `{ sql }` / `{ query }`. */
export function readSql(sourceCode: SourceCode, node: TSESTree.Node | undefined, env: Env): readonly Reading[] | undefined {
  const text = sqlText(sourceCode, node, env);
  const statements = text && classifySql(text.parts, text.holes);
  return statements?.map((statement) => ({
    kind: statement.kind,
    text: statement.summary,
    change: statement.change,
    does: statement.kind === 'create' ? `inserts into ${statement.table === undefined ? '`a table`' : codeSpan(statement.table)}` : undefined,
    additive: statement.verb === 'CREATE',
    guarded: statement.guarded,
  }));
}

function sqlText(sourceCode: SourceCode, node: TSESTree.Node | undefined, env: Env, depth = 0): { parts: string[]; holes: string[] } | undefined {
  if (!node || depth > 4) return undefined;
  const found = follow(sourceCode, node, env);
  const value = found.node;
  if (value.type === AST_NODE_TYPES.TaggedTemplateExpression) return sqlText(sourceCode, value.quasi, found.env, depth + 1);
  if (value.type === AST_NODE_TYPES.TemplateLiteral) {
    return {
      parts: value.quasis.map((quasi) => quasi.value.cooked ?? quasi.value.raw),
      holes: value.expressions.map((expression) => {
        const text = sourceCode.getText(expression).replace(/\s+/g, ' ');
        return text.length > 24 ? '${…}' : `\${${text}}`;
      }),
    };
  }
  if (value.type === AST_NODE_TYPES.BinaryExpression && value.operator === '+') {
    const left = sqlText(sourceCode, value.left, found.env, depth + 1) ?? { parts: ['', ''], holes: ['${…}'] };
    const right = sqlText(sourceCode, value.right, found.env, depth + 1) ?? { parts: ['', ''], holes: ['${…}'] };
    const joined = [...left.parts.slice(0, -1), `${left.parts.at(-1) ?? ''}${right.parts[0] ?? ''}`, ...right.parts.slice(1)];
    return { parts: joined, holes: [...left.holes, ...right.holes] };
  }
  if (value.type === AST_NODE_TYPES.ObjectExpression) {
    const property = ['text', 'sql', 'query'].map((name) => findProperty(value, name)).find(Boolean);
    return property ? sqlText(sourceCode, property.value, found.env, depth + 1) : undefined;
  }
  const text = followString(sourceCode, value, found.env);
  return text === undefined ? undefined : { parts: [text], holes: [] };
}

function readHttp(sourceCode: SourceCode, source: Extract<KindSource, { from: 'http' }>, args: readonly TSESTree.Node[], env: Env): Reading | undefined {
  let method = source.method;
  if (method === undefined && source.route !== undefined) {
    method = followString(sourceCode, args[source.route], env)?.match(/^([A-Z]+)\s/)?.[1];
  }
  if (method === undefined && source.config !== undefined) {
    // `axios(url, config)` as well as `axios(config)`: the config is the first object given.
    let config = args[source.config];
    if (config && !followObject(sourceCode, config, env) && followObject(sourceCode, args[source.config + 1], env)) config = args[source.config + 1];
    if (!config) method = source.defaultMethod;
    else {
      const object = followObject(sourceCode, config, env);
      if (!object) return undefined;
      const property = findProperty(object.node, 'method');
      const spreads = object.node.properties.some((candidate) => candidate.type === AST_NODE_TYPES.SpreadElement);
      method = property ? followString(sourceCode, property.value, object.env)?.toUpperCase() : spreads ? undefined : source.defaultMethod;
    }
  }
  const kind = method === undefined ? undefined : HTTP_KINDS[method.toUpperCase()];
  return kind && { kind, detail: method === undefined ? undefined : `(${method.toUpperCase()})` };
}

/** `new SendEmailCommand(input)` among the library's commands, or a command name (`'INCR'`, `['INCR', key]`). */
function readCommand(sourceCode: SourceCode, node: TSESTree.Node | undefined, env: Env, library: EffectLibrary): Reading | undefined {
  if (!node) return undefined;
  const found = follow(sourceCode, node, env);
  if (found.node.type === AST_NODE_TYPES.NewExpression) {
    const command = findCommand(sourceCode, found.node, library);
    if (!command) return undefined;
    const refined = command.from && readKind(sourceCode, command.from, found.node, found.env, library)?.[0];
    return {
      kind: refined?.kind ?? command.kind,
      text: command.name,
      detail: refined?.detail,
      change: refined?.change,
      key: command.key ? { slot: command.key, node: found.node } : undefined,
      does: command.does,
    };
  }
  const first = found.node.type === AST_NODE_TYPES.ArrayExpression ? found.node.elements[0] : found.node;
  const name = first && first.type !== AST_NODE_TYPES.SpreadElement ? followString(sourceCode, first, found.env) : undefined;
  const match = name === undefined ? undefined : matchOperation(library, [name]);
  return match?.operation.kind && match.length === 1 ? { kind: match.operation.kind, text: name?.toUpperCase() } : undefined;
}

function findCommand(sourceCode: SourceCode, node: TSESTree.NewExpression, library: EffectLibrary): EffectCommand | undefined {
  const reference = resolveReference(sourceCode, node.callee);
  if (!reference || !library.modules.includes(normalizeModuleName(reference.source))) return undefined;
  const name = reference.path.at(-1);
  return library.commands?.find((command) => command.name === name);
}

function readData(
  sourceCode: SourceCode,
  node: TSESTree.Node | undefined,
  property: string | undefined,
  env: Env,
  style: Extract<KindSource, { from: 'update' }>['style'],
): Reading | undefined {
  let target: { node: TSESTree.Node | undefined; env: Env } = { node, env };
  if (property !== undefined) {
    const object = followObject(sourceCode, node, env);
    if (!object) return undefined;
    target = { node: findProperty(object.node, property)?.value, env: object.env };
    if (!target.node) return undefined;
  }
  const data = readUpdateData(sourceCode, target.node, target.env, style);
  if (!data) return undefined;
  return { kind: data.kind, detail: data.shown === undefined ? undefined : `with ${codeSpan(data.shown)}`, change: { column: data.column, operator: data.operator } };
}

function readUpsert(sourceCode: SourceCode, source: Extract<KindSource, { from: 'upsert' }>, args: readonly TSESTree.Node[], env: Env): Reading | undefined {
  const node = args[source.argument];
  const object = node && followObject(sourceCode, node, env);
  const targeted = source.target === true || (typeof source.target === 'string' && object !== undefined && findProperty(object.node, source.target) !== undefined);
  if (!node && source.set === undefined) return { kind: targeted ? 'absolute' : 'write' };
  if (source.set === undefined) return { kind: targeted ? 'absolute' : 'write' };
  const values = readData(sourceCode, node, source.set, env, source.style);
  if (values?.kind === 'relative') return values;
  if (!values) return undefined;
  return { kind: targeted && values.kind === 'absolute' ? 'absolute' : 'write' };
}
