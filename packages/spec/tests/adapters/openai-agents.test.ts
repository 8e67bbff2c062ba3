/**
 * The OpenAI Agents adapter with the real `@openai/agents` 0.20: a whole agent `run()` over a
 * scripted `Model` (the SDK's own interface) that calls the tool on two turns, and the function
 * tool's own `invoke(runContext, argumentsJson, details)`, which is how the SDK calls a tool.
 */
import { Agent, run as runAgent, RunContext as AgentsRunContext, Usage, type Model, type ModelRequest, type ModelResponse } from '@openai/agents';
import { type } from 'arktype';
import * as v from 'valibot';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { z as z3 } from 'zod/v3';
import { agentsFailureText, toOpenAIAgentsTool, type AgentsToolCallDetails } from '../../src/adapters/openai-agents.js';
import { vouchDurable } from '../../src/durable.js';
import { ConcurrentCallError } from '../../src/errors.js';
import { key } from '../../src/key.js';
import { policyOf } from '../../src/policy.js';
import type { RunContext } from '../../src/run.js';
import { defineTool } from '../../src/tool.js';
import { memoryProvider } from '../helpers/provider.js';
import { incrementTool, refundTool, setStatusTool } from '../helpers/tools.js';
import { chargeTool, sqliteFixture, ticketTool } from './support.js';

const fixture = sqliteFixture();
afterAll(() => fixture.close());

interface AppContext {
  readonly run: RunContext;
}

/** A model that calls `toolName` with each of `inputs`, one per turn, then answers; it keeps every request. */
function scriptedModel(toolName: string, inputs: readonly unknown[]): Model & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    requests,
    async getResponse(request: ModelRequest): Promise<ModelResponse> {
      requests.push(request);
      const turn = requests.length - 1;
      const input = inputs[turn];
      const output: ModelResponse['output'] =
        input === undefined
          ? [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Done.' }] }]
          : [{ type: 'function_call', callId: `call_${turn}_${Math.random().toString(36).slice(2)}`, name: toolName, arguments: JSON.stringify(input), status: 'completed' }];
      return { usage: new Usage(), output };
    },
    getStreamedResponse() {
      throw new Error('not used');
    },
  };
}

/** The tool outputs the model was sent on its last turn. */
function toolOutputsSeenByModel(model: { requests: ModelRequest[] }): unknown[] {
  const input = model.requests.at(-1)?.input;
  if (!Array.isArray(input)) return [];
  return input.flatMap((item) => (item.type === 'function_call_result' ? [item.output] : []));
}

const textOf = (output: unknown): string =>
  typeof output === 'string' ? output : (output as { type?: string; text?: string }).type === 'text' ? String((output as { text: string }).text) : JSON.stringify(output);

const invoke = (agentsTool: { invoke: (ctx: AgentsRunContext<AppContext>, input: string, details?: AgentsToolCallDetails) => Promise<unknown> }, run: RunContext, input: unknown) =>
  agentsTool.invoke(new AgentsRunContext<AppContext>({ run }), JSON.stringify(input));

describe('toOpenAIAgentsTool', () => {
  it('replays a with_key tool the model calls on two turns: one refund, the second output flagged replayed', async () => {
    const provider = memoryProvider({ dedupeByKey: false });
    const run = await fixture.jobRun();
    const model = scriptedModel('issue_refund', [{ orderId: 'o_1', amountCents: 500 }, { orderId: 'o_1', amountCents: 500 }]);
    const agent = new Agent<AppContext>({
      name: 'Support',
      model,
      // As the module's TSDoc shows it: the context type comes from the run function's parameter.
      tools: [toOpenAIAgentsTool(refundTool(provider), { runner: fixture.runner, run: (ctx: AgentsRunContext<AppContext>) => ctx.context.run })],
    });
    const result = await runAgent(agent, 'Refund 5 dollars on order o_1.', { context: { run } });
    expect(result.finalOutput).toBe('Done.');
    expect(provider.effects()).toBe(1);
    expect(provider.calls()).toEqual([`${run.id}:o_1:refund`]);
    const refund = { refundId: 're_1', orderId: 'o_1', amountCents: 500 };
    const seen = toolOutputsSeenByModel(model).map((output) => JSON.parse(textOf(output)) as unknown);
    expect(seen).toEqual([
      { result: refund, replayed: false },
      { result: refund, replayed: true },
    ]);
  });

  it('declares the policy on the function tool and describes the parameters as strict JSON Schema', async () => {
    const agentsTool = toOpenAIAgentsTool(refundTool(memoryProvider()), { runner: fixture.runner, run: await fixture.jobRun() });
    expect(policyOf(agentsTool)).toEqual({ side_effects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', max_attempts: 3 });
    expect(agentsTool).toMatchObject({ type: 'function', name: 'issue_refund', description: 'Refund part of an order', strict: true });
    expect(agentsTool.parameters).toMatchObject({
      type: 'object',
      properties: { orderId: { type: 'string' }, amountCents: { type: 'integer' } },
      required: ['orderId', 'amountCents'],
      additionalProperties: false,
    });
  });

  it('runs a naturally idempotent tool on every call, and a not-safely-repeatable one once per call', async () => {
    const run = await fixture.jobRun();
    const writes = { count: 0 };
    const setStatus = toOpenAIAgentsTool(setStatusTool(new Map(), writes), { runner: fixture.runner, run });
    const input = { orderId: 'o_2', status: 'shipped' };
    expect(await invoke(setStatus, run, input)).toEqual({ result: input, replayed: false });
    expect(await invoke(setStatus, run, input)).toEqual({ result: input, replayed: false });
    expect(writes.count).toBe(2);

    const balance = { cents: 0 };
    const increment = toOpenAIAgentsTool(incrementTool(balance), { runner: fixture.runner, run });
    await invoke(increment, run, { cents: 100 });
    await invoke(increment, run, { cents: 100 });
    expect(balance.cents).toBe(200);
  });

  it('tells the model which arguments are invalid, and runs nothing', async () => {
    const provider = memoryProvider();
    const run = await fixture.jobRun();
    const agentsTool = toOpenAIAgentsTool(refundTool(provider), { runner: fixture.runner, run });
    const output = await invoke(agentsTool, run, { orderId: 'o_3', amountCents: -5 });
    expect(output).toMatch(/^Invalid input for tool "issue_refund" \(1 issue\):\n {2}- amountCents: .+\nNothing ran\. Fix the arguments and call issue_refund again\.$/);
    expect(provider.calls()).toEqual([]);
  });

  it('validates the arguments once: a schema that transforms its input works and replays', async () => {
    const charges: string[] = [];
    const run = await fixture.jobRun();
    const agentsTool = toOpenAIAgentsTool(chargeTool(charges), { runner: fixture.runner, run });
    expect(await invoke(agentsTool, run, { cardId: 'card_1', amount: '12.50' })).toEqual({ result: { chargeId: 'ch_1', cents: 1250 }, replayed: false });
    expect(await invoke(agentsTool, run, { cardId: 'card_1', amount: '12.50' })).toEqual({ result: { chargeId: 'ch_1', cents: 1250 }, replayed: true });
    expect(charges).toEqual(['card_1:1250']);
  });

  it('answers a concurrent twin with "try again later" (409), not "failed", and runs the effect once', async () => {
    const provider = memoryProvider({ dedupeByKey: false });
    const run = await fixture.jobRun();
    const agentsTool = toOpenAIAgentsTool(refundTool(provider), { runner: fixture.runner, run });
    const input = { orderId: 'o_5', amountCents: 700 };
    const held = provider.hold();
    const first = invoke(agentsTool, run, input);
    await held.started;
    const twin = await invoke(agentsTool, run, input);
    expect(twin).toBe(
      'issue_refund is already running with these arguments (409 Conflict). This call did not run it again, and nothing has failed. ' +
        'Try again a little later with the same arguments to get its result.',
    );
    held.release();
    expect(await first).toMatchObject({ replayed: false });
    expect(await invoke(agentsTool, run, input)).toMatchObject({ replayed: true, result: { refundId: 're_1' } });
    expect(provider.effects()).toBe(1);
  });

  it('lets the runner error fail the run with errorFunction: null', async () => {
    const provider = memoryProvider({ dedupeByKey: false });
    const run = await fixture.jobRun();
    const agentsTool = toOpenAIAgentsTool(refundTool(provider), { runner: fixture.runner, run, errorFunction: null });
    const held = provider.hold();
    const first = invoke(agentsTool, run, { orderId: 'o_6', amountCents: 1 });
    await held.started;
    await expect(invoke(agentsTool, run, { orderId: 'o_6', amountCents: 1 })).rejects.toBeInstanceOf(ConcurrentCallError);
    held.release();
    await first;
    expect(provider.effects()).toBe(1);
  });

  it("says whether calling again is safe after the tool's own error, from the declared policy", async () => {
    const run = await fixture.jobRun();
    const provider = memoryProvider({ dedupeByKey: false });
    provider.failNext(1, 'card processor said: secret-token-123 rejected');
    const refund = toOpenAIAgentsTool(refundTool(provider), { runner: fixture.runner, run });
    const output = String(await invoke(refund, run, { orderId: 'o_7', amountCents: 1 }));
    expect(output).toBe('issue_refund failed (attempt 1 of 3). It is safe to call it again with the same arguments: if an earlier attempt took effect, its result is returned instead of repeating it.');
    expect(output).not.toContain('secret-token'); // like the SDK's default, the tool's own message stays out

    const balance = { cents: 0 };
    const increment = toOpenAIAgentsTool(incrementTool(balance, () => new Error('ledger timeout')), { runner: fixture.runner, run });
    expect(await invoke(increment, run, { cents: 5 })).toBe(
      'increment_balance failed, and its effect (internal_write) may or may not have happened. Do not call it again; tell the user a person needs to check.',
    );
    expect(agentsFailureText('x', new Error('boom'))).toBe('x failed.');
  });

  it('refuses a run built from the call id', async () => {
    const provider = memoryProvider();
    const agentsTool = toOpenAIAgentsTool(refundTool(provider), {
      runner: fixture.runner,
      run: (_ctx, details) => ({ id: vouchDurable(`run-${details?.toolCall?.callId ?? ''}`) }),
      errorFunction: null,
    });
    const details = { toolCall: { type: 'function_call', callId: 'call_Zx81kq', name: 'issue_refund', arguments: '{}' } } as AgentsToolCallDetails;
    await expect(agentsTool.invoke(new AgentsRunContext({}), JSON.stringify({ orderId: 'o_8', amountCents: 1 }), details)).rejects.toThrow(/contains the tool call id "call_Zx81kq"/);
    expect(provider.calls()).toEqual([]);
  });

  it('fails the run with the real TypeError for a run built from the call id, past the default errorFunction and yours', async () => {
    const provider = memoryProvider();
    const fromCallId = (_ctx: AgentsRunContext<AppContext>, details: AgentsToolCallDetails | undefined) => ({ id: vouchDurable(`run-${details?.toolCall?.callId ?? ''}`) });
    const worded: unknown[] = [];
    const tools = [
      toOpenAIAgentsTool(refundTool(provider), { runner: fixture.runner, run: fromCallId }),
      toOpenAIAgentsTool(refundTool(provider), { runner: fixture.runner, run: fromCallId, errorFunction: (_ctx, error) => (worded.push(error), 'refund failed') }),
    ];
    for (const refund of tools) {
      const model = scriptedModel('issue_refund', [{ orderId: 'o_9', amountCents: 1 }]);
      const agent = new Agent<AppContext>({ name: 'Support', model, tools: [refund] });
      await expect(runAgent(agent, 'refund o_9', { context: { run: await fixture.jobRun() } })).rejects.toThrow(/contains the tool call id "call_0_/);
      // The model never saw a "failed" text it might act on: the run stopped at the tool call.
      expect(model.requests).toHaveLength(1);
    }
    expect(worded).toEqual([]);
    expect(provider.calls()).toEqual([]);
  });

  it('fails the run with a misconfigured key function (InvalidKeyError), and still words the tool\'s own errors', async () => {
    const effects: string[] = [];
    const badKey = defineTool({
      name: 'open_case',
      sideEffects: 'internal_write',
      idempotent: 'with_key',
      retry: 'safe_with_same_key',
      input: z.object({ subject: z.string() }),
      key: () => key`${vouchDurable('x'.repeat(300))}`,
      execute: async ({ subject }) => void effects.push(subject),
    });
    const run = await fixture.jobRun();
    await expect(invoke(toOpenAIAgentsTool(badKey, { runner: fixture.runner, run }), run, { subject: 'a' })).rejects.toMatchObject({ code: 'invalid_key' });
    expect(effects).toEqual([]);
    // A TypeError from the tool itself (fetch's "fetch failed" is one) is the call's outcome, worded for the model.
    const balance = { cents: 0 };
    const increment = toOpenAIAgentsTool(incrementTool(balance, () => new TypeError('fetch failed')), { runner: fixture.runner, run });
    expect(await invoke(increment, run, { cents: 5 })).toMatch(/^increment_balance failed, and its effect \(internal_write\) may or may not have happened/);
  });

  describe('schemas', () => {
    it('takes a Standard JSON Schema that is not zod (arktype)', async () => {
      const effects: string[] = [];
      const run = await fixture.jobRun();
      const agentsTool = toOpenAIAgentsTool(ticketTool(type({ subject: 'string' }) as never, effects), { runner: fixture.runner, run });
      expect(agentsTool.parameters).toMatchObject({ type: 'object', properties: { subject: { type: 'string' } } });
      await invoke(agentsTool, run, { subject: 'Broken' });
      expect(await invoke(agentsTool, run, { subject: 'Broken' })).toEqual({ result: { ticket: 1 }, replayed: true });
      expect(effects).toEqual(['Broken']);
    });

    it('passes a zod 3 object to the SDK, which parses the arguments', async () => {
      const effects: string[] = [];
      const run = await fixture.jobRun();
      const agentsTool = toOpenAIAgentsTool(ticketTool(z3.object({ subject: z3.string().transform((s) => s.trim()) }) as never, effects), { runner: fixture.runner, run });
      expect(await invoke(agentsTool, run, { subject: ' Broken ' })).toEqual({ result: { ticket: 1 }, replayed: false });
      expect(await invoke(agentsTool, run, { subject: 'Broken' })).toEqual({ result: { ticket: 1 }, replayed: true });
      expect(String(await invoke(agentsTool, run, { subject: 3 }))).toMatch(/^Invalid input for tool "create_ticket".*\nNothing ran\./s);
      expect(effects).toEqual(['Broken']);
    });

    it('refuses a schema with no JSON Schema, saying what to pass', async () => {
      const run = await fixture.jobRun();
      expect(() => toOpenAIAgentsTool(ticketTool(v.object({ subject: v.string() }) as never, []), { runner: fixture.runner, run })).toThrow(
        /\(valibot\) implements neither Standard JSON Schema.*toStandardJsonSchema from '@valibot\/to-json-schema'/s,
      );
      expect(() => toOpenAIAgentsTool(ticketTool(z.string() as never, []), { runner: fixture.runner, run })).toThrow(/not an object schema/);
    });
  });
});
