/**
 * The called-twice helpers on framework tools (new-user trial): an AI SDK, OpenAI Agents,
 * LangChain and Mastra tool with a policy declared by `declarePolicy`, or a guard's copy, called
 * twice through its real guard on the real package; a tool declared naturally idempotent that
 * accumulates fails; a tool with no policy, or a value that is no tool, gets an error that says
 * what the helpers take.
 */
import { AssertionError } from 'node:assert';
import { tool as agentsTool } from '@openai/agents';
import { tool as langchainTool } from '@langchain/core/tools';
import { createTool } from '@mastra/core/tools';
import { tool as aiSdkTool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { guardAiSdkTools } from '../../src/adapters/ai-sdk.js';
import { guardLangChainTools } from '../../src/adapters/langchain.js';
import { guardMastraTools } from '../../src/adapters/mastra.js';
import { guardOpenAIAgentsTools } from '../../src/adapters/openai-agents.js';
import { currentCall } from '../../src/loop/guard.js';
import { declarePolicy, ToolPolicyError, type PolicyDeclaration } from '../../src/policy.js';
import { createRunner, type Runner } from '../../src/runner.js';
import { createNonDurableMemoryStore } from '../../src/stores/memory.js';
import { callTwice, expectSingleEffect } from '../../src/testing.js';
import { memoryProvider } from '../helpers/provider.js';

const withKey = { side_effects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key' } as const;
const naturally = { side_effects: 'internal_write', idempotent: true, retry: 'safe' } as const;
const notRepeatable = { side_effects: 'internal_write', idempotent: false, retry: 'never' } as const;
const schema = z.object({ orderId: z.string(), amountCents: z.number().int().positive() });
const input = { orderId: 'o_1', amountCents: 500 };
type Args = z.infer<typeof schema>;
type Effect = (args: Args) => Promise<unknown>;

/** Each framework's own tool, its policy declared the way the docs show, running `effect`. */
const frameworks: Record<string, (policy: PolicyDeclaration, effect: Effect) => object> = {
  'AI SDK tool()': (policy, effect) => declarePolicy(aiSdkTool({ description: 'Refund', inputSchema: schema, execute: effect }), policy as typeof withKey),
  'OpenAI Agents tool()': (policy, effect) =>
    declarePolicy(agentsTool({ name: 'issue_refund', description: 'Refund', parameters: schema, execute: async (args) => JSON.stringify(await effect(args)) }), policy as typeof withKey),
  'LangChain tool()': (policy, effect) => declarePolicy(langchainTool(async (args: Args) => JSON.stringify(await effect(args)), { name: 'issue_refund', description: 'Refund', schema }), policy as typeof withKey),
  'Mastra createTool()': (policy, effect) =>
    declarePolicy(createTool({ id: 'issue_refund', description: 'Refund', inputSchema: schema, execute: async (args: Args) => effect(args) }), policy as typeof withKey),
};

describe.each(Object.entries(frameworks))('%s with a declared policy', (framework, build) => {
  it('with_key: passes through the real guard: one execution, one effect, the second call replayed with the same result', async () => {
    const provider = memoryProvider({ dedupeByKey: false });
    const keys: unknown[] = [];
    const refund = build(withKey, async ({ orderId, amountCents }) => {
      keys.push(currentCall()?.key); // set by the guard only
      return provider.refund(orderId, amountCents, currentCall()?.key);
    });
    const report = await expectSingleEffect(refund, input, { effects: () => provider.effects() });
    expect(report).toMatchObject({ executions: 1, effects: 1, effectsOfSecondCall: 0, first: { replayed: false }, second: { replayed: true } });
    expect(report.second.result).toEqual(report.first.result);
    expect(keys).toHaveLength(1);
    expect(String(keys[0])).toContain('called-twice-test:'); // the helper's run, not a guard's
  });

  it('declared naturally idempotent but accumulating: fails, two effects for two identical calls', async () => {
    let notes = 0;
    const append = build(naturally, async () => ({ notes: ++notes }));
    const error = await expectSingleEffect(append, input, { effects: () => notes }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AssertionError);
    expect((error as Error).message).toMatch(/declared naturally idempotent, but the second identical call changed what `effects` counts \(by 1\)/);
    const report = await callTwice(append, input, { effects: () => notes });
    expect(report).toMatchObject({ executions: 2, effects: 2, first: { replayed: false }, second: { replayed: false } });
  });

  it('not safely repeatable: the guard records the call, so the identical repeat replays (held to the with_key checks)', async () => {
    let sent = 0;
    const send = build(notRepeatable, async () => ({ sent: ++sent }));
    const report = await expectSingleEffect(send, input, { effects: () => sent });
    expect(report).toMatchObject({ executions: 1, effects: 1, second: { replayed: true } });
  });

  it('fails when the guard cannot replay (a runner that forgets every record): execute ran 2 times', async () => {
    const provider = memoryProvider({ dedupeByKey: false });
    const refund = build(withKey, async ({ orderId, amountCents }) => provider.refund(orderId, amountCents));
    const base = createRunner({ store: createNonDurableMemoryStore() });
    const forgetful: Runner = { ...base, tryCall: (tool, raw, options) => createRunner({ store: createNonDurableMemoryStore() }).tryCall(tool, raw, options) };
    const error = await expectSingleEffect(refund, input, { runner: forgetful, effects: () => provider.effects() }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AssertionError);
    expect((error as Error).message).toMatch(/execute ran 2 times/);
  });

  it("a failing call rejects with the tool's own error, unchanged (the Agents SDK's default errorFunction keeps it: then the guard's error)", async () => {
    const boom = new Error('provider down');
    const refund = build(withKey, async () => {
      throw boom;
    });
    if (framework.startsWith('OpenAI Agents')) await expect(callTwice(refund, input)).rejects.toThrow(/issue_refund failed \(the Agents SDK reported its default error text\)/);
    else await expect(callTwice(refund, input)).rejects.toBe(boom);
  });
});

describe('a guard-made copy', () => {
  it("is tested as the tool it guards, on the helper's runner and run (not the guard's)", async () => {
    const provider = memoryProvider({ dedupeByKey: false });
    const refund = frameworks['AI SDK tool()']!(withKey, async ({ orderId, amountCents }) => provider.refund(orderId, amountCents));
    const guardRuns: unknown[] = [];
    const { refund: guarded } = guardAiSdkTools(
      { refund },
      {
        runner: createRunner({ store: createNonDurableMemoryStore() }),
        run: () => {
          guardRuns.push('asked');
          throw new Error('the production run source is not asked in a test');
        },
      },
    );
    const report = await expectSingleEffect(guarded, input, { effects: () => provider.effects() });
    expect(report).toMatchObject({ executions: 1, effects: 1, second: { replayed: true } });
    expect(guardRuns).toEqual([]);
  });

  it.each([
    ['OpenAI Agents', (tool: object, runner: Runner) => guardOpenAIAgentsTools([tool as never], { runner, run: { id: 'unused' } as never })[0] as object, 'OpenAI Agents tool()'],
    ['LangChain', (tool: object, runner: Runner) => guardLangChainTools([tool as never], { runner, run: { id: 'unused' } as never })[0] as object, 'LangChain tool()'],
    ['Mastra', (tool: object, runner: Runner) => guardMastraTools({ t: tool }, { runner, run: { id: 'unused' } as never }).t, 'Mastra createTool()'],
  ] as const)('%s: passes, one effect', async (_label, guardIt, framework) => {
    const provider = memoryProvider({ dedupeByKey: false });
    const refund = frameworks[framework]!(withKey, async ({ orderId, amountCents }) => provider.refund(orderId, amountCents));
    const guarded = guardIt(refund, createRunner({ store: createNonDurableMemoryStore() }));
    expect(await expectSingleEffect(guarded, input, { effects: () => provider.effects() })).toMatchObject({ executions: 1, effects: 1 });
  });
});

// New-user trial 3: an AI SDK tool has no name of its own (its tool set's key names it), so every
// failure called it `tool`. The `name` option, a one-entry tool set's key, or the key a guard
// guarded it under names it.
describe('naming a tool that has no name of its own', () => {
  /** A runner whose every call is on a fresh store: nothing replays, so the helper fails with the tool's name. */
  const forgetful = (): Runner => {
    const base = createRunner({ store: createNonDurableMemoryStore() });
    return { ...base, tryCall: (tool, raw, options) => createRunner({ store: createNonDurableMemoryStore() }).tryCall(tool, raw, options) };
  };
  const failureOf = (run: () => Promise<unknown>): Promise<string> =>
    run().then(
      () => 'passed',
      (error: unknown) => (error instanceof AssertionError ? error.message : `not an AssertionError: ${String(error)}`),
    );
  const aiRefund = () => frameworks['AI SDK tool()']!(withKey, async () => ({ ok: true }));

  it('without a name, an AI SDK tool is `tool` in the message', async () => {
    expect(await failureOf(() => expectSingleEffect(aiRefund(), input, { runner: forgetful() }))).toMatch(/^tool: execute ran 2 times/);
  });

  it('the name option names it', async () => {
    expect(await failureOf(() => expectSingleEffect(aiRefund(), input, { runner: forgetful(), name: 'issue_refund' }))).toMatch(/^issue_refund: execute ran 2 times/);
  });

  it("a one-entry tool set is named by its key (the option wins over the key)", async () => {
    const issueRefund = aiRefund();
    expect(await failureOf(() => expectSingleEffect({ issueRefund }, input, { runner: forgetful() }))).toMatch(/^issueRefund: execute ran 2 times/);
    expect(await failureOf(() => expectSingleEffect({ issueRefund }, input, { runner: forgetful(), name: 'issue_refund' }))).toMatch(/^issue_refund: /);
    expect(await callTwice({ issueRefund }, input)).toMatchObject({ executions: 1, second: { replayed: true } });
  });

  it("a guard's copy is named by the key it was guarded under", async () => {
    const { refundOrder } = guardAiSdkTools({ refundOrder: aiRefund() }, { runner: createRunner({ store: createNonDurableMemoryStore() }), run: { id: 'unused' } as never });
    expect(await failureOf(() => expectSingleEffect(refundOrder, input, { runner: forgetful() }))).toMatch(/^refundOrder: execute ran 2 times/);
  });

  it('a tool with a name of its own keeps it; a name option that contradicts it, or an empty one, is a TypeError', async () => {
    const agents = frameworks['OpenAI Agents tool()']!(withKey, async () => ({ ok: true }));
    expect(await failureOf(() => expectSingleEffect({ refund: agents }, input, { runner: forgetful() }))).toMatch(/^issue_refund: execute ran 2 times/);
    await expect(callTwice(agents, input, { name: 'refund' })).rejects.toThrow(new TypeError('callTwice(): the OpenAI Agents tool is named "issue_refund"; the name option says "refund". Leave the option out, or make it "issue_refund".'));
    await expect(callTwice(aiRefund(), input, { name: '' })).rejects.toThrow(new TypeError('callTwice(): the name option must be a non-empty string; got an empty string.'));
  });
});

describe('what the helpers do not take', () => {
  it('an AI SDK tool with no declared policy: a ToolPolicyError naming declarePolicy and what is accepted', async () => {
    const undeclared = aiSdkTool({ description: 'Refund', inputSchema: schema, execute: async () => ({ ok: true }) });
    for (const helper of [expectSingleEffect, callTwice] as const) {
      const error = await helper(undeclared, input).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ToolPolicyError);
      expect((error as ToolPolicyError).code).toBe('tool_policy');
      expect((error as Error).message).toMatch(/^Retry policy of an AI SDK tool: it declares none/);
      expect((error as Error).message).toContain('declarePolicy(tool, { side_effects, idempotent, retry })');
      expect((error as Error).message).toContain('a tool built with defineTool()');
    }
  });

  it('a value that is no tool: a TypeError listing what is accepted', async () => {
    for (const value of [{ description: 'no execute' }, 42 as unknown as object]) {
      const error = await expectSingleEffect(value, input).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TypeError);
      expect((error as Error).message).toMatch(/^expectSingleEffect\(\) takes a tool built with defineTool\(\).*guardMastraTools; or one entry of a tool set, whose key names it: \{ issueRefund \}; got /);
    }
  });
});
