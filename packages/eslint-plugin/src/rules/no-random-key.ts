import { builtinModules } from 'node:module';

import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import { codeSpan, containsNode, describeNode, findVariableOf, type FunctionNode, getMemberChain, getPropertyKeyName, isFunctionNode } from '../ast/index.js';
import {
  type ConstantKey,
  createKeyJudge,
  findConstantKey,
  findPositionFallback,
  type KeyPosition,
  mayHaveKeyPositions,
  type NondeterministicSource,
  PER_ATTEMPT_NAMES,
} from '../keys/index.js';
import type { ToolDefinition } from '../tools/index.js';
import { getKeyedHandler } from '../effects/index.js';
import { suggestToolKeyInstead } from './require-key-passthrough-utils/index.js';
import { createHandlerToolFinder, createKeyAdvice, createKeyRule, describeFallbackPlace, fallbackAdvice, MESSAGE_ID_BY_SOURCE_KIND } from './no-random-key-utils/index.js';

export type { KeyRuleOptionList as Options } from './no-random-key-utils/index.js';

export type MessageIds =
  | 'clockKey'
  | 'constantFallbackKey'
  | 'constantToolKey'
  | 'counterKey'
  | 'mintedPerToolCallKey'
  | 'perAttemptKey'
  | 'randomKey'
  | 'suggestDurableParameters'
  | 'useToolKey'
  | 'bindAndUseToolKey';

/** Parameter names that look like durable identifiers of the work: `orderId`, `run_id`, `id`. */
const DURABLE_PARAMETER_NAME = /^(id|[a-z][A-Za-z0-9]*Id|[a-z][a-z0-9]*_id)$/;
/** Ids that change per request or per attempt, however durable their name sounds. */
const NON_DURABLE_PARAMETER_NAMES = new Set(['callId', 'correlationId', 'requestId', 'spanId', 'traceId', ...PER_ATTEMPT_NAMES]);
const MAX_SUGGESTED_PARAMETERS = 3;
/**
 * Ids that name the run (the unit of work a retry, a resume or a redelivery repeats): `runId`,
 * `jobId`, `workflowId`, `executionId`, `run_id`... A suggested key holds one, as the seed's key
 * holds the run: ids of items alone (`${ticketId}:${customerId}`) are the same in every later run
 * about those items, so a second escalation of the ticket, next week, would share the first's key.
 */
const RUN_ID_PARAMETER_NAME = /^(run|job|workflow|execution|invocation|batch)(Id|_id)$/;
/** Handler names that say nothing about the action; the tool's `name` is looked for instead. */
const GENERIC_FUNCTION_NAMES = new Set(['call', 'callback', 'default', 'execute', 'fn', 'func', 'handler', 'invoke', 'run']);
/** What an action name may hold to go into a key as it is: `refund`, `issue_refund`, `send-email`. */
const ACTION_NAME = /^[A-Za-z][\w-]{0,63}$/;

export default createKeyRule<MessageIds>({
  name: 'no-random-key',
  description: 'Disallow idempotency and deduplication keys built from random, clock or per-attempt values',
  hasSuggestions: true,
  sourceAt: '{{source}} (line {{line}})',
  messages: {
    constantFallbackKey:
      'Idempotency key falls back to the constant {{fallback}}{{value}} when {{primary}} is missing{{at}}: every call without it sends ' +
      "that one key, so a later, different call gets the first one's result (or the provider rejects the reused key). {{advice}}",
    constantToolKey:
      "The tool's key function returns the constant {{constant}}: every call of the tool has that one key, so a later, different call " +
      "(another order, another amount) gets the first call's result instead of running. Derive it from durable fields such as the run id and the item id, " +
      'as in `` key`${run.id}:${input.orderId}:refund` ``.',
    suggestDurableParameters: 'Build the key from {{parameters}}{{action}} instead.',
    useToolKey: "Pass the tool's key {{key}} instead.",
    bindAndUseToolKey: "Take the tool's key as {{key}} in the handler's parameters and pass it instead.",
  },
  create(context, [options]) {
    const sourceCode = context.sourceCode;
    if (!mayHaveKeyPositions(sourceCode, options.keyNames)) return {};
    const judge = createKeyJudge(sourceCode, options);
    const adviceAt = createKeyAdvice(sourceCode);
    const toolAt = createHandlerToolFinder(sourceCode);
    /** Sinks already reported per source, so a sink nested in another (`key\`${vouchDurable(x)}\``) is reported once. */
    const reportedSinks = new Map<TSESTree.Node, TSESTree.Node[]>();
    /** Sinks already reported per constant fallback, so a sink nested in another is reported once. */
    const reportedFallbacks = new Map<TSESTree.Node, TSESTree.Node[]>();

    /**
     * In the handler of a tool declared `idempotent: 'with_key'`, the suggestion to pass the tool's
     * key instead (binding it in the handler's parameters first where needed): require-key-passthrough's
     * suggestion for a key that is not the tool's, which leaves a key this rule reports to it.
     */
    function useToolKeyInstead(value: TSESTree.Node): TSESLint.ReportSuggestionArray<MessageIds> {
      // The whole key of a property (`idempotencyKey: randomUUID()`), not a part of one.
      if (value.parent?.type !== AST_NODE_TYPES.Property || value.parent.value !== value) return [];
      const tool = toolAt(value);
      const handler = tool && getKeyedHandler(tool, sourceCode);
      return handler ? suggestToolKeyInstead(handler, value as TSESTree.Expression, sourceCode, judge.matchKeyName) : [];
    }

    function checkPosition(position: KeyPosition): void {
      const verdict = judge.judge(position.value);
      if (verdict === 'mintedOnce') return checkMintedOnce(position);
      const source = verdict;
      if (!source) return position.kind === 'toolKey' && checkConstantToolKey(position) ? undefined : checkConstantFallback(position);
      if (source === 'persisted' || isNestedInReportedSink(position.value, source)) return;
      reportedSinks.set(source.node, [...(reportedSinks.get(source.node) ?? []), position.value]);
      context.report({
        node: position.value,
        messageId: MESSAGE_ID_BY_SOURCE_KIND[source.kind],
        data: { source: codeSpan(source.description), line: source.node.loc.start.line, advice: adviceAt(position.value) },
        suggest: [...useToolKeyInstead(position.value), ...buildSuggestions(position.value, source, sourceCode, toolAt)],
      });
    }

    /**
     * A key minted once before an in-process retry is the same on every attempt of that retry, but
     * when it is minted inside a tool's handler, the handler is what repeats: a model that calls the
     * tool again, or a resumed run, mints a new key. Stripe's own pattern (mint once in a plain
     * function, then retry) stays exempt.
     */
    function checkMintedOnce(position: KeyPosition): void {
      const source = judge.tracer.findSource(position.value);
      if (!source || !toolAt(source.node) || isNestedInReportedSink(position.value, source)) return;
      reportedSinks.set(source.node, [...(reportedSinks.get(source.node) ?? []), position.value]);
      context.report({
        node: position.value,
        messageId: 'mintedPerToolCallKey',
        data: { source: codeSpan(source.description), line: source.node.loc.start.line, advice: adviceAt(position.value) },
        suggest: useToolKeyInstead(position.value),
      });
    }

    /**
     * A `defineTool` key function that returns a constant (`` key`refund` ``, `'refund'`, a `const`
     * bound to one): one key for every call, so every call after the first replays it. The brands
     * accept the spec's template with no part (it is a `DeterministicKey`); only this rule sees it.
     */
    function checkConstantToolKey(position: KeyPosition): boolean {
      const constant = findConstantKey(position.value, sourceCode);
      if (!constant) return false;
      context.report({
        node: position.value,
        messageId: 'constantToolKey',
        data: { constant: describeConstantKey(constant, position.value, sourceCode) },
      });
      return true;
    }

    /**
     * A key with no random source may still be one constant for every call that lacks its real key
     * (`currentCall()?.key ?? ''`): reported on the constant the file shows, whatever the primary is
     * (a guard's key the audit cannot place is still unknown; the fallback alone is the evidence).
     */
    function checkConstantFallback(position: KeyPosition): void {
      const found = findPositionFallback(position, sourceCode);
      if (!found) return;
      const sinks = reportedFallbacks.get(found.node) ?? [];
      if (sinks.some((outer) => containsNode(outer, position.value))) return;
      reportedFallbacks.set(found.node, [...sinks, position.value]);
      context.report({
        node: position.value,
        messageId: 'constantFallbackKey',
        data: {
          fallback: codeSpan(describeNode(found.fallback, sourceCode)),
          primary: codeSpan(describeNode(found.primary, sourceCode)),
          ...describeFallbackPlace(found, position.value),
          advice: fallbackAdvice(found, toolAt(position.value), sourceCode),
        },
      });
    }

    function isNestedInReportedSink(sink: TSESTree.Node, source: NondeterministicSource): boolean {
      return (reportedSinks.get(source.node) ?? []).some(
        (outer) => outer.range[0] <= sink.range[0] && sink.range[1] <= outer.range[1],
      );
    }

    return judge.listeners((node) => {
      for (const position of judge.positionsAt(node)) checkPosition(position);
    });
  },
});

/**
 * A constant key as the message shows it: the code (`` `key`refund`` ``), and, when the key reads
 * it through a name, the name with the constant and its line (`` `KEY` (`'refund'`, line 3) ``).
 */
function describeConstantKey(constant: ConstantKey, value: TSESTree.Node, sourceCode: Readonly<TSESLint.SourceCode>): string {
  const written = constant.name ? getConstantExpression(constant.literal) : value;
  const text = codeSpan(describeNode(written, sourceCode));
  return constant.name ? `${codeSpan(constant.name.name)} (${text}, line ${constant.literal.loc.start.line})` : text;
}

/** The constant as written: the spec's tagged template around a template with no part (`` key`refund` ``), else the literal. */
function getConstantExpression(literal: ConstantKey['literal']): TSESTree.Node {
  return literal.parent?.type === AST_NODE_TYPES.TaggedTemplateExpression ? literal.parent : literal;
}

/**
 * When the sink is the random call itself and the enclosing function takes durable-looking ids,
 * offer to key on those instead (a suggestion, since it changes which calls share a key).
 */
function buildSuggestions(
  sink: TSESTree.Node,
  source: NondeterministicSource,
  sourceCode: Readonly<TSESLint.SourceCode>,
  toolAt: (node: TSESTree.Node) => ToolDefinition | undefined,
): TSESLint.ReportSuggestionArray<MessageIds> {
  if (source.node !== sink) return [];
  const fn = getEnclosingFunction(sink);
  const parameters = getDurableParameterNames(fn);
  if (parameters.length === 0) return [];
  // One id alone would make every later call about that id share one key (`${customerId}`: every
  // payment of the customer after the first is a replay or a reuse error; `${orderId}`: a second,
  // partial refund replays the first), and the action at its end does not change that: it only keeps
  // two tools apart. The seed's key has the run and the item; with one id in scope the rule cannot
  // name the other, so it offers nothing and the message says where a run id comes from.
  if (parameters.length < 2) return [];
  // Two ids of items and none of the run have the same flaw across runs (new-user trial 2:
  // `${ticketId}:${customerId}:escalate_ticket`): the rule cannot tell an item's id from the run's
  // by anything but its name, so it suggests only a key that holds an id named as the run's.
  if (!parameters.some((name) => RUN_ID_PARAMETER_NAME.test(name))) return [];
  // The seed's key: scoped to the run and the item, and ending with the action, so that two tools
  // (a refund and a notification for one order) never share a key.
  const action = fn && getActionName(fn, sourceCode, toolAt);
  const parts = [...parameters.map((name) => `\${${name}}`), ...(action ? [action] : [])];
  const template = `\`${parts.join(':')}\``;
  return [
    {
      messageId: 'suggestDurableParameters',
      data: {
        parameters: parameters.map(codeSpan).join(', '),
        action: action ? `, ending with the action ${codeSpan(action)}` : '',
      },
      fix: (fixer) => [fixer.replaceText(sink, template), ...removeImportLeftUnused(sink, sourceCode, fixer)],
    },
  ];
}

/**
 * When the replaced call was the last use of an imported name (`import { randomUUID } from
 * 'node:crypto'`), the import of that name, so the suggestion leaves no unused import. Only where
 * removing it changes nothing else: a name beside others in its import (`import { randomUUID,
 * createHash }`), or the only name imported from a Node built-in, which runs no code of the
 * project's when imported. The only name of a package's import stays (the package may do something
 * when imported); so does a name read anywhere outside the replaced call.
 */
function removeImportLeftUnused(
  sink: TSESTree.Node,
  sourceCode: Readonly<TSESLint.SourceCode>,
  fixer: TSESLint.RuleFixer,
): TSESLint.RuleFix[] {
  const callee = sink.type === AST_NODE_TYPES.CallExpression || sink.type === AST_NODE_TYPES.NewExpression ? sink.callee : undefined;
  const root = callee && getMemberChain(callee)?.[0];
  const variable = root && findVariableOf(root, sourceCode);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (def?.type !== 'ImportBinding' || def.parent.type !== AST_NODE_TYPES.ImportDeclaration) return [];
  if (!variable?.references.every((reference) => containsNode(sink, reference.identifier))) return [];
  const declaration = def.parent;
  const specifier = def.node;
  if (declaration.specifiers.length === 1) {
    if (!isNodeBuiltin(declaration.source.value)) return [];
    const text = sourceCode.text;
    let end = declaration.range[1];
    if (text[end] === '\r') end++;
    if (text[end] === '\n') end++;
    return [fixer.removeRange([declaration.range[0], end])];
  }
  const named = declaration.specifiers.filter((candidate) => candidate.type === AST_NODE_TYPES.ImportSpecifier);
  if (specifier.type === AST_NODE_TYPES.ImportSpecifier && named.length === 1) {
    // `import crypto, { randomUUID } from 'node:crypto'`: the braces go with their only name.
    const comma = sourceCode.getTokenBefore(specifier, { filter: (token) => token.value === ',' });
    const closing = sourceCode.getTokenAfter(specifier, { filter: (token) => token.value === '}' });
    return comma && closing ? [fixer.removeRange([comma.range[0], closing.range[1]])] : [];
  }
  const after = sourceCode.getTokenAfter(specifier);
  if (after?.value === ',') {
    const next = sourceCode.getTokenAfter(after);
    return [fixer.removeRange([specifier.range[0], next ? next.range[0] : after.range[1]])];
  }
  const before = sourceCode.getTokenBefore(specifier);
  return before?.value === ',' ? [fixer.removeRange([before.range[0], specifier.range[1]])] : [];
}

/** Whether `source` names a Node built-in module (`node:crypto`, `crypto`). */
function isNodeBuiltin(source: string): boolean {
  return source.startsWith('node:') || builtinModules.includes(source);
}

/**
 * The action a function performs, for the end of a suggested key: its own name (`function refund`,
 * `const issueRefund = ...`, a method); for a handler passed to a call, the call's first argument
 * when it is a string (`server.registerTool('issue_refund', config, handler)`); for a generic handler
 * (`execute`, `run`), the `name` of the tool whose config holds it (`tool({ name: 'issue_refund',
 * execute })`), or else the name of the tool the tools layer recognises it as the handler of, as its
 * framework names tools (Mastra's `createTool({ id: 'refund-order', execute })`). `undefined` when
 * none says, or the name does not fit in a key as it is.
 */
function getActionName(
  fn: FunctionNode,
  sourceCode: Readonly<TSESLint.SourceCode>,
  toolAt: (node: TSESTree.Node) => ToolDefinition | undefined,
): string | undefined {
  const name = getFunctionName(fn);
  if (name !== undefined && !GENERIC_FUNCTION_NAMES.has(name)) return ACTION_NAME.test(name) ? name : undefined;
  // `server.registerTool('issue_refund', config, handler)`, `server.tool('issue_refund', ..., handler)`.
  const registration = fn.parent;
  if (registration?.type === AST_NODE_TYPES.CallExpression && registration.arguments.some((argument) => argument === fn)) {
    const [first] = registration.arguments;
    return first?.type === AST_NODE_TYPES.Literal && typeof first.value === 'string' && ACTION_NAME.test(first.value) ? first.value : undefined;
  }
  const property = fn.parent;
  if (property?.type !== AST_NODE_TYPES.Property || property.parent.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
  const toolName = property.parent.properties.find(
    (candidate): candidate is TSESTree.Property =>
      candidate.type === AST_NODE_TYPES.Property && getPropertyKeyName(candidate, sourceCode) === 'name',
  );
  const value = toolName?.value;
  if (value) {
    return value.type === AST_NODE_TYPES.Literal && typeof value.value === 'string' && ACTION_NAME.test(value.value) ? value.value : undefined;
  }
  const tool = toolAt(fn.body);
  return tool?.name !== undefined && ACTION_NAME.test(tool.name) ? tool.name : undefined;
}

function getFunctionName(fn: FunctionNode): string | undefined {
  if (fn.type !== AST_NODE_TYPES.ArrowFunctionExpression && fn.id) return fn.id.name;
  const parent = fn.parent;
  if (parent?.type === AST_NODE_TYPES.VariableDeclarator && parent.id.type === AST_NODE_TYPES.Identifier) return parent.id.name;
  if ((parent?.type === AST_NODE_TYPES.Property || parent?.type === AST_NODE_TYPES.MethodDefinition) && !parent.computed) {
    return parent.key.type === AST_NODE_TYPES.Identifier ? parent.key.name : undefined;
  }
  return undefined;
}

function getEnclosingFunction(node: TSESTree.Node): FunctionNode | undefined {
  for (let current = node.parent; current; current = current.parent) {
    if (isFunctionNode(current)) return current;
  }
  return undefined;
}

/**
 * The names a parameter binds, one level deep: `orderId`, `orderId = ''`, and the fields of a
 * destructured object (`{ orderId, amountCents }`, the way tool handlers take their input).
 */
function getBoundNames(binding: TSESTree.Parameter | TSESTree.Node): string[] {
  const target = binding.type === AST_NODE_TYPES.AssignmentPattern ? binding.left : binding;
  if (target.type === AST_NODE_TYPES.Identifier) return [target.name];
  if (target.type !== AST_NODE_TYPES.ObjectPattern) return [];
  return target.properties.flatMap((property) => {
    if (property.type !== AST_NODE_TYPES.Property) return [];
    const value = property.value.type === AST_NODE_TYPES.AssignmentPattern ? property.value.left : property.value;
    return value.type === AST_NODE_TYPES.Identifier ? [value.name] : [];
  });
}

function getDurableParameterNames(fn: FunctionNode | undefined): string[] {
  if (!fn) return [];
  const names = fn.params.flatMap((parameter) => {
    const binding = parameter.type === AST_NODE_TYPES.TSParameterProperty ? parameter.parameter : parameter;
    return getBoundNames(binding);
  });
  return names
    .filter((name) => DURABLE_PARAMETER_NAME.test(name) && !NON_DURABLE_PARAMETER_NAMES.has(name))
    .slice(0, MAX_SUGGESTED_PARAMETERS);
}
