import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import { type KeyedProviderCall } from './keyedProviders.js';
import { findPassedKey } from './passedKeys.js';
import type { KeyNameMatcher } from '../keys/index.js';
import { findProperty } from '../ast/index.js';
import type { KeySlot } from './libraries/index.js';
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

/** A header key, read the way require-key-passthrough reads one (headers objects, `new Headers`, `headers.set`). */
function fromHeaders(
  sourceCode: SourceCode,
  slot: Extract<KeySlot, { header: string }>,
  node: TSESTree.CallExpression | TSESTree.NewExpression,
  matchKeyName: KeyNameMatcher,
): KeyPassed {
  const call: KeyedProviderCall = {
    node: node as TSESTree.CallExpression,
    provider: 'custom',
    carrier: { kind: 'header', header: slot.header, method: 'POST' },
    target: node,
    argument: slot.argument ?? 1,
    filler: 'undefined',
    keyInAnyArgument: false,
  };
  const passed = findPassedKey(call, sourceCode, matchKeyName);
  return passed.kind === 'passed' ? 'yes' : passed.kind === 'missing' ? 'no' : 'unknown';
}
