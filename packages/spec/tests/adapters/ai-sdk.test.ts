/**
 * The AI SDK adapter with the real AI SDK 6: `generateText` drives the tool loop, and the model is
 * the SDK's own `MockLanguageModelV3`, scripted to call the tool on one step and again on the next
 * (the seed's "model repetition after context loss").
 */
import { asSchema, generateText, stepCountIs, type ModelMessage, type ToolExecutionOptions } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { type } from 'arktype';
import * as v from 'valibot';
import { afterAll, describe, expect, it } from 'vitest';
import { toAiSdkTool } from '../../src/adapters/ai-sdk.js';
import { vouchDurable } from '../../src/durable.js';
import { ConcurrentCallError } from '../../src/errors.js';
import { key } from '../../src/key.js';
import { policyOf } from '../../src/policy.js';
import { decideRetry } from '../../src/retry.js';
import { defineTool } from '../../src/tool.js';
import { InputValidationError } from '../../src/validate.js';
import { memoryProvider } from '../helpers/provider.js';
import { incrementTool, refundTool, setStatusTool } from '../helpers/tools.js';
import { chargeTool, sqliteFixture } from './support.js';

const fixture = sqliteFixture();
afterAll(() => fixture.close());

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/** A model that calls `toolName` once per step with each of `inputs`, then answers in text. */
function scriptedModel(toolName: string, inputs: readonly unknown[]) {
  return new MockLanguageModelV3({
    doGenerate: [
      ...inputs.map((input, index) => ({
        content: [{ type: 'tool-call' as const, toolCallId: `call_${index + 1}_${Math.random().toString(36).slice(2)}`, toolName, input: JSON.stringify(input) }],
        finishReason: { unified: 'tool-calls' as const, raw: 'tool_calls' },
        usage,
        warnings: [],
      })),
      { content: [{ type: 'text' as const, text: 'Done.' }], finishReason: { unified: 'stop' as const, raw: 'stop' }, usage, warnings: [] },
    ],
  });
}

/** The tool results the model was shown in the prompt of its last step. */
function toolResultsSeenByModel(model: MockLanguageModelV3): unknown[] {
  const prompt = model.doGenerateCalls.at(-1)?.prompt ?? [];
  return prompt.flatMap((message) =>
    message.role === 'tool' ? message.content.flatMap((part) => (part.type === 'tool-result' ? [part.output] : [])) : [],
  );
}

const executeOptions = (toolCallId = `call_${Math.random().toString(36).slice(2)}`): ToolExecutionOptions => ({
  toolCallId,
  messages: [] as ModelMessage[],
});

describe('toAiSdkTool', () => {
  it('replays a with_key tool the model calls twice: one refund, the second result flagged replayed', async () => {
    const provider = memoryProvider({ dedupeByKey: false });
    const run = await fixture.jobRun();
    const model = scriptedModel('issue_refund', [{ orderId: 'o_1', amountCents: 500 }, { orderId: 'o_1', amountCents: 500 }]);
    const result = await generateText({
      model,
      tools: { issue_refund: toAiSdkTool(refundTool(provider), { runner: fixture.runner, run }) },
      stopWhen: stepCountIs(5),
      prompt: 'Refund 5 dollars on order o_1.',
    });
    const outputs = result.steps.flatMap((step) => step.toolResults.map((part) => part.output));
    const refund = { refundId: 're_1', orderId: 'o_1', amountCents: 500 };
    expect(outputs).toEqual([
      { result: refund, replayed: false },
      { result: refund, replayed: true },
    ]);
    expect(provider.effects()).toBe(1);
    expect(provider.calls()).toEqual([`${run.id}:o_1:refund`]);
    // What the model read on its last step: both results, the second flagged as a replay.
    expect(toolResultsSeenByModel(model)).toEqual([
      { type: 'json', value: { result: refund, replayed: false } },
      { type: 'json', value: { result: refund, replayed: true } },
    ]);
    expect(result.text).toBe('Done.');
  });

  it('declares the policy on the AI SDK tool and gives the model the JSON Schema of the input', async () => {
    const retrysafeTool = refundTool(memoryProvider());
    const aiTool = toAiSdkTool(retrysafeTool, { runner: fixture.runner, run: await fixture.jobRun() });
    expect(policyOf(aiTool)).toEqual({ side_effects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', max_attempts: 3 });
    expect(aiTool.description).toBe('Refund part of an order');
    expect(await asSchema(aiTool.inputSchema).jsonSchema).toMatchObject({
      type: 'object',
      properties: { orderId: { type: 'string' }, amountCents: { type: 'integer' } },
      required: ['orderId', 'amountCents'],
    });
  });

  it('runs a naturally idempotent tool on every call, and a not-safely-repeatable one once per call', async () => {
    const state = new Map<string, string>();
    const writes = { count: 0 };
    const run = await fixture.jobRun();
    const setStatus = toAiSdkTool(setStatusTool(state, writes), { runner: fixture.runner, run });
    const input = { orderId: 'o_2', status: 'shipped' as const };
    expect(await setStatus.execute?.(input, executeOptions())).toEqual({ result: input, replayed: false });
    expect(await setStatus.execute?.(input, executeOptions())).toEqual({ result: input, replayed: false });
    expect(writes.count).toBe(2);

    const balance = { cents: 0 };
    const increment = toAiSdkTool(incrementTool(balance), { runner: fixture.runner, run });
    await increment.execute?.({ cents: 100 }, executeOptions());
    await increment.execute?.({ cents: 100 }, executeOptions());
    expect(balance.cents).toBe(200); // no record, no replay: this is why such a tool is never retried
  });

  it('reports invalid input to the model as an invalid tool call, and runs nothing', async () => {
    const provider = memoryProvider();
    const model = scriptedModel('issue_refund', [{ orderId: 'o_3', amountCents: -5 }]);
    const result = await generateText({
      model,
      tools: { issue_refund: toAiSdkTool(refundTool(provider), { runner: fixture.runner, run: await fixture.jobRun() }) },
      stopWhen: stepCountIs(5),
      prompt: 'Refund order o_3.',
    });
    expect(provider.calls()).toEqual([]);
    const [error] = result.steps[0]?.content.filter((part) => part.type === 'tool-error') ?? [];
    expect(error).toMatchObject({ type: 'tool-error', toolName: 'issue_refund' });
    const seen = JSON.stringify(toolResultsSeenByModel(model));
    expect(seen).toContain('Invalid input for tool \\"issue_refund\\"');
    expect(seen).toContain('amountCents');
  });

  it('validates when execute is called directly, too', async () => {
    const provider = memoryProvider();
    const aiTool = toAiSdkTool(refundTool(provider), { runner: fixture.runner, run: await fixture.jobRun() });
    // The input type is the schema's input; a wrong value must still be refused at run time.
    const wrong = { orderId: 'o_4', amountCents: 'five' } as unknown as { orderId: string; amountCents: number };
    await expect(aiTool.execute?.(wrong, executeOptions())).rejects.toBeInstanceOf(InputValidationError);
    expect(provider.calls()).toEqual([]);
  });

  it('validates the arguments once: a schema that transforms its input works and replays', async () => {
    const charges: string[] = [];
    const model = scriptedModel('charge_card', [{ cardId: 'card_1', amount: '12.50' }, { cardId: 'card_1', amount: '12.50' }]);
    const result = await generateText({
      model,
      tools: { charge_card: toAiSdkTool(chargeTool(charges), { runner: fixture.runner, run: await fixture.jobRun() }) },
      stopWhen: stepCountIs(5),
      prompt: 'Charge card_1 12.50 dollars.',
    });
    expect(result.steps.flatMap((step) => step.content.filter((part) => part.type === 'tool-error'))).toEqual([]);
    expect(result.steps.flatMap((step) => step.toolResults.map((part) => part.output))).toEqual([
      { result: { chargeId: 'ch_1', cents: 1250 }, replayed: false },
      { result: { chargeId: 'ch_1', cents: 1250 }, replayed: true },
    ]);
    expect(charges).toEqual(['card_1:1250']);
  });

  it('answers a concurrent twin with ConcurrentCallError (409) and runs the effect once', async () => {
    const provider = memoryProvider({ dedupeByKey: false });
    const retrysafeTool = refundTool(provider);
    const aiTool = toAiSdkTool(retrysafeTool, { runner: fixture.runner, run: await fixture.jobRun() });
    const input = { orderId: 'o_5', amountCents: 700 };
    const held = provider.hold();
    const first = aiTool.execute?.(input, executeOptions());
    await held.started;
    const twin = await Promise.resolve(aiTool.execute?.(input, executeOptions())).catch((error: unknown) => error);
    expect(twin).toBeInstanceOf(ConcurrentCallError);
    expect(twin).toMatchObject({ httpStatus: 409 });
    expect(decideRetry(retrysafeTool.policy, { error: twin, attempt: 1 })).toMatchObject({ action: 'retry' });
    held.release();
    expect(await first).toMatchObject({ replayed: false });
    expect(await aiTool.execute?.(input, executeOptions())).toMatchObject({ replayed: true, result: { refundId: 're_1' } });
    expect(provider.effects()).toBe(1);
  });

  it('takes the run from the execute options, and refuses one built from the tool call id', async () => {
    const provider = memoryProvider({ dedupeByKey: false });
    const run = await fixture.jobRun();
    const fromContext = toAiSdkTool(refundTool(provider), {
      runner: fixture.runner,
      run: (options) => (options.experimental_context as { run: typeof run }).run,
    });
    const input = { orderId: 'o_6', amountCents: 100 };
    await fromContext.execute?.(input, { ...executeOptions(), experimental_context: { run } });
    expect(await fromContext.execute?.(input, { ...executeOptions(), experimental_context: { run } })).toMatchObject({ replayed: true });
    expect(provider.effects()).toBe(1);

    const perTurn = toAiSdkTool(refundTool(provider), { runner: fixture.runner, run: (options) => ({ id: vouchDurable(`run_${options.toolCallId}`) }) });
    await expect(perTurn.execute?.(input, executeOptions('call_AbC123xyz'))).rejects.toThrow(/contains the tool call id "call_AbC123xyz"/);
    expect(provider.effects()).toBe(1);
  });

  it('does not start an effect for a generation that was already aborted', async () => {
    const provider = memoryProvider();
    const aiTool = toAiSdkTool(refundTool(provider), { runner: fixture.runner, run: await fixture.jobRun() });
    const controller = new AbortController();
    controller.abort();
    await expect(aiTool.execute?.({ orderId: 'o_7', amountCents: 1 }, { ...executeOptions(), abortSignal: controller.signal })).rejects.toThrow();
    expect(provider.calls()).toEqual([]);
  });

  it('takes a Standard JSON Schema that is not zod (arktype)', async () => {
    const tickets: string[] = [];
    const ticketTool = defineTool({
      name: 'create_ticket',
      sideEffects: 'internal_write',
      idempotent: 'with_key',
      retry: 'safe_with_same_key',
      input: type({ subject: 'string > 3' }),
      key: ({ run, input }) => key`${run.id}:${input.subject}:ticket`,
      execute: async ({ subject }) => {
        tickets.push(subject);
        return { ticket: tickets.length };
      },
    });
    const model = scriptedModel('create_ticket', [{ subject: 'Bad' }, { subject: 'Broken' }, { subject: 'Broken' }]);
    const aiTool = toAiSdkTool(ticketTool, { runner: fixture.runner, run: await fixture.jobRun() });
    expect(await asSchema(aiTool.inputSchema).jsonSchema).toMatchObject({ type: 'object', properties: { subject: { type: 'string', minLength: 4 } } });
    const result = await generateText({ model, tools: { create_ticket: aiTool }, stopWhen: stepCountIs(5), prompt: 'File a ticket.' });
    expect(result.steps[0]?.content.some((part) => part.type === 'tool-error')).toBe(true);
    expect(result.steps.flatMap((step) => step.toolResults.map((part) => part.output))).toEqual([
      { result: { ticket: 1 }, replayed: false },
      { result: { ticket: 1 }, replayed: true },
    ]);
    expect(tickets).toEqual(['Broken']);
  });

  it('refuses what it cannot adapt, saying what to pass', async () => {
    const run = await fixture.jobRun();
    expect(() => toAiSdkTool({ name: 'x' } as never, { runner: fixture.runner, run })).toThrow(/defineTool\(\).*declarePolicy/);
    const valibotTool = defineTool({
      name: 'get_order',
      sideEffects: 'none',
      idempotent: true,
      retry: 'safe',
      input: v.object({ orderId: v.string() }),
      execute: async ({ orderId }) => ({ orderId }),
    });
    expect(() => toAiSdkTool(valibotTool, { runner: fixture.runner, run })).toThrow(/\(valibot\) has no JSON Schema.*zod/s);
    expect(() => toAiSdkTool(refundTool(memoryProvider()), { runner: fixture.runner, run: { id: '' } as never })).toThrow(/RunContext/);
  });
});
