/**
 * The guards of OpenAI Agents, LangChain and Mastra on the real packages: native tools with
 * declared policies, called twice in a run with a new call id each time (the model repeating
 * itself), one effect each time, the repeat told it was a replay.
 */
import { Agent, run as runAgent, RunContext as AgentsRunContext, RunState, tool as agentsTool, Usage, type Model, type ModelRequest, type ModelResponse } from '@openai/agents';
import { tool as langchainTool } from '@langchain/core/tools';
import { Agent as MastraAgent } from '@mastra/core/agent';
import { createTool } from '@mastra/core/tools';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { guardLangChainTools } from '../../src/adapters/langchain.js';
import { guardMastraTools, toMastraTool } from '../../src/adapters/mastra.js';
import { guardOpenAIAgentsTools } from '../../src/adapters/openai-agents.js';
import { currentCall, GuardedCallError } from '../../src/loop/guard.js';
import { declarePolicy, policyOf } from '../../src/policy.js';
import type { RunContext } from '../../src/run.js';
import { memoryProvider } from '../helpers/provider.js';
import { refundTool } from '../helpers/tools.js';
import { AI_SDKS, scriptedModel as scriptedAiSdkModel } from './scripted.js';
import { sqliteFixture } from './support.js';

const fixture = sqliteFixture();
afterAll(() => fixture.close());

const refundPolicy = { side_effects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', max_attempts: 3 } as const;
const refundInput = z.object({ orderId: z.string(), amountCents: z.number().int().positive() });
const input = { orderId: 'o_1', amountCents: 500 };

interface AppContext {
  readonly run: RunContext;
}

/** An Agents `Model` that calls `toolName` with each of `inputs`, one per turn, then answers. */
function agentsModel(toolName: string, inputs: readonly unknown[]): Model & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    requests,
    async getResponse(request: ModelRequest): Promise<ModelResponse> {
      requests.push(request);
      const next = inputs[requests.length - 1];
      const output: ModelResponse['output'] =
        next === undefined
          ? [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Done.' }] }]
          : [{ type: 'function_call', callId: `call_${Math.random().toString(36).slice(2)}`, name: toolName, arguments: JSON.stringify(next), status: 'completed' }];
      return { usage: new Usage(), output };
    },
    getStreamedResponse() {
      throw new Error('not used');
    },
  };
}

const outputsSeen = (model: { requests: ModelRequest[] }): string[] => {
  const last = model.requests.at(-1)?.input;
  return Array.isArray(last) ? last.flatMap((item) => (item.type === 'function_call_result' ? [JSON.stringify(item.output)] : [])) : [];
};

function agentsRefund(provider = memoryProvider({ dedupeByKey: false })) {
  const tool = declarePolicy(
    agentsTool({
      name: 'issue_refund',
      description: 'Refund part of an order',
      parameters: refundInput,
      execute: async ({ orderId, amountCents }) => provider.refund(orderId, amountCents, currentCall()?.key),
    }),
    refundPolicy,
  );
  return { tool, provider };
}

describe('guardOpenAIAgentsTools', () => {
  it('an agent run where the model repeats the refund: one refund, the second output says replayed', async () => {
    const { tool, provider } = agentsRefund();
    const model = agentsModel('issue_refund', [input, input]);
    const agent = new Agent<AppContext>({
      name: 'Support',
      model,
      tools: guardOpenAIAgentsTools([tool], { runner: fixture.runner, run: (ctx: AgentsRunContext<AppContext>) => ctx.context.run }),
    });
    await runAgent(agent, 'Refund o_1.', { context: { run: await fixture.jobRun() } });
    const seen = outputsSeen(model);
    expect(seen).toHaveLength(2);
    expect(seen[0]).toContain('\\"replayed\\":false');
    expect(seen[1]).toContain('\\"replayed\\":true');
    expect(provider.effects()).toBe(1);
  });

  it('turns a failure into words from the policy instead of the SDK\'s "Please try again"', async () => {
    const provider = memoryProvider({ dedupeByKey: false });
    provider.failNext(5);
    const { tool } = agentsRefund(provider);
    const [guarded] = guardOpenAIAgentsTools([tool], { runner: fixture.runner, run: await fixture.jobRun() });
    const text = await guarded.invoke(new AgentsRunContext({}), JSON.stringify(input));
    expect(text).toMatch(/issue_refund failed \(attempt 1 of 3\)\. It is safe to call it again/);
    expect(text).not.toMatch(/503/);
  });

  it('interrupts a money_out call for approval once; after a resume from the serialized RunState the run id is the same and the repeat replays without asking', async () => {
    const { tool, provider } = agentsRefund();
    const run = await fixture.jobRun();
    const model = agentsModel('issue_refund', [input, input]);
    const agent = new Agent<AppContext>({
      name: 'Support',
      model,
      tools: guardOpenAIAgentsTools([tool], { runner: fixture.runner, run: (ctx: AgentsRunContext<AppContext>) => ctx.context.run, requireApproval: ['money_out'] }),
    });
    const first = await runAgent(agent, 'Refund o_1.', { context: { run } });
    expect(first.interruptions).toHaveLength(1);
    expect(provider.effects()).toBe(0);
    // The process stops here; the state is stored and resumed later, context and all.
    const stored = first.state.toString();
    const state = await RunState.fromString(agent, stored);
    for (const interruption of state.getInterruptions()) state.approve(interruption);
    const resumed = await runAgent(agent, state);
    expect(resumed.interruptions ?? []).toHaveLength(0);
    expect(provider.effects()).toBe(1);
    const seen = outputsSeen(model);
    expect(seen.at(-1)).toContain('\\"replayed\\":true');
  });

  it('refuses an undeclared function tool', () => {
    const plain = agentsTool({ name: 'x', description: 'x', parameters: z.object({}), execute: async () => 1 });
    expect(() => guardOpenAIAgentsTools([plain], { runner: fixture.runner, run: { id: 'run_x' } as never })).toThrow(/declarePolicy/);
  });
});

describe('guardLangChainTools', () => {
  it('invoked with two tool calls of new ids: one refund, the ToolMessage of the second says replayed', async () => {
    const provider = memoryProvider({ dedupeByKey: false });
    const refund = langchainTool(async ({ orderId, amountCents }) => provider.refund(orderId, amountCents, currentCall()?.key), {
      name: 'issue_refund',
      description: 'Refund part of an order',
      schema: refundInput,
      metadata: { retrysafe: refundPolicy },
    });
    const run = await fixture.jobRun();
    const [guarded] = guardLangChainTools([refund], { runner: fixture.runner, run: (config) => config.configurable?.['run'] as RunContext });
    const call = (id: string) => guarded.invoke({ type: 'tool_call', id, name: 'issue_refund', args: input }, { configurable: { run } });
    const first = (await call('call_1')) as { content: string };
    const second = (await call('call_2')) as { content: string };
    expect(JSON.parse(first.content)).toMatchObject({ replayed: false, result: { orderId: 'o_1' } });
    expect(JSON.parse(second.content)).toMatchObject({ replayed: true, result: { orderId: 'o_1' } });
    expect(provider.effects()).toBe(1);
    expect(policyOf(guarded)).toEqual(refundPolicy);
  });

  it('rejects a failure with a GuardedCallError that says whether calling again is safe', async () => {
    const append = declarePolicy(
      langchainTool(async () => {
        throw new Error('timeout after the write');
      }, { name: 'append_note', description: 'x', schema: z.object({ note: z.string() }) }),
      { side_effects: 'internal_write', idempotent: false, retry: 'never' },
    );
    const [guarded] = guardLangChainTools([append], { runner: fixture.runner, run: await fixture.jobRun() });
    await expect(guarded.invoke({ note: 'n' })).rejects.toThrow(GuardedCallError);
    await expect(guarded.invoke({ note: 'n' })).rejects.toThrow(/Do not call it again/);
  });
});

describe('Mastra', () => {
  const mastraRefund = (provider: ReturnType<typeof memoryProvider>) =>
    declarePolicy(
      createTool({
        id: 'issue_refund',
        description: 'Refund part of an order',
        inputSchema: refundInput,
        execute: async ({ orderId, amountCents }) => provider.refund(orderId, amountCents, currentCall()?.key),
      }),
      refundPolicy,
    );

  it('guardMastraTools: a Mastra agent whose model repeats the refund: one refund, the repeat replayed', async () => {
    const provider = memoryProvider({ dedupeByKey: false });
    const sdk = AI_SDKS[0]!;
    const model = scriptedAiSdkModel(sdk, [{ call: 'issue_refund', input }, { call: 'issue_refund', input }, { text: 'Done.' }]);
    const agent = new MastraAgent({
      id: 'support',
      name: 'support',
      instructions: 'Refund orders.',
      model,
      tools: guardMastraTools({ issue_refund: mastraRefund(provider) }, { runner: fixture.runner, run: await fixture.jobRun() }),
    });
    const result = await agent.generate('Refund o_1.', { maxSteps: 5 });
    const outputs = result.toolResults.map((part) => (part as { payload?: { result?: unknown } }).payload?.result ?? (part as { result?: unknown }).result);
    expect(outputs).toEqual([
      { result: expect.objectContaining({ orderId: 'o_1' }), replayed: false },
      { result: expect.objectContaining({ orderId: 'o_1' }), replayed: true },
    ]);
    expect(provider.effects()).toBe(1);
  });

  it('guardMastraTools: invalid arguments get Mastra\'s validation error and run nothing; execute called twice makes one refund', async () => {
    const provider = memoryProvider({ dedupeByKey: false });
    const run = await fixture.jobRun();
    const { issue_refund: guarded } = guardMastraTools({ issue_refund: mastraRefund(provider) }, { runner: fixture.runner, run });
    const context = (id: string) => ({ toolCallId: id, messages: [] }) as never;
    expect(await guarded.execute?.({ orderId: 'o_1', amountCents: -1 }, context('call_mastra_0'))).toMatchObject({ error: true });
    expect(await guarded.execute?.(input, context('call_mastra_1'))).toMatchObject({ replayed: false });
    expect(await guarded.execute?.(input, context('call_mastra_2'))).toMatchObject({ replayed: true });
    expect(provider.effects()).toBe(1);
  });

  it('toMastraTool: a defineTool tool as a Mastra tool, replayed on the second call', async () => {
    const provider = memoryProvider({ dedupeByKey: false });
    const tool = toMastraTool(refundTool(provider), { runner: fixture.runner, run: await fixture.jobRun() });
    expect(policyOf(tool)).toMatchObject({ idempotent: 'with_key' });
    const context = (id: string) => ({ toolCallId: id, messages: [] }) as never;
    expect(await tool.execute?.(input, context('call_mastra_1'))).toMatchObject({ replayed: false });
    expect(await tool.execute?.(input, context('call_mastra_2'))).toMatchObject({ replayed: true });
    expect(provider.effects()).toBe(1);
    expect(guardMastraTools({ tool }, { runner: fixture.runner, run: await fixture.jobRun() }).tool).toBe(tool);
  });
});
