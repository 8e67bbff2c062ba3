/**
 * The called-twice test (`@retrysafe/spec/testing`) for framework tools: an AI SDK, OpenAI Agents,
 * LangChain or Mastra tool whose policy was declared with `declarePolicy` (or a copy a guard
 * made), called the way its framework calls a tool, through that framework's guard. Internal:
 * `callTwice` and `expectSingleEffect` are the public API.
 *
 * @module
 */
import { ToolPolicyError, policyOf, type ToolPolicy } from '../policy.js';
import type { RunContext } from '../run.js';
import type { CallOutcome, CallResult, Runner } from '../runner.js';
import { guardAiSdkTools } from './ai-sdk-guard.js';
import { guardedNameOf, nativeToolOf, type GuardSettings } from './guardShared.js';
import { guardLangChainTools } from './langchain-guard.js';
import { guardMastraTools } from './mastra-guard.js';
import { guardOpenAIAgentsTools } from './openai-agents-guard.js';

/** The frameworks whose tools the called-twice helpers take, by the guard that runs them. */
export type GuardedFramework = 'ai-sdk' | 'openai-agents' | 'langchain' | 'mastra';

/** @internal One framework tool, ready to be called twice. */
export interface FrameworkSubject {
  readonly name: string;
  readonly framework: GuardedFramework;
  readonly policy: ToolPolicy;
  /** Calls the guarded tool once as its framework does; `callNumber` makes each call's tool-call id. */
  readonly call: (input: unknown, callNumber: number) => Promise<CallResult>;
  /** How many times the native tool ran (its `execute`, `invoke` or `_call`). */
  readonly executions: () => number;
}

/** @internal Where the two calls go: the runner whose records they share, and their run. */
export interface SubjectSettings {
  readonly runner: Runner;
  readonly run: RunContext;
  readonly namespace?: string | undefined;
  /** The caller's `name` option: what to name a tool without a name of its own. */
  readonly name?: string | undefined;
  /** The key of the one-entry tool set the tool came in (`callTwice({ issueRefund }, ...)`). */
  readonly setKey?: string | undefined;
}

/** @internal What the called-twice helpers accept, for their errors. */
export const ACCEPTED_TOOLS =
  'a tool built with defineTool() from @retrysafe/spec; an AI SDK tool(), an OpenAI Agents function tool(), a LangChain tool or ' +
  "a Mastra createTool() tool whose policy was declared with declarePolicy(tool, policy) (a LangChain tool may use metadata: { retrysafe: policy }); " +
  'or a tool returned by guardAiSdkTools, guardOpenAIAgentsTools, guardLangChainTools or guardMastraTools; ' +
  'or one entry of a tool set, whose key names it: { issueRefund }';

/**
 * @internal The framework tool `tool` as a {@link FrameworkSubject}. A guard's copy is tested as the
 * native tool it guards, through the same guard, on `settings`' runner and run (a test should not
 * write to the guard's production store, nor depend on what its `run` function reads).
 * @throws TypeError if `tool` is no framework tool this knows; ToolPolicyError if it declares no policy.
 */
export function frameworkSubject(tool: unknown, settings: SubjectSettings, helper: string): FrameworkSubject {
  const native = nativeToolOf(tool) ?? tool;
  const framework = frameworkOf(native);
  if (framework === undefined || typeof native !== 'object' || native === null) {
    throw new TypeError(`${helper}() takes ${ACCEPTED_TOOLS}; got ${describe(tool)}.`);
  }
  const name = nameOf(native, framework, { ...settings, guardedAs: guardedNameOf(tool) }, helper);
  const policy = policyOf(native);
  if (policy === undefined) {
    const named = (native as { name?: unknown; id?: unknown }).name ?? (native as { id?: unknown }).id;
    throw new ToolPolicyError(
      typeof named === 'string' && named !== '' ? `tool "${named}"` : `an ${LABEL[framework]} tool`,
      `it declares none, so ${helper}() cannot tell what calling it twice should do. ` +
        `Declare one: declarePolicy(tool, { side_effects, idempotent, retry }) from '@retrysafe/spec'. ${helper}() takes ${ACCEPTED_TOOLS}.`,
    );
  }
  const outcomes: CallOutcome[] = [];
  // The guard calls the runner's `tryCall` once per call: its outcome is the call's result.
  const runner: Runner = {
    ...settings.runner,
    tryCall: (async (tool, rawInput, options) => {
      const outcome = await settings.runner.tryCall(tool, rawInput, options);
      outcomes.push(outcome);
      return outcome;
    }) as Runner['tryCall'],
  };
  let executions = 0;
  const counted = countingCopy(native, ENTRY[framework], () => (executions += 1));
  const options = { runner, run: settings.run, ...(settings.namespace !== undefined ? { namespace: settings.namespace } : {}) };
  const guarded = guard(framework, name, counted, options);
  return {
    name,
    framework,
    policy,
    executions: () => executions,
    call: async (input, callNumber) => {
      const seen = outcomes.length;
      let answer: unknown;
      try {
        answer = await callAsFramework(framework, guarded, name, input, `called-twice-${callNumber}`);
      } catch (error) {
        const failed = outcomes[seen];
        // The guard words a failure for the model (GuardedCallError); the test gets the tool's own error.
        throw failed !== undefined && !failed.ok ? failed.error : error;
      }
      const outcome = outcomes[seen];
      if (outcome === undefined) {
        // The framework answered without calling the guard: its own validation refused the input.
        throw new TypeError(`${helper}(): ${framework} refused the input of tool "${name}" before it ran: ${describe(answer)}`);
      }
      if (!outcome.ok) throw outcome.error; // the tool's own error, unchanged
      return callResultOf(outcome);
    },
  };
}

// The outcome without its `ok` tag: what `runner.call` would have returned.
function callResultOf(outcome: CallOutcome & { readonly ok: true }): CallResult {
  const result: Record<string, unknown> = { ...outcome };
  delete result['ok'];
  return result as unknown as CallResult;
}

// The method each framework calls to run a tool, which the guard wraps.
const ENTRY = { 'ai-sdk': 'execute', 'openai-agents': 'invoke', langchain: '_call', mastra: 'execute' } as const satisfies Record<GuardedFramework, string>;

const LABEL = { 'ai-sdk': 'AI SDK', 'openai-agents': 'OpenAI Agents', langchain: 'LangChain', mastra: 'Mastra' } as const satisfies Record<GuardedFramework, string>;

// Told apart by what each framework's own tool object has (none of them is imported here).
function frameworkOf(tool: unknown): GuardedFramework | undefined {
  if (typeof tool !== 'object' || tool === null) return undefined;
  const shape = tool as { type?: unknown; invoke?: unknown; _call?: unknown; id?: unknown; execute?: unknown };
  if (shape.type === 'function' && typeof shape.invoke === 'function') return 'openai-agents';
  if (typeof shape._call === 'function' && typeof shape.invoke === 'function') return 'langchain';
  if (typeof shape.execute !== 'function') return undefined;
  return typeof shape.id === 'string' ? 'mastra' : 'ai-sdk';
}

/**
 * The tool's name: its own (an Agents or LangChain tool's `name`, a Mastra tool's `id`), which a
 * `name` option must not contradict; for an AI SDK tool, which has none (its tool set's key names
 * it), the `name` option, the one-entry tool set's key, or the key a guard guarded it under, else
 * `tool`.
 * @throws TypeError if `name` differs from the tool's own name.
 */
function nameOf(tool: object, framework: GuardedFramework, names: Pick<SubjectSettings, 'name' | 'setKey'> & { readonly guardedAs: string | undefined }, helper: string): string {
  const { name, id } = tool as { name?: unknown; id?: unknown };
  const own = framework === 'mastra' && typeof id === 'string' ? id : typeof name === 'string' && name !== '' ? name : undefined;
  if (own !== undefined && names.name !== undefined && names.name !== own) {
    throw new TypeError(`${helper}(): the ${LABEL[framework]} tool is named "${own}"; the name option says "${names.name}". Leave the option out, or make it "${own}".`);
  }
  return own ?? names.name ?? names.setKey ?? names.guardedAs ?? 'tool';
}

// A child of the native tool whose entry method counts its calls: the guard and the framework see
// the same tool, and the policy is inherited.
function countingCopy(native: object, entry: string, count: () => void): object {
  const original = (native as Record<string, (...args: unknown[]) => unknown>)[entry]!;
  const copy = Object.create(native) as Record<string, unknown>;
  copy[entry] = function (this: unknown, ...args: unknown[]) {
    count();
    return original.apply(this, args);
  };
  return copy;
}

function guard(framework: GuardedFramework, name: string, tool: object, options: GuardSettings & { readonly run: RunContext }): object {
  switch (framework) {
    case 'ai-sdk':
      return guardAiSdkTools({ [name]: tool }, options)[name]!;
    case 'openai-agents':
      return guardOpenAIAgentsTools([tool as never], options)[0] as object;
    case 'langchain':
      return guardLangChainTools([tool as never], options)[0] as object;
    case 'mastra':
      return guardMastraTools({ [name]: tool }, options)[name]!;
  }
}

type Callable = Record<string, (...args: unknown[]) => Promise<unknown>>;

async function callAsFramework(framework: GuardedFramework, tool: object, name: string, input: unknown, callId: string): Promise<unknown> {
  const callable = tool as Callable;
  switch (framework) {
    case 'ai-sdk':
      return callable['execute']!(input, { toolCallId: callId, messages: [] });
    case 'openai-agents': {
      // Loaded only here: only a test of an Agents tool needs the Agents SDK.
      const { RunContext } = await import('@openai/agents');
      const toolCall = { type: 'function_call', callId, name, arguments: JSON.stringify(input) };
      return callable['invoke']!(new RunContext({}), JSON.stringify(input), { toolCall });
    }
    case 'langchain':
      return callable['invoke']!(input);
    case 'mastra':
      return callable['execute']!(input, {});
  }
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value !== 'object') return `a ${typeof value}`;
  try {
    return JSON.stringify(value)?.slice(0, 200) ?? String(value);
  } catch {
    return String(value);
  }
}
