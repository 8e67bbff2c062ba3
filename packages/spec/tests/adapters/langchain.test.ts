/**
 * The LangChain adapter with the real `@langchain/core` 1.4: `lcTool.invoke(args, config)` as an
 * application calls it, and `lcTool.invoke(toolCall, config)` as LangChain's agent tool node calls
 * it for each tool call the model makes (it answers with a `ToolMessage`).
 */
import { ToolMessage } from '@langchain/core/messages';
import { type } from 'arktype';
import * as v from 'valibot';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toLangChainTool } from '../../src/adapters/langchain.js';
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

const fromConfig = { runner: fixture.runner, run: (config: { configurable?: Record<string, unknown> }) => config.configurable?.['run'] as RunContext };
const toolCall = (args: Record<string, unknown>, name = 'issue_refund') => ({ type: 'tool_call' as const, id: `call_${Math.random().toString(36).slice(2)}`, name, args });

describe('toLangChainTool', () => {
  it('replays a with_key tool the model calls twice: one refund, the second ToolMessage flagged replayed', async () => {
    const provider = memoryProvider({ dedupeByKey: false });
    const run = await fixture.jobRun();
    const lcTool = toLangChainTool(refundTool(provider), fromConfig);
    const args = { orderId: 'o_1', amountCents: 500 };
    const first: unknown = await lcTool.invoke(toolCall(args), { configurable: { run } });
    const second: unknown = await lcTool.invoke(toolCall(args), { configurable: { run } });
    const refund = { refundId: 're_1', orderId: 'o_1', amountCents: 500 };
    expect(first).toBeInstanceOf(ToolMessage);
    expect(second).toBeInstanceOf(ToolMessage);
    expect(JSON.parse(String((first as ToolMessage).content))).toEqual({ result: refund, replayed: false });
    expect(JSON.parse(String((second as ToolMessage).content))).toEqual({ result: refund, replayed: true });
    expect(provider.effects()).toBe(1);
    expect(provider.calls()).toEqual([`${run.id}:o_1:refund`]);
  });

  it('resolves to { result, replayed } when invoked with plain arguments', async () => {
    const provider = memoryProvider({ dedupeByKey: false });
    const run = await fixture.jobRun();
    const lcTool = toLangChainTool(refundTool(provider), { runner: fixture.runner, run });
    const args = { orderId: 'o_2', amountCents: 100 };
    expect(await lcTool.invoke(args)).toEqual({ result: { refundId: 're_1', orderId: 'o_2', amountCents: 100 }, replayed: false });
    expect(await lcTool.invoke(args)).toEqual({ result: { refundId: 're_1', orderId: 'o_2', amountCents: 100 }, replayed: true });
    expect(provider.effects()).toBe(1);
  });

  it('declares the policy in metadata.retrysafe, which policyOf reads', () => {
    const lcTool = toLangChainTool(refundTool(memoryProvider()), fromConfig);
    const policy = { side_effects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', max_attempts: 3 };
    expect(lcTool.metadata).toEqual({ retrysafe: policy });
    expect(policyOf(lcTool)).toEqual(policy);
    expect(lcTool).toMatchObject({ name: 'issue_refund', description: 'Refund part of an order' });
  });

  it('runs a naturally idempotent tool on every call, and a not-safely-repeatable one once per call', async () => {
    const run = await fixture.jobRun();
    const writes = { count: 0 };
    const setStatus = toLangChainTool(setStatusTool(new Map(), writes), { runner: fixture.runner, run });
    const input = { orderId: 'o_3', status: 'shipped' as const };
    expect(await setStatus.invoke(input)).toEqual({ result: input, replayed: false });
    expect(await setStatus.invoke(input)).toEqual({ result: input, replayed: false });
    expect(writes.count).toBe(2);
    const balance = { cents: 0 };
    const increment = toLangChainTool(incrementTool(balance), { runner: fixture.runner, run });
    await increment.invoke({ cents: 100 });
    await increment.invoke({ cents: 100 });
    expect(balance.cents).toBe(200);
  });

  it('rejects invalid arguments with the issues, and runs nothing', async () => {
    const provider = memoryProvider();
    const lcTool = toLangChainTool(refundTool(provider), { runner: fixture.runner, run: await fixture.jobRun() });
    await expect(lcTool.invoke({ orderId: 'o_4', amountCents: -5 })).rejects.toThrow(/did not match expected schema[\s\S]*amountCents/);
    expect(provider.calls()).toEqual([]);
  });

  it('validates the arguments once: a schema that transforms its input works and replays', async () => {
    const charges: string[] = [];
    const lcTool = toLangChainTool(chargeTool(charges), { runner: fixture.runner, run: await fixture.jobRun() });
    expect(await lcTool.invoke({ cardId: 'card_1', amount: '12.50' })).toEqual({ result: { chargeId: 'ch_1', cents: 1250 }, replayed: false });
    expect(await lcTool.invoke({ cardId: 'card_1', amount: '12.50' })).toEqual({ result: { chargeId: 'ch_1', cents: 1250 }, replayed: true });
    expect(charges).toEqual(['card_1:1250']);
  });

  it('rejects a concurrent twin with ConcurrentCallError (409) and runs the effect once', async () => {
    const provider = memoryProvider({ dedupeByKey: false });
    const run = await fixture.jobRun();
    const lcTool = toLangChainTool(refundTool(provider), fromConfig);
    const args = { orderId: 'o_5', amountCents: 700 };
    const held = provider.hold();
    const first = lcTool.invoke(args, { configurable: { run } });
    await held.started;
    const twin = await lcTool.invoke(args, { configurable: { run } }).catch((error: unknown) => error);
    expect(twin).toBeInstanceOf(ConcurrentCallError);
    expect(twin).toMatchObject({ httpStatus: 409 });
    held.release();
    expect(await first).toMatchObject({ replayed: false });
    expect(await lcTool.invoke(args, { configurable: { run } })).toMatchObject({ replayed: true, result: { refundId: 're_1' } });
    expect(provider.effects()).toBe(1);
  });

  it('refuses a missing run or one built from the tool call id', async () => {
    const provider = memoryProvider();
    const lcTool = toLangChainTool(refundTool(provider), fromConfig);
    await expect(lcTool.invoke({ orderId: 'o_6', amountCents: 1 })).rejects.toThrow(/run must be a RunContext/);
    const perCall = toLangChainTool(refundTool(provider), {
      runner: fixture.runner,
      run: (config) => ({ id: vouchDurable(`run:${config.toolCall?.id ?? ''}`) }),
    });
    await expect(perCall.invoke({ ...toolCall({ orderId: 'o_6', amountCents: 1 }), id: 'call_9f8e7d' })).rejects.toThrow(/contains the tool call id "call_9f8e7d"/);
    expect(provider.calls()).toEqual([]);
  });

  describe('schemas', () => {
    it('takes a Standard JSON Schema that is not zod (arktype): LangChain checks the JSON Schema, the runner the schema', async () => {
      const effects: string[] = [];
      const lcTool = toLangChainTool(ticketTool(type({ subject: 'string > 3' }), effects), { runner: fixture.runner, run: await fixture.jobRun() });
      expect(lcTool.schema).toMatchObject({ type: 'object', properties: { subject: { type: 'string', minLength: 4 } } });
      await lcTool.invoke({ subject: 'Broken' });
      expect(await lcTool.invoke({ subject: 'Broken' })).toEqual({ result: { ticket: 1 }, replayed: true });
      await expect(lcTool.invoke({ subject: 'Bad' })).rejects.toThrow(/did not match expected schema/);
      expect(effects).toEqual(['Broken']);
    });

    it('refuses a schema with no JSON Schema, saying what to pass', () => {
      expect(() => toLangChainTool(ticketTool(v.object({ subject: v.string() }), []), fromConfig)).toThrow(/\(valibot\) is neither a zod object.*toStandardJsonSchema from '@valibot\/to-json-schema'/s);
    });
  });
});
