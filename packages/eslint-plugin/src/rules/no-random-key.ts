import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import { createRule } from '../util/createRule.js';
import {
  createKeyNameMatcher,
  getKeyPositions,
  KEY_POSITION_NODE_TYPES,
  type KeyPosition,
  mayHaveKeyPositions,
} from '../util/keyPositions.js';
import { DURABLE_KEY_ADVICE, keyRuleDefaultOptions, type KeyRuleOptions, keyRuleOptionsSchema } from '../util/keyRuleOptions.js';
import { type NondeterministicSource, PER_ATTEMPT_NAMES, type SourceKind } from '../util/nondeterministicSources.js';
import { createValueTracer, type FunctionNode, isPersistedAt } from '../util/valueTracer.js';

export type Options = [KeyRuleOptions];

export type MessageIds = 'clockKey' | 'counterKey' | 'perAttemptKey' | 'randomKey' | 'suggestDurableParameters';

const ADVICE = DURABLE_KEY_ADVICE;

const MESSAGE_BY_KIND: Record<SourceKind, Exclude<MessageIds, 'suggestDurableParameters'>> = {
  clock: 'clockKey',
  counter: 'counterKey',
  perAttempt: 'perAttemptKey',
  random: 'randomKey',
};

/** Parameter names that look like durable identifiers of the work: `orderId`, `run_id`, `id`. */
const DURABLE_PARAMETER_NAME = /^(id|[a-z][A-Za-z0-9]*Id|[a-z][a-z0-9]*_id)$/;
/** Ids that change per request or per attempt, however durable their name sounds. */
const NON_DURABLE_PARAMETER_NAMES = new Set(['callId', 'correlationId', 'requestId', 'spanId', 'traceId', ...PER_ATTEMPT_NAMES]);
const MAX_SUGGESTED_PARAMETERS = 3;

export default createRule<Options, MessageIds>({
  name: 'no-random-key',
  meta: {
    type: 'problem',
    docs: {
      description: 'Disallow idempotency and deduplication keys built from random, clock or per-attempt values',
      recommended: 'recommended',
      requiresTypeChecking: false,
    },
    hasSuggestions: true,
    messages: {
      randomKey: `Idempotency key built from \`{{source}}\` (line {{line}}): a retry gets a new key. ${ADVICE}`,
      clockKey: `Idempotency key built from the clock, \`{{source}}\` (line {{line}}): a retry at another moment gets a new key. ${ADVICE}`,
      perAttemptKey: `Idempotency key built from \`{{source}}\` (line {{line}}), which is new on every attempt or tool call: a retry gets a new key. ${ADVICE}`,
      counterKey: `Idempotency key built from the in-memory counter \`{{source}}\` (line {{line}}): it is not persisted, so a retry or a restart gets a new key. ${ADVICE}`,
      suggestDurableParameters: 'Build the key from {{parameters}} instead.',
    },
    schema: [keyRuleOptionsSchema],
    defaultOptions: keyRuleDefaultOptions,
  },
  create(context, [options]) {
    const sourceCode = context.sourceCode;
    if (!mayHaveKeyPositions(sourceCode, options.keyNames)) return {};
    const matchKeyName = createKeyNameMatcher(options.keyNames ?? []);
    const tracer = createValueTracer(sourceCode, { allowedSources: options.allowedSources ?? [] });
    /** Sinks already reported per source, so a sink nested in another (`key\`${vouchDurable(x)}\``) is reported once. */
    const reportedSinks = new Map<TSESTree.Node, TSESTree.Node[]>();

    function checkPosition(position: KeyPosition): void {
      if (isPersistedAt(position.value, sourceCode)) return;
      const source = tracer.findSource(position.value);
      if (!source || isNestedInReportedSink(position.value, source)) return;
      reportedSinks.set(source.node, [...(reportedSinks.get(source.node) ?? []), position.value]);
      context.report({
        node: position.value,
        messageId: MESSAGE_BY_KIND[source.kind],
        data: { source: source.description, line: source.node.loc.start.line },
        suggest: buildSuggestions(position.value, source, sourceCode),
      });
    }

    function isNestedInReportedSink(sink: TSESTree.Node, source: NondeterministicSource): boolean {
      return (reportedSinks.get(source.node) ?? []).some(
        (outer) => outer.range[0] <= sink.range[0] && sink.range[1] <= outer.range[1],
      );
    }

    function check(node: TSESTree.Node): void {
      for (const position of getKeyPositions(node, { sourceCode, matchKeyName })) checkPosition(position);
    }

    return Object.fromEntries(KEY_POSITION_NODE_TYPES.map((type) => [type, check]));
  },
});

/**
 * When the sink is the random call itself and the enclosing function takes durable-looking ids,
 * offer to key on those instead (a suggestion, since it changes which calls share a key).
 */
function buildSuggestions(
  sink: TSESTree.Node,
  source: NondeterministicSource,
  sourceCode: Readonly<TSESLint.SourceCode>,
): TSESLint.ReportSuggestionArray<MessageIds> {
  if (source.node !== sink) return [];
  const parameters = getDurableParameterNames(getEnclosingFunction(sink));
  if (parameters.length === 0) return [];
  const template = `\`${parameters.map((name) => `\${${name}}`).join(':')}\``;
  return [
    {
      messageId: 'suggestDurableParameters',
      data: { parameters: parameters.map((name) => `\`${name}\``).join(', ') },
      fix: (fixer) => fixer.replaceText(sink, template),
    },
  ];
}

function getEnclosingFunction(node: TSESTree.Node): FunctionNode | undefined {
  for (let current = node.parent; current; current = current.parent) {
    if (
      current.type === AST_NODE_TYPES.ArrowFunctionExpression ||
      current.type === AST_NODE_TYPES.FunctionDeclaration ||
      current.type === AST_NODE_TYPES.FunctionExpression
    ) {
      return current;
    }
  }
  return undefined;
}

function getDurableParameterNames(fn: FunctionNode | undefined): string[] {
  if (!fn) return [];
  const names = fn.params.flatMap((parameter) => {
    const binding = parameter.type === AST_NODE_TYPES.TSParameterProperty ? parameter.parameter : parameter;
    const identifier = binding.type === AST_NODE_TYPES.AssignmentPattern ? binding.left : binding;
    return identifier.type === AST_NODE_TYPES.Identifier ? [identifier.name] : [];
  });
  return names
    .filter((name) => DURABLE_PARAMETER_NAME.test(name) && !NON_DURABLE_PARAMETER_NAMES.has(name))
    .slice(0, MAX_SUGGESTED_PARAMETERS);
}
