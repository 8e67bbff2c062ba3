/**
 * The guards return framework-native tools the frameworks accept unchanged, checked against the
 * real packages' types: AI SDK 6 (`ai`) and 7 (`ai7`), OpenAI Agents, LangChain, Mastra.
 */
import { Agent, tool as agentsTool, type FunctionTool, type RunContext as AgentsRunContext, type Tool as AgentsTool } from '@openai/agents';
import { tool as langchainTool } from '@langchain/core/tools';
import { createTool } from '@mastra/core/tools';
import { generateText as generateText6, tool as tool6, type InferToolOutput as InferToolOutput6 } from 'ai';
import { MockLanguageModelV3 as Mock6 } from 'ai/test';
import { generateText as generateText7, tool as tool7, type InferToolOutput as InferToolOutput7 } from 'ai7';
import { MockLanguageModelV3 as Mock7 } from 'ai7/test';
import { expectTypeOf, test } from 'vitest';
import { z } from 'zod';
import { guardAiSdkTools } from '../../src/adapters/ai-sdk.js';
import { guardLangChainTools } from '../../src/adapters/langchain.js';
import { guardMastraTools } from '../../src/adapters/mastra.js';
import { guardOpenAIAgentsTools } from '../../src/adapters/openai-agents.js';
import { vouchDurable } from '../../src/durable.js';
import { declarePolicy } from '../../src/policy.js';
import type { ModelResult } from '../../src/adapters/shared.js';
import type { RunContext } from '../../src/run.js';
import type { Runner } from '../../src/runner.js';

declare const runner: Runner;
const run = { id: vouchDurable('run_1') };
const policy = { side_effects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key' } as const;
const input = z.object({ orderId: z.string() });

test('AI SDK 6 and 7: same tool types in, same out, accepted by generateText', () => {
  const refund6 = declarePolicy(tool6({ inputSchema: input, execute: async ({ orderId }) => ({ refundId: orderId }) }), policy);
  const tools6 = guardAiSdkTools({ issue_refund: refund6 }, { runner, run });
  expectTypeOf(tools6).toEqualTypeOf<{ issue_refund: typeof refund6 }>();
  expectTypeOf<InferToolOutput6<typeof tools6.issue_refund>>().toEqualTypeOf<{ refundId: string }>();
  void generateText6({ model: new Mock6(), tools: tools6, prompt: 'x' });

  const refund7 = declarePolicy(tool7({ inputSchema: input, execute: async ({ orderId }) => ({ refundId: orderId }) }), policy);
  const tools7 = guardAiSdkTools({ issue_refund: refund7 }, { runner, run });
  expectTypeOf<InferToolOutput7<typeof tools7.issue_refund>>().toEqualTypeOf<{ refundId: string }>();
  void generateText7({ model: new Mock7(), tools: tools7, prompt: 'x' });
});

test('OpenAI Agents: an array of function tools an Agent takes', () => {
  const refund = declarePolicy(agentsTool({ name: 'issue_refund', description: 'x', parameters: input, execute: async ({ orderId }) => ({ refundId: orderId }) }), policy);
  const tools = guardOpenAIAgentsTools([refund], { runner, run });
  void new Agent({ name: 'Support', tools });
});

// The trial's case (p1/src/adapters.ts): `run: (ctx) => ctx.context.run` gave TS18046, 'ctx.context' is of type 'unknown'.
test('OpenAI Agents: the run context type reaches run: (ctx) => ... from a type argument, an annotation or the tools', () => {
  type AppContext = { run: RunContext; userId: string };
  const notify = declarePolicy(agentsTool({ name: 'notify', description: 'x', parameters: input, execute: async ({ orderId }) => orderId }), policy);
  // A type argument: the tools come back as the Agent's tools.
  const explicit = guardOpenAIAgentsTools<AppContext>([notify], {
    runner,
    run: (ctx) => {
      expectTypeOf(ctx.context).toEqualTypeOf<AppContext>();
      return ctx.context.run;
    },
  });
  expectTypeOf(explicit).toExtend<readonly AgentsTool<AppContext>[]>();
  void new Agent<AppContext>({ name: 'Support', tools: [notify, ...explicit] });
  // An annotation on run's parameter: each tool keeps its own type.
  const [annotated] = guardOpenAIAgentsTools([notify], { runner, run: (ctx: AgentsRunContext<AppContext>) => ctx.context.run });
  expectTypeOf(annotated).toEqualTypeOf<FunctionTool<unknown, typeof input, ModelResult<string>>>();
  // A tool that declares the context (its execute takes the run context).
  const greet = declarePolicy(
    agentsTool({ name: 'greet', description: 'x', parameters: input, execute: async ({ orderId }, runContext?: AgentsRunContext<AppContext>) => `${orderId}:${runContext?.context.userId}` }),
    policy,
  );
  const fromTools = guardOpenAIAgentsTools([notify, greet], { runner, run: (ctx) => ctx.context.run });
  void new Agent<AppContext>({ name: 'Support', tools: fromTools });
  // Nothing says which context: it stays unknown.
  // @ts-expect-error -- 'ctx.context' is of type 'unknown'
  guardOpenAIAgentsTools([notify], { runner, run: (ctx) => ctx.context.run });
});

test('LangChain: structured tools of the same type', () => {
  const refund = langchainTool(async ({ orderId }) => ({ refundId: orderId }), { name: 'issue_refund', schema: input, metadata: { retrysafe: policy } });
  const [guarded] = guardLangChainTools([refund], { runner, run });
  expectTypeOf(guarded).toEqualTypeOf<typeof refund>();
});

test('Mastra: the same tools record', () => {
  const refund = createTool({ id: 'issue_refund', description: 'x', inputSchema: input, execute: async ({ orderId }) => ({ refundId: orderId }) });
  const tools = guardMastraTools({ issue_refund: declarePolicy(refund, policy) }, { runner, run });
  expectTypeOf(tools.issue_refund).toEqualTypeOf<typeof refund>();
});
