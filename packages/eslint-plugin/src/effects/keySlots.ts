import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import { type KeyedProviderCall } from './keyedProviders.js';
import { findPassedKey } from './passedKeys.js';
import type { KeyNameMatcher } from '../keys/index.js';
import { findProperty, getPropertyKeyName, resolveConst, resolveObject, staticString } from '../ast/index.js';
import { KEY_HONOURING_HOSTS, type KeySlot } from './libraries/index.js';
import { argumentsOf } from './kindReaders.js';
import { type Env, followObject } from './values.js';

// Whether a call passes the deduplication key its provider reads: yes, no (left out, or the
// provider takes none), or not visible (the options are built elsewhere, spread, or a parameter).

type SourceCode = Readonly<TSESLint.SourceCode>;
type Invocation = TSESTree.CallExpression | TSESTree.NewExpression | TSESTree.TaggedTemplateExpression;

/** Whether a create passes its deduplication key. */
export type KeyPassed = 'no' | 'unknown' | 'yes';

export function findKeyPassed(
  sourceCode: SourceCode,
  slot: KeySlot,
  node: Invocation,
  env: Env,
  matchKeyName: KeyNameMatcher,
): KeyPassed {
  if (slot === 'none') return 'no';
  if (node.type === AST_NODE_TYPES.TaggedTemplateExpression) return 'unknown';
  if ('header' in slot) return fromHeaders(sourceCode, slot, node, matchKeyName);
  const args = argumentsOf(node);
  const index = slot.argument ?? 1;
  const candidates = slot.optionsAnywhere ? args.map((_, position) => position) : [index];
  const names = typeof slot.property === 'string' ? [slot.property] : slot.property;
  let unknown = false;
  for (const position of candidates) {
    const argument = args[position];
    if (!argument) continue;
    if (argument.type === AST_NODE_TYPES.SpreadElement) return 'unknown';
    const found = passesIn(sourceCode, argument, env, names);
    if (found === 'yes') return 'yes';
    if (found === 'unknown' && (position === index || !slot.optionsAnywhere)) unknown = true;
  }
  return unknown ? 'unknown' : 'no';
}

/** The key in one argument: an object with one of `names` (a dotted path for nested ones), or an array of such. */
function passesIn(sourceCode: SourceCode, node: TSESTree.Node, env: Env, names: readonly string[]): KeyPassed {
  const object = followObject(sourceCode, node, env);
  if (!object) {
    const array = skipToArray(node);
    if (!array) return 'unknown';
    const verdicts = array.elements.map((element) => (element && element.type !== AST_NODE_TYPES.SpreadElement ? passesIn(sourceCode, element, env, names) : 'unknown'));
    if (verdicts.length > 0 && verdicts.every((verdict) => verdict === 'yes')) return 'yes';
    return verdicts.includes('no') ? 'no' : 'unknown';
  }
  let verdict: KeyPassed = 'no';
  for (const name of names) {
    const [first, ...rest] = name.split('.');
    const property = first === undefined ? undefined : findProperty(object.node, first);
    if (property && rest.length === 0) return 'yes';
    if (property) {
      const inner = passesIn(sourceCode, property.value, object.env, [rest.join('.')]);
      if (inner === 'yes') return 'yes';
      if (inner === 'unknown') verdict = 'unknown';
    }
  }
  const spreads = object.node.properties.some((property) => property.type === AST_NODE_TYPES.SpreadElement);
  return spreads ? 'unknown' : verdict;
}

function skipToArray(node: TSESTree.Node): TSESTree.ArrayExpression | undefined {
  return node.type === AST_NODE_TYPES.ArrayExpression ? node : undefined;
}

/**
 * The header a request sends its key in, as written, and the request's URL as written: for a
 * create through a generic HTTP client that passes its key ({@link findKeyPassed} says `yes`), so a
 * message can name what the code shows (the key is sent) apart from what it does not (whether the
 * server deduplicates by it). `undefined` when the key is not found in a header.
 */
export function findSentKey(
  sourceCode: SourceCode,
  slot: Extract<KeySlot, { header: string }>,
  node: Invocation,
  matchKeyName: KeyNameMatcher,
): { readonly header: string; readonly url: string | undefined; readonly honouredBy?: string } | undefined {
  if (node.type === AST_NODE_TYPES.TaggedTemplateExpression) return undefined;
  const passed = findPassedKey(headerCall(slot, node), sourceCode, matchKeyName);
  if (passed.kind !== 'passed') return undefined;
  const url = requestUrlNode(sourceCode, node, slot.argument ?? 1);
  const honouredBy = url && KEY_HONOURING_HOSTS[hostOf(sourceCode, url) ?? ''];
  return { header: headerNameOf(sourceCode, passed.value) ?? slot.header, url: url && urlText(sourceCode, url), ...(honouredBy ? { honouredBy } : {}) };
}

/** The host a URL is written with: a static string's, or a template's whose text up to its first hole names it. */
function hostOf(sourceCode: SourceCode, url: TSESTree.Node): string | undefined {
  const written = staticString(sourceCode, url) ?? (url.type === AST_NODE_TYPES.TemplateLiteral ? url.quasis[0]?.value.cooked : undefined);
  const match = written?.match(/^https:\/\/([^/?#:]+)[/?#]/);
  return match?.[1]?.toLowerCase();
}

/** The name a header value is set under: `{ 'Idempotency-Key': v }`, `headers.set(name, v)`, `[[name, v]]`, `headers[name] = v`. */
function headerNameOf(sourceCode: SourceCode, value: TSESTree.Node): string | undefined {
  const parent = value.parent;
  if (parent?.type === AST_NODE_TYPES.Property && parent.value === value) return getPropertyKeyName(parent, sourceCode);
  if (parent?.type === AST_NODE_TYPES.CallExpression) return staticString(sourceCode, parent.arguments[0]);
  if (parent?.type === AST_NODE_TYPES.ArrayExpression) {
    const index = parent.elements.indexOf(value as TSESTree.Expression);
    const name = index > 0 ? parent.elements[index - 1] : undefined;
    return name && name.type !== AST_NODE_TYPES.SpreadElement ? staticString(sourceCode, name) : undefined;
  }
  if (parent?.type === AST_NODE_TYPES.AssignmentExpression && parent.left.type === AST_NODE_TYPES.MemberExpression) {
    return parent.left.computed ? staticString(sourceCode, parent.left.property) : parent.left.property.type === AST_NODE_TYPES.Identifier ? parent.left.property.name : undefined;
  }
  return undefined;
}

/**
 * The URL a request names: the argument before its config (`fetch(url, init)`, `axios.post(url,
 * data, config)`), the first argument of a `new Request(url, ...)` given instead, or the `url` of a
 * config given alone (`axios({ url, method })`).
 */
function requestUrlNode(sourceCode: SourceCode, node: TSESTree.CallExpression | TSESTree.NewExpression, configIndex: number): TSESTree.Node | undefined {
  const [first] = node.arguments;
  if (!first || first.type === AST_NODE_TYPES.SpreadElement) return undefined;
  const config = configIndex === 0 ? resolveObject(sourceCode, first) : undefined;
  const resolved = resolveConst(sourceCode, first);
  const url =
    config ? findProperty(config, 'url')?.value
    : resolved.type === AST_NODE_TYPES.NewExpression ? resolved.arguments[0]
    : resolved.type === AST_NODE_TYPES.ObjectExpression ? findProperty(resolved, 'url')?.value
    : first;
  return url && url.type !== AST_NODE_TYPES.SpreadElement ? resolveConst(sourceCode, url) : undefined;
}

/** A URL as written: a string's value, else its expression, cut to 60 characters. */
function urlText(sourceCode: SourceCode, url: TSESTree.Node): string {
  const text = staticString(sourceCode, url) ?? sourceCode.getText(url).replace(/\s+/g, ' ');
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function headerCall(slot: Extract<KeySlot, { header: string }>, node: TSESTree.CallExpression | TSESTree.NewExpression): KeyedProviderCall {
  return {
    node: node as TSESTree.CallExpression,
    provider: 'custom',
    carrier: { kind: 'header', header: slot.header, method: 'POST' },
    target: node,
    argument: slot.argument ?? 1,
    filler: 'undefined',
    keyInAnyArgument: false,
  };
}

/** A header key, read the way require-key-passthrough reads one (headers objects, `new Headers`, `headers.set`). */
function fromHeaders(
  sourceCode: SourceCode,
  slot: Extract<KeySlot, { header: string }>,
  node: TSESTree.CallExpression | TSESTree.NewExpression,
  matchKeyName: KeyNameMatcher,
): KeyPassed {
  const passed = findPassedKey(headerCall(slot, node), sourceCode, matchKeyName);
  return passed.kind === 'passed' ? 'yes' : passed.kind === 'missing' ? 'no' : 'unknown';
}
