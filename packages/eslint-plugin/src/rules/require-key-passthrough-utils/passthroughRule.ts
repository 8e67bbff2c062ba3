import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import { type ConstantKey, createKeyNameMatcher, findConstantKey } from '../../keys/index.js';
import { codeSpan, getPropertyKeyName, isFunctionNode, type ObjectResolver, resolveConst } from '../../ast/index.js';
import {
  createToolRecogniser,
  FRAMEWORKS,
  getRunIdSource,
  mayDeclareReconcileHook,
  spreadsMayDeclare,
  type ToolDefinition,
  toolFactoriesSchema,
  type ToolFactory,
  type ToolFramework,
  toolLabel,
  type ToolSiteNode,
} from '../../tools/index.js';
import {
  createProviderRecogniser,
  describeCallee,
  findEnclosingHandler,
  findNamedKeyVariable,
  findPassedKey,
  isForeignKey,
  type KeyedHandler,
  type KeyedProvider,
  type KeyedProviderCall,
  providersSchema,
} from '../../effects/index.js';
import { getGuardOfAdapter } from '../../usage/index.js';
import { createRandomKeyCheck, createTwinRule } from '../utils/index.js';
import { getKeyAccess, insertionSite, insertKey, suggestToolKeyInstead } from './keySuggestions.js';

// What `require-key-passthrough` and its type-aware twin share: the options, the messages, the
// suggestions and the judgement of each call a with_key tool's handler makes. Each rule says which
// tools are with_key: the syntactic one those whose policy the linted file shows, the twin those
// whose policy (or a spread in it) is a `const` another file declares, and only those, so that a
// tool is reported once with both rules on. Tools that declare nothing are the syntactic rule's.

type SourceCode = Readonly<TSESLint.SourceCode>;

export type Options = [
  {
    /** Extra functions or client methods that accept an idempotency key, and where it goes. */
    providers?: KeyedProvider[];
    /** Extra tool factories, as in `require-retry-policy`. */
    toolFactories?: ToolFactory[];
  },
];

export type MessageIds = 'bindAndPassKey' | 'bindAndUseToolKey' | 'constantKey' | 'foreignKey' | 'missingKey' | 'passKey' | 'undeclaredMissingKey' | 'useToolKey';

/**
 * Providers that dedupe on the key they are given, whatever the server behind them: Stripe, and
 * the `providers` option. A plain HTTP request (`fetch`, axios, undici) reaches a server that may not
 * read an `Idempotency-Key` at all, so in a tool that declares nothing it is not judged.
 */
const KEYED_PROVIDERS_FOR_UNDECLARED_TOOLS = new Set<KeyedProviderCall['provider']>(['stripe', 'custom']);
const GENERIC_RUN_ID = 'durable fields such as the run id and the item id';

type Fix = (fixer: TSESLint.RuleFixer) => TSESLint.RuleFix[];

/** The frameworks whose tools are `defineTool` configs, where a `reconcile` hook means the spec's. */
const DEFINE_TOOL_SHAPED = new Set(['custom', 'retrysafe']);
const SEED_REASON =
  "if the tool's record-keeping fails between this call and its write, a retry repeats the call and the provider cannot tell it from a new one";


/** What one of the two rules states: its name, its description, and how it finds the with_key tools it judges. */
export interface PassthroughRuleSpec {
  readonly name: string;
  readonly description: string;
  /**
   * For one file: the keyed handler of a tool this rule judges, if any, and the reader of objects of
   * other files it reads the tool's config with (the twin's; a `reconcile` hook spread from one).
   */
  readonly keyedHandlers: (context: Readonly<TSESLint.RuleContext<MessageIds, Options>>) => {
    readonly handlerOf: (tool: ToolDefinition) => KeyedHandler | undefined;
    readonly resolve?: ObjectResolver;
  };
  /** Whether this rule judges keyed providers' calls in tools that declare nothing (the syntactic rule). */
  readonly judgesUndeclared: boolean;
}

const createTwin = createTwinRule<Options>({
  type: 'problem',
  schema: [
    {
      type: 'object',
      additionalProperties: false,
      properties: { providers: providersSchema, toolFactories: toolFactoriesSchema },
    },
  ],
  defaultOptions: [{ providers: [], toolFactories: [] }],
});

/** The messages of both rules. */
const MESSAGES: Record<MessageIds, string> = {
  missingKey: `{{tool}} is idempotent with a key, but {{call}} does not pass it: ${SEED_REASON}. {{remedy}}`,
  constantKey:
    "{{tool}} is idempotent with a key, but {{call}} passes the constant {{constant}} as its key: every call sends that one key, so the provider answers each later, different call with the first call's result (or rejects it for its other parameters). Pass the tool's key, or a key built from it.",
  foreignKey:
    "{{tool}} is idempotent with a key, but {{call}} passes a key that is not the tool's key ({{value}}): the provider then dedupes on something other than the tool's record, so a retried tool call can repeat the effect, or two different calls can be merged. Pass the tool's key, or a key built from it.",
  undeclaredMissingKey:
    '{{tool}} declares no retry policy, and {{call}} passes no idempotency key: a repeated tool call (transport retry, loop retry, resumed run) repeats the effect, and the provider cannot tell it from a new one. Pass a key derived from {{runId}} as {{where}}, and declare the tool `idempotent: \'with_key\'`.',
  passKey: "Pass the tool's key {{key}} as {{where}}.",
  bindAndPassKey: "Take the tool's key as {{key}} in the handler's parameters and pass it as {{where}}.",
  useToolKey: "Pass the tool's key {{key}} instead.",
  bindAndUseToolKey: "Take the tool's key as {{key}} in the handler's parameters and pass it instead.",
};

/** Creates `require-key-passthrough` or `require-key-passthrough-type-checked`. */
export function createPassthroughRule(spec: PassthroughRuleSpec): ReturnType<typeof createTwin<MessageIds>> {
  return createTwin<MessageIds>({
    name: spec.name,
    description: spec.description,
    hasSuggestions: true,
    messages: MESSAGES,
    create(context, [options]) {
      const sourceCode = context.sourceCode;
      const tools = createToolRecogniser(sourceCode, { toolFactories: options.toolFactories ?? [] });
      // Only a keyed tool's handler is judged: a file that defines no tool has nothing to report.
      if (!tools.mayDefineTools) return {};
      const { handlerOf: keyedHandlerOf, resolve } = spec.keyedHandlers(context);
      const matchKeyName = createKeyNameMatcher();
      const recogniseProvider = createProviderRecogniser(sourceCode, options.providers ?? []);
      const handlers = new Map<TSESTree.Node, KeyedHandler>();
      /** The handlers of tools that declare nothing: a keyed provider's create call there with no key is reported. */
      const undeclared = new Map<TSESTree.Node, ToolDefinition>();
      const callNodes: TSESTree.CallExpression[] = [];
      // What no-random-key reports here is its fault to name (one fault, one report); its message says to pass the tool's key.
      const randomKeys = createRandomKeyCheck(sourceCode);

      /** The suggestion to pass the tool's key instead of `value` (binding it in the handler's parameters first where needed). */
      const useToolKeyInstead = (handler: KeyedHandler, value: TSESTree.Expression): TSESLint.ReportSuggestionArray<MessageIds> =>
        suggestToolKeyInstead(handler, value, sourceCode, matchKeyName);

      function check(call: KeyedProviderCall, handler: KeyedHandler): void {
        const passed = findPassedKey(call, sourceCode, matchKeyName);
        const data = { tool: toolLabel(handler.tool), call: describeCall(call, sourceCode), where: describeWhere(call) };
        if (passed.kind === 'missing') {
        // A `reconcile` hook (a defineTool-shaped config's) answers the crash window the key would:
        // the runner asks it before a lost attempt runs again.
        if (DEFINE_TOOL_SHAPED.has(handler.tool.framework) && mayDeclareReconcileHook(sourceCode, handler.tool.config, resolve)) return;
          const insertion = passed.insertion;
          const access = insertion && getKeyAccess(handler, insertionSite(insertion), sourceCode, matchKeyName);
          const unbound = handler.key.kind === 'named' && !findNamedKeyVariable(call.node, handler, sourceCode, matchKeyName);
          const guard = unbound ? guardOf(handler.tool.framework) : undefined;
          const remedy =
            guard ? `Pass the key this tool is idempotent with as ${data.where}: run through ${codeSpan(guard)}, it is \`currentCall()?.key\` (\`currentCall\` from \`@retrysafe/spec\`). The handler has no variable for it yet, so there is no suggestion.`
            : unbound ? `Pass the key this tool is idempotent with as ${data.where}; the handler has no variable for it yet (such as \`idempotencyKey\`), so there is no suggestion.`
            : `Pass the tool's key as ${data.where}.`;
          const suggest: TSESLint.ReportSuggestionArray<MessageIds> = [];
          if (insertion && access) {
            const fix: Fix = (fixer) => [...(access.bind ? [access.bind(fixer)] : []), insertKey(fixer, call, insertion, access.text, sourceCode)];
            suggest.push({ messageId: access.bind ? 'bindAndPassKey' : 'passKey', data: { key: codeSpan(access.text), where: data.where }, fix });
          }
          const loc = { start: call.node.loc.start, end: call.node.callee.loc.end };
          context.report({ loc, messageId: 'missingKey', data: { ...data, remedy }, suggest });
          return;
        }
        if (passed.kind !== 'passed' || !isForeignKey(passed.value, handler, sourceCode, matchKeyName) || randomKeys.isReported(passed.value, handler.fn)) return;
        const suggest = useToolKeyInstead(handler, passed.value);
        const constant = findConstantKey(passed.value, sourceCode);
        if (constant) {
          context.report({ node: passed.value, messageId: 'constantKey', data: { ...data, constant: describeConstant(constant, sourceCode) }, suggest });
          return;
        }
        context.report({ node: passed.value, messageId: 'foreignKey', data: { ...data, value: codeSpan(shorten(sourceCode.getText(passed.value))) }, suggest });
      }

      /**
       * A call the rule does not know as a provider (a project's own client: `payments.refund(id,
       * cents, { idempotencyKey: 'refund' })`) that is given a constant under an idempotency key's
       * name: whatever the callee does with it, the name says it is the call's key, and one
       * constant is one key for every call (new-user trial 6: the audit's question 2 said so, the
       * rules said nothing). Only a constant is judged here: a random or other key there is
       * `no-random-key`'s, and which key the callee needs is not in the code.
       */
      function checkConstantUnderKeyName(node: TSESTree.CallExpression, handler: KeyedHandler): void {
        for (const argument of node.arguments) {
          if (argument.type !== AST_NODE_TYPES.ObjectExpression) continue;
          for (const property of argument.properties) {
            if (property.type !== AST_NODE_TYPES.Property || property.computed || property.kind !== 'init') continue;
            const name = getPropertyKeyName(property);
            if (name === undefined || !matchKeyName(name)) continue;
            const value = property.value as TSESTree.Expression;
            const constant = findConstantKey(value, sourceCode);
            if (!constant) continue;
            const data = { tool: toolLabel(handler.tool), call: codeSpan(`${describeCallee({ node }, sourceCode)}(...)`), constant: describeConstant(constant, sourceCode) };
            context.report({ node: value, messageId: 'constantKey', data, suggest: useToolKeyInstead(handler, value) });
          }
        }
      }

      /** A keyed provider's call in the handler of a tool that declares nothing: reported only when it visibly passes no key. */
      function checkUndeclared(call: KeyedProviderCall, tool: ToolDefinition): void {
        if (findPassedKey(call, sourceCode, matchKeyName).kind !== 'missing') return;
        const loc = { start: call.node.loc.start, end: call.node.callee.loc.end };
        const data = { tool: toolLabel(tool), call: describeCall(call, sourceCode), where: describeWhere(call), runId: getRunIdSource(tool.framework) ?? GENERIC_RUN_ID };
        context.report({ loc, messageId: 'undeclaredMissingKey', data });
      }

      function visit(node: ToolSiteNode): void {
        for (const tool of tools.definitionsAt(node)) {
          const handler = keyedHandlerOf(tool);
          if (handler) handlers.set(handler.fn, handler);
          else if (spec.judgesUndeclared && declaresNothing(tool, sourceCode) && tool.handler) {
            const fn = resolveConst(sourceCode, tool.handler);
            if (isFunctionNode(fn)) undeclared.set(fn, tool);
          }
        }
        if (node.type === AST_NODE_TYPES.CallExpression) callNodes.push(node);
      }

      return {
        CallExpression: visit,
        NewExpression: visit,
        ClassDeclaration: visit,
        ClassExpression: visit,
        // A handler may be declared before the tool that uses it, so calls are judged at the end. A
        // provider is recognised only inside a keyed handler: most files have none, and recognising
        // every call was this rule's cost on real code (bench/lint.mjs, docs/performance.md).
        'Program:exit'(): void {
          if (handlers.size === 0 && undeclared.size === 0) return;
          for (const node of callNodes) {
            const handler = handlers.size === 0 ? undefined : findEnclosingHandler(node, handlers);
            if (handler) {
              const call = recogniseProvider(node);
              if (call) check(call, handler);
              else checkConstantUnderKeyName(node, handler);
              continue;
            }
            const tool = undeclared.size === 0 ? undefined : findEnclosingTool(node, undeclared);
            const call = tool && recogniseProvider(node);
            if (call && KEYED_PROVIDERS_FOR_UNDECLARED_TOOLS.has(call.provider)) checkUndeclared(call, tool);
          }
        },
      };
    },
  });
}

/**
 * A tool that declares no policy at all, and whose config shows it: no declaration, no MCP
 * annotations, and a config that is visible and spreads nothing (which could bring a declaration).
 */
function declaresNothing(tool: ToolDefinition, sourceCode: SourceCode): boolean {
  if (tool.policy || tool.annotationsNode) return false;
  if (tool.configNode && (!tool.config || spreadsMayDeclare(sourceCode, tool.config))) return false;
  return true;
}

/** The innermost handler among `tools` that `node` sits in. */
function findEnclosingTool(node: TSESTree.Node, tools: ReadonlyMap<TSESTree.Node, ToolDefinition>): ToolDefinition | undefined {
  for (let current = node.parent; current; current = current.parent) {
    const tool = tools.get(current);
    if (tool) return tool;
  }
  return undefined;
}

/**
 * The spec's guard for a framework's own tools (`guardAiSdkTools` for the AI SDK's), found through
 * the catalogue's adapter of each entry of the framework; `undefined` where an entry has none
 * (FastMCP's tools are MCP tools, and no guard takes them) or the framework is `custom`. A tool of
 * such a framework declares its with_key policy for the guard, which runs each call and sets
 * `currentCall()`.
 */
function guardOf(framework: ToolFramework): string | undefined {
  const guards = FRAMEWORKS.filter((entry) => entry.framework === framework).map((entry) =>
    'subpath' in entry.adapter ? getGuardOfAdapter(`@retrysafe/spec${entry.adapter.subpath.slice(1)}`) : undefined,
  );
  const [first] = guards;
  return first !== undefined && guards.every((guard) => guard === first) ? first : undefined;
}

/** Code shown in a message: on one line, and cut after 40 characters. */
function shorten(text: string): string {
  const value = text.replace(/\s+/g, ' ');
  return value.length > 40 ? `${value.slice(0, 37)}...` : value;
}

/** `` `'refund'` ``, or `` `KEY` (`'refund-key'`, line 7) `` for a name bound to the constant. */
function describeConstant(constant: ConstantKey, sourceCode: SourceCode): string {
  const literal = codeSpan(shorten(sourceCode.getText(constant.literal)));
  return constant.name ? `${codeSpan(constant.name.name)} (${literal}, line ${constant.literal.loc.start.line})` : literal;
}

function describeCall(call: KeyedProviderCall, sourceCode: SourceCode): string {
  const callee = codeSpan(`${describeCallee(call, sourceCode)}(...)`);
  return call.carrier.kind === 'header' && call.provider !== 'custom' ? `the ${call.carrier.method} request ${callee}` : callee;
}

function describeWhere(call: KeyedProviderCall): string {
  const { carrier } = call;
  if (carrier.kind === 'header') return `the ${codeSpan(carrier.header)} header`;
  if (call.provider === 'stripe') return `the ${codeSpan(carrier.property)} request option`;
  return `the ${codeSpan(carrier.property)} option (argument ${call.argument + 1})`;
}

