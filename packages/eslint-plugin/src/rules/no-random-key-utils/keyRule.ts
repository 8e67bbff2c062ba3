import type { JSONSchema4 } from '@typescript-eslint/utils/json-schema';

import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import { isCurrentCallKey, isFunctionNode, resolveConst } from '../../ast/index.js';
import { getKeyedHandler } from '../../effects/index.js';
import type { AllowedSource, ConstantFallback, SourceKind } from '../../keys/index.js';
import { createToolRecogniser, getFrameworkTitle, getRunIdSource, type ToolDefinition, type ToolFactory } from '../../tools/index.js';
import { createTwinRule, type TwinSpec } from '../utils/index.js';

// What `no-random-key` and its type-aware twin `no-random-key-type-checked` share: the options and
// the messages (the twin names the file and the import it followed); both judge a key position in
// the linted file with keys/keyJudge. The twin adds only what crosses a file boundary.

/** The options `no-random-key` and `no-random-key-type-checked` share. */
export interface KeyRuleOptions {
  /** Extra property or header names that carry a deduplication key (added to the defaults). */
  keyNames?: string[];
  /** Extra replay-stable imports or globals, e.g. `{ from: 'my-workflow-sdk', name: 'uuid' }`. */
  allowedSources?: AllowedSource[];
}

/** The options list of both rules (what `context.options` holds). */
export type KeyRuleOptionList = [KeyRuleOptions];

/** JSON schema of {@link KeyRuleOptions}. */
export const keyRuleOptionsSchema: JSONSchema4 = {
  type: 'object',
  additionalProperties: false,
  properties: {
    keyNames: {
      type: 'array',
      description: 'Extra property or header names (any letter case) whose value is a deduplication key.',
      items: { type: 'string', minLength: 1 },
      uniqueItems: true,
    },
    allowedSources: {
      type: 'array',
      description: "Extra replay-stable sources: `from` is a module (or 'globalThis'), `name` the export path.",
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['from', 'name'],
        properties: {
          from: { type: 'string', minLength: 1 },
          name: { type: 'string', minLength: 1 },
        },
      },
    },
  },
};

/** The defaults of {@link KeyRuleOptions}: no extra key names or sources. */
export const keyRuleDefaultOptions: [Required<KeyRuleOptions>] = [{ keyNames: [], allowedSources: [] }];

/** The message ids every key rule reports a source with, one per {@link SourceKind}. */
export type SourceMessageId = (typeof MESSAGE_ID_BY_SOURCE_KIND)[SourceKind] | 'mintedPerToolCallKey';

const createTwin = createTwinRule<KeyRuleOptionList>({
  type: 'problem',
  schema: [keyRuleOptionsSchema],
  defaultOptions: keyRuleDefaultOptions,
});

/**
 * Creates `no-random-key` and `no-random-key-type-checked`: the options they share, and a message per
 * kind of source that says where the source is as `sourceAt` does; `messages` are the rule's others.
 */
export function createKeyRule<MessageIds extends string>(
  spec: Omit<TwinSpec<KeyRuleOptionList, MessageIds>, 'messages'> & {
    readonly sourceAt: string;
    readonly messages: Record<Exclude<MessageIds, SourceMessageId>, string>;
  },
): ReturnType<typeof createTwin<MessageIds>> {
  const { sourceAt, messages, ...rest } = spec;
  return createTwin<MessageIds>({ ...rest, messages: { ...keySourceMessages(sourceAt), ...messages } as Record<MessageIds, string> });
}

/** The advice in the handler of a tool declared `idempotent: 'with_key'`: a `defineTool`'s, or a framework tool's. */
const WITH_KEY_ADVICE = {
  retrysafe: "Pass the tool's key instead (`execute`'s second parameter: `{ key }`): it is the same on every retry of the call, which is what the tool is declared idempotent with.",
  framework: "Pass the tool's key instead (under a guard, `currentCall()?.key`): it is the same on every retry of the call, which is what the tool is declared idempotent with.",
} as const;

/** What every key rule tells the user to do instead (where the key is in no recognised tool's handler). */
export const DURABLE_KEY_ADVICE = 'Derive it from durable fields such as the run id and the item id.';

/**
 * The advice for a key at `node`: {@link DURABLE_KEY_ADVICE}, and, in the handler of a recognised
 * tool, where that framework's run id comes from (the catalogue's `runId`). Works out the file's
 * tools only when asked, that is when a key is reported.
 */
export function createKeyAdvice(
  sourceCode: Readonly<TSESLint.SourceCode>,
  toolFactories: readonly ToolFactory[] = [],
): (node: TSESTree.Node) => string {
  const toolAt = createHandlerToolFinder(sourceCode, toolFactories);
  return (node) => {
    const tool = toolAt(node);
    // In a with_key tool's handler the fix is the tool's own key, which require-key-passthrough
    // would ask for too: it leaves a key this rule reports to this rule, so the advice says it.
    if (tool && getKeyedHandler(tool, sourceCode)) return WITH_KEY_ADVICE[tool.framework === 'retrysafe' ? 'retrysafe' : 'framework'];
    const runId = tool && getRunIdSource(tool.framework);
    const title = tool && getFrameworkTitle(tool.framework);
    return runId && title ? `Derive it from durable fields: the run id and the item id. In this ${title} tool, the run id is ${runId}.` : DURABLE_KEY_ADVICE;
  };
}

/**
 * What to do about a key that falls back to a constant, for `no-random-key`'s `constantFallbackKey`:
 * throw when the real key is missing, or fall back to a key derived from the work. In a with_key
 * `defineTool` handler that is the tool's own key. The guard's `currentCall()?.key` is missing only
 * outside a guarded call, where no other key would be the guard's: only throwing is advised. Else a
 * key with the run id (in a framework's handler, where that framework gives it: the catalogue's `runId`).
 */
export function fallbackAdvice(found: ConstantFallback, tool: ToolDefinition | undefined, sourceCode: Readonly<TSESLint.SourceCode>): string {
  if (tool?.framework === 'retrysafe' && getKeyedHandler(tool, sourceCode)) return "Throw when it is missing, or pass the tool's key (`execute`'s second parameter: `{ key }`).";
  if (isCurrentCallKey(sourceCode, found.primary)) return 'Throw when it is missing: `currentCall()` is set only inside a guarded call, so an unguarded call then fails instead of sharing one key.';
  const runId = tool && getRunIdSource(tool.framework);
  const title = tool && getFrameworkTitle(tool.framework);
  const runIdHere = runId && title ? ` In this ${title} tool, the run id is ${runId}.` : '';
  return `Throw when it is missing, or fall back to a key built from the run id and the item id.${runIdHere}`;
}

/**
 * The parts of `constantFallbackKey` that say only what the code does not show at the report: the
 * fallback's line when the key is reported on another one (`const key = currentCall()?.key ?? ''`
 * above the call), and the whole key when it is not the constant as written (`DEFAULT_KEY`, or
 * `` `refund:${k ?? ''}` ``, which is then `"refund:"`).
 */
export function describeFallbackPlace(found: ConstantFallback, reportedAt: TSESTree.Node): { readonly at: string; readonly value: string } {
  const line = found.node.loc.start.line;
  const fallback = found.fallback;
  const asWritten =
    (fallback.type === AST_NODE_TYPES.Literal && fallback.value === found.key) ||
    (fallback.type === AST_NODE_TYPES.TemplateLiteral && fallback.expressions.length === 0 && fallback.quasis[0]?.value.cooked === found.key);
  return { at: line === reportedAt.loc.start.line ? '' : ` (line ${line})`, value: asWritten ? '' : ` (the key is then ${JSON.stringify(found.key)})` };
}

/**
 * The recognised tool (of any framework, or a `toolFactories` tool) whose handler (`execute`,
 * `handler`, `func`, a registration's callback, a class tool's method) holds `node`, if any: the
 * handler runs once per tool call, the unit a model repeats and a resumed run replays. Works out
 * the file's tools only when asked, that is when a key is reported or exempted.
 */
export function createHandlerToolFinder(
  sourceCode: Readonly<TSESLint.SourceCode>,
  toolFactories: readonly ToolFactory[] = [],
): (node: TSESTree.Node) => ToolDefinition | undefined {
  let tools: ReturnType<typeof createToolRecogniser> | undefined;
  return (node) => {
    tools ??= createToolRecogniser(sourceCode, { toolFactories });
    if (!tools.mayDefineTools) return undefined;
    for (let current = node.parent; current; current = current.parent) {
      if (current.type !== AST_NODE_TYPES.CallExpression && current.type !== AST_NODE_TYPES.NewExpression && current.type !== AST_NODE_TYPES.ClassDeclaration && current.type !== AST_NODE_TYPES.ClassExpression) continue;
      for (const tool of tools.definitionsAt(current)) {
        const handler = tool.handler && resolveConst(sourceCode, tool.handler);
        if (handler && isFunctionNode(handler) && handler.range[0] <= node.range[0] && node.range[1] <= handler.range[1]) return tool;
      }
    }
    return undefined;
  };
}

/**
 * The message of each kind of source, with `from` saying where the source is: "`{{source}}` (line
 * {{line}})" in the linted file, or the file and the import it was reached through.
 */
function keySourceMessages(from: string): Record<SourceMessageId, string> {
  return {
    randomKey: `Idempotency key built from ${from}: a retry gets a new key. {{advice}}`,
    clockKey: `Idempotency key built from the clock, ${from}: a retry at another moment gets a new key. {{advice}}`,
    perAttemptKey: `Idempotency key built from ${from}, which is new on every attempt or tool call: a retry gets a new key. {{advice}}`,
    counterKey: `Idempotency key built from the in-memory counter ${from}: it is not persisted, so a retry or a restart gets a new key. {{advice}}`,
    mintedPerToolCallKey: `Idempotency key built from ${from}, minted once per call of this tool's handler: the retry inside the handler reuses it, but a model that repeats the tool call, or a resumed run, calls the handler again and gets a new key. {{advice}}`,
  };
}

/** The message each key rule reports a source of each kind with (both key rules use these ids). */
export const MESSAGE_ID_BY_SOURCE_KIND = {
  clock: 'clockKey',
  counter: 'counterKey',
  perAttempt: 'perAttemptKey',
  random: 'randomKey',
} as const satisfies Record<SourceKind, string>;
