/**
 * guardAiSdkTools on the real AI SDK 6 and 7: native `tool()`s with declared policies, driven by
 * `generateText` and the SDK's own scripted `MockLanguageModelV3`.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { guardAiSdkTools, toAiSdkTool, type AiSdkCallOptions } from '../../src/adapters/ai-sdk.js';
import { currentCall, GuardedCallError } from '../../src/loop/guard.js';
import { declarePolicy, policyOf } from '../../src/policy.js';
import { memoryProvider } from '../helpers/provider.js';
import { refundTool } from '../helpers/tools.js';
import { AI_SDKS, scriptedModel, toolOutputsSeen, type AiSdk } from './scripted.js';
import { sqliteFixture } from './support.js';

const fixture = sqliteFixture();
afterAll(() => fixture.close());

const refundInput = z.object({ orderId: z.string(), amountCents: z.number().int().positive() });

/** A native AI SDK refund tool with a declared policy, over a provider that does not dedupe. */
function nativeRefund(sdk: AiSdk, provider = memoryProvider({ dedupeByKey: false })) {
  const keys: unknown[] = [];
  const tool = declarePolicy(
    sdk.tool({
      description: 'Refund part of an order',
      inputSchema: refundInput,
      execute: async ({ orderId, amountCents }) => {
        keys.push(currentCall()?.key);
        return provider.refund(orderId, amountCents, currentCall()?.key);
      },
    }),
    { side_effects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', max_attempts: 3 },
  );
  return { tool, provider, keys };
}

describe.each(AI_SDKS)('guardAiSdkTools on $name', (sdk) => {
  it('the model repeats a refund with a new call id: one refund, the model reads the second as replayed, the output type is unchanged', async () => {
    const { tool, provider } = nativeRefund(sdk);
    const run = await fixture.jobRun();
    const input = { orderId: 'o_1', amountCents: 500 };
    const model = scriptedModel(sdk, [{ call: 'issue_refund', input }, { call: 'issue_refund', input }, { text: 'Done.' }]);
    const result = await sdk.generateText({
      model,
      tools: guardAiSdkTools({ issue_refund: tool }, { runner: fixture.runner, run }),
      stopWhen: sdk.stepCountIs(5),
      prompt: 'Refund 5 dollars on order o_1.',
    });
    const refund = { refundId: 're_1', orderId: 'o_1', amountCents: 500 };
    expect(result.steps.flatMap((step) => step.toolResults.map((part) => part.output))).toEqual([refund, refund]);
    expect(toolOutputsSeen(model)).toEqual([
      { type: 'json', value: { result: refund, replayed: false } },
      { type: 'json', value: { result: refund, replayed: true } },
    ]);
    expect(provider.effects()).toBe(1);
  });

  it('runs a naturally idempotent tool on every call', async () => {
    let reads = 0;
    const search = declarePolicy(
      sdk.tool({ description: 'Search orders', inputSchema: z.object({ q: z.string() }), execute: async ({ q }) => ({ q, hits: (reads += 1) }) }),
      { side_effects: 'none', idempotent: true, retry: 'safe' },
    );
    const model = scriptedModel(sdk, [{ call: 'search', input: { q: 'a' } }, { call: 'search', input: { q: 'a' } }, { text: 'ok' }]);
    await sdk.generateText({ model, tools: guardAiSdkTools({ search }, { runner: fixture.runner, run: await fixture.jobRun() }), stopWhen: sdk.stepCountIs(5), prompt: 'x' });
    expect(reads).toBe(2);
  });

  it('tells the model a failed refund is safe to call again, and the retry with the same key makes one refund', async () => {
    const provider = memoryProvider({ dedupeByKey: false });
    provider.failNext(1);
    const { tool, keys } = nativeRefund(sdk, provider);
    const input = { orderId: 'o_2', amountCents: 700 };
    const model = scriptedModel(sdk, [{ call: 'issue_refund', input }, { call: 'issue_refund', input }, { text: 'Done.' }]);
    await sdk.generateText({ model, tools: guardAiSdkTools({ issue_refund: tool }, { runner: fixture.runner, run: await fixture.jobRun() }), stopWhen: sdk.stepCountIs(5), prompt: 'x' });
    const seen = toolOutputsSeen(model) as { type: string; value: unknown }[];
    expect(seen[0]).toMatchObject({ type: 'error-text', value: expect.stringContaining('It is safe to call it again with the same arguments') });
    expect(seen[1]).toMatchObject({ type: 'json', value: { replayed: false } });
    expect(provider.effects()).toBe(1);
    expect(new Set(keys).size).toBe(1);
  });

  it('never runs a failed not-safely-repeatable tool again: the model is told a person must check', async () => {
    let writes = 0;
    const append = declarePolicy(
      sdk.tool({ description: 'Append a note', inputSchema: z.object({ note: z.string() }), execute: async (): Promise<{ noteId: string }> => {
        writes += 1;
        throw new Error('timeout after the write');
      } }),
      { side_effects: 'internal_write', idempotent: false, retry: 'never' },
    );
    const model = scriptedModel(sdk, [{ call: 'append_note', input: { note: 'n' } }, { call: 'append_note', input: { note: 'n' } }, { text: 'ok' }]);
    await sdk.generateText({ model, tools: guardAiSdkTools({ append_note: append }, { runner: fixture.runner, run: await fixture.jobRun() }), stopWhen: sdk.stepCountIs(5), prompt: 'x' });
    const seen = toolOutputsSeen(model) as { value: string }[];
    expect(seen.map((part) => part.value)).toEqual([
      expect.stringContaining('Do not call it again; tell the user a person needs to check'),
      expect.stringContaining('Do not call it again'),
    ]);
    expect(writes).toBe(1);
  });

  it('asks for approval of a money_out call once; the same call again replays without asking', async () => {
    const { tool, provider } = nativeRefund(sdk);
    const run = await fixture.jobRun();
    const tools = guardAiSdkTools({ issue_refund: tool }, { runner: fixture.runner, run, requireApproval: ['money_out'] });
    const input = { orderId: 'o_3', amountCents: 900 };
    const model = scriptedModel(sdk, [{ call: 'issue_refund', input }, { text: 'Done.' }, { call: 'issue_refund', input }, { text: 'Done again.' }]);
    const messages: unknown[] = [{ role: 'user', content: 'Refund o_3.' }];
    const first = await sdk.generateText({ model, tools, stopWhen: sdk.stepCountIs(5), messages: messages as never });
    const requests = first.content.filter((part) => part.type === 'tool-approval-request');
    expect(requests).toHaveLength(1);
    expect(provider.effects()).toBe(0);
    messages.push(...responseMessages(first));
    messages.push({ role: 'tool', content: requests.map((part) => ({ type: 'tool-approval-response', approvalId: (part as { approvalId: string }).approvalId, approved: true })) });
    await sdk.generateText({ model, tools, stopWhen: sdk.stepCountIs(5), messages: messages as never });
    expect(provider.effects()).toBe(1);
    // The model asks for the same refund again (its history trimmed): no approval request, a replay.
    const again = await sdk.generateText({ model, tools, stopWhen: sdk.stepCountIs(5), prompt: 'Refund o_3.' });
    expect(again.content.filter((part) => part.type === 'tool-approval-request')).toHaveLength(0);
    expect(toolOutputsSeen(model)).toEqual([{ type: 'json', value: { result: expect.objectContaining({ orderId: 'o_3' }), replayed: true } }]);
    expect(provider.effects()).toBe(1);
  });

  it('refuses a tool without a declared policy, and leaves client-side and toAiSdkTool tools as they are', async () => {
    const plain = sdk.tool({ description: 'x', inputSchema: z.object({}), execute: async () => 1 });
    expect(() => guardAiSdkTools({ plain }, { runner: fixture.runner, run: { id: 'run_x' } as never })).toThrow(/declarePolicy/);
    const clientSide = sdk.tool({ description: 'ask the user', inputSchema: z.object({}) });
    const adapted = toAiSdkTool(refundTool(memoryProvider()), { runner: fixture.runner, run: await fixture.jobRun() });
    const guarded = guardAiSdkTools({ clientSide, adapted }, { runner: fixture.runner, run: await fixture.jobRun() });
    expect(guarded.clientSide).toBe(clientSide);
    expect(guarded.adapted).toBe(adapted);
    const { tool } = nativeRefund(sdk);
    expect(policyOf(guardAiSdkTools({ tool }, { runner: fixture.runner, run: await fixture.jobRun() }).tool)).toEqual(policyOf(tool));
  });

  it('rejects a run built from the tool-call id (a new one every turn), with a GuardedCallError nowhere in sight: nothing ran', async () => {
    const { tool, provider } = nativeRefund(sdk);
    const guarded = guardAiSdkTools({ tool }, { runner: fixture.runner, run: (options: AiSdkCallOptions) => ({ id: `run_${options.toolCallId}` }) as never });
    const call = guarded.tool.execute?.({ orderId: 'o_4', amountCents: 1 }, { toolCallId: 'call_abc', messages: [] } as never);
    await expect(call).rejects.toThrow(/tool call id/);
    await expect(call).rejects.not.toBeInstanceOf(GuardedCallError);
    expect(provider.effects()).toBe(0);
  });
});

// The messages a generation added: `response.messages` in AI SDK 6, `responseMessages` in 7.
function responseMessages(result: unknown): unknown[] {
  const r = result as { response?: { messages?: unknown[] }; responseMessages?: unknown[] };
  return r.responseMessages ?? r.response?.messages ?? [];
}
