import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES, ASTUtils } from '@typescript-eslint/utils';

import { findNamedKeyVariable, isNameFreeIn, type KeyedHandler, type KeyedProviderCall, type KeyInsertion } from '../../effects/index.js';
import { codeSpan } from '../../ast/index.js';
import type { KeyNameMatcher } from '../../keys/index.js';

// The suggestions of require-key-passthrough and its type-aware twin: how to write the tool's key
// where a keyed provider's call needs it, binding it in the handler's parameters first if needed.

type SourceCode = Readonly<TSESLint.SourceCode>;

/** How a suggestion writes the tool's key at a place, and the binding it adds to the handler first, if any. */
export interface KeyAccess {
  readonly text: string;
  readonly bind: ((fixer: TSESLint.RuleFixer) => TSESLint.RuleFix) | undefined;
}

/** The node a new key would be written in: what decides whether the key's name is visible there. */
export function insertionSite(insertion: KeyInsertion): TSESTree.Node {
  return insertion.kind === 'argument' ? insertion.call : insertion.object;
}

/**
 * How to write the tool's key at `site`: the handler's variable, or `ctx.key`, when the same binding
 * is visible there; for a `defineTool` handler that does not take the key, a new `key` parameter.
 */
export function getKeyAccess(handler: KeyedHandler, site: TSESTree.Node, sourceCode: SourceCode, matchKeyName: KeyNameMatcher): KeyAccess | undefined {
  const { key, fn } = handler;
  const visible = (variable: TSESLint.Scope.Variable): boolean =>
    ASTUtils.findVariable(sourceCode.getScope(site), variable.name) === variable;
  switch (key.kind) {
    case 'variable':
      return visible(key.variable) ? { text: key.variable.name, bind: undefined } : undefined;
    case 'context':
      return visible(key.variable) ? { text: `${key.variable.name}.key`, bind: undefined } : undefined;
    case 'named': {
      const variable = findNamedKeyVariable(site, handler, sourceCode, matchKeyName);
      return variable && { text: variable.name, bind: undefined };
    }
    case 'unbound': {
      const inside = fn.range[0] <= site.range[0] && site.range[1] <= fn.range[1];
      const name = ['key', 'idempotencyKey'].find((candidate) => isNameFreeIn(fn, candidate, sourceCode));
      const bind = name === undefined || !inside ? undefined : bindKey(fn, name, sourceCode);
      return bind && name !== undefined ? { text: name, bind } : undefined;
    }
  }
}

/** Adds the key to `execute`'s second parameter: `{ run }` → `{ run, key }`; `(input)` → `(input, { key })`. */
function bindKey(
  fn: KeyedHandler['fn'],
  name: string,
  sourceCode: SourceCode,
): ((fixer: TSESLint.RuleFixer) => TSESLint.RuleFix) | undefined {
  const binding = name === 'key' ? 'key' : `key: ${name}`;
  const [input, context] = fn.params;
  if (context?.type === AST_NODE_TYPES.ObjectPattern) return (fixer) => addProperty(fixer, context, binding, sourceCode);
  if (context || input?.type === AST_NODE_TYPES.RestElement) return undefined;
  if (input) {
    const before = sourceCode.getTokenBefore(input);
    const parenthesised = before !== null && ASTUtils.isOpeningParenToken(before);
    return parenthesised
      ? (fixer) => fixer.insertTextAfter(input, `, { ${binding} }`)
      : (fixer) => fixer.replaceText(input, `(${sourceCode.getText(input)}, { ${binding} })`);
  }
  const closing = sourceCode.getTokenBefore(fn.returnType ?? fn.body, { filter: ASTUtils.isClosingParenToken });
  if (!closing || !isNameFreeIn(fn, '_input', sourceCode)) return undefined;
  return (fixer) => fixer.insertTextBefore(closing, `_input, { ${binding} }`);
}

/** Writes the key where `insertion` says: a property or header, a `headers` object, or a new argument. */
export function insertKey(
  fixer: TSESLint.RuleFixer,
  call: KeyedProviderCall,
  insertion: KeyInsertion,
  keyText: string,
  sourceCode: SourceCode,
): TSESLint.RuleFix {
  const { carrier } = call;
  const entry =
    carrier.kind === 'header' ? `'${carrier.header}': ${keyText}`
    : carrier.property === keyText ? keyText
    : `${propertyKey(carrier.property)}: ${keyText}`;
  switch (insertion.kind) {
    case 'property':
      return addProperty(fixer, insertion.object, entry, sourceCode);
    case 'headers':
      return addProperty(fixer, insertion.object, `headers: { ${entry} }`, sourceCode);
    case 'argument': {
      const argument = carrier.kind === 'header' ? `{ headers: { ${entry} } }` : `{ ${entry} }`;
      const text = [...insertion.fillers, argument].join(', ');
      const last = insertion.call.arguments.at(-1);
      if (last) return fixer.insertTextAfter(last, `, ${text}`);
      const closing = sourceCode.getLastToken(insertion.call);
      return closing && ASTUtils.isClosingParenToken(closing)
        ? fixer.insertTextBefore(closing, text)
        : fixer.insertTextAfter(insertion.call, `(${text})`);
    }
  }
}

/** Replaces a key value with the tool's key; a shorthand `{ idempotencyKey }` becomes `idempotencyKey: key`. */
export function replaceKey(fixer: TSESLint.RuleFixer, value: TSESTree.Expression, keyText: string): TSESLint.RuleFix {
  const parent = value.parent;
  if (parent.type !== AST_NODE_TYPES.Property || parent.value !== value || parent.computed) return fixer.replaceText(value, keyText);
  if (parent.key.type === AST_NODE_TYPES.Identifier && parent.key.name === keyText) return fixer.replaceText(parent, keyText);
  return parent.shorthand ? fixer.insertTextAfter(value, `: ${keyText}`) : fixer.replaceText(value, keyText);
}

/** Adds `text` as the last entry of an object literal or pattern, on its own line if the object spans lines. */
function addProperty(
  fixer: TSESLint.RuleFixer,
  object: TSESTree.ObjectExpression | TSESTree.ObjectPattern,
  text: string,
  sourceCode: SourceCode,
): TSESLint.RuleFix {
  const last = object.properties.at(-1);
  if (!last) return fixer.replaceText(object, `{ ${text} }`);
  if (last.loc.start.line === object.loc.start.line) return fixer.insertTextAfter(last, `, ${text}`);
  const indent = /^\s*/.exec(sourceCode.lines[last.loc.start.line - 1] ?? '')?.[0] ?? '';
  return fixer.insertTextAfter(last, `,\n${indent}${text}`);
}

function propertyKey(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : `'${name}'`;
}

/**
 * The suggestion to pass `handler`'s tool key in place of `value` (binding it in the handler's
 * parameters first where needed: `bindAndUseToolKey`), or none where the handler cannot reach it.
 * `require-key-passthrough` offers it for a key that is not the tool's, and `no-random-key` for a
 * random key in a with_key handler, which require-key-passthrough leaves to it.
 */
export function suggestToolKeyInstead(
  handler: KeyedHandler,
  value: TSESTree.Expression,
  sourceCode: SourceCode,
  matchKeyName: KeyNameMatcher,
): TSESLint.ReportSuggestionArray<'bindAndUseToolKey' | 'useToolKey'> {
  const access = getKeyAccess(handler, value, sourceCode, matchKeyName);
  if (!access) return [];
  const fix = (fixer: TSESLint.RuleFixer): TSESLint.RuleFix[] => [...(access.bind ? [access.bind(fixer)] : []), replaceKey(fixer, value, access.text)];
  return [{ messageId: access.bind ? 'bindAndUseToolKey' : 'useToolKey', data: { key: codeSpan(access.text) }, fix }];
}
