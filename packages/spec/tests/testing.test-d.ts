import { tool as aiTool } from 'ai';
import { describe, expectTypeOf, test } from 'vitest';
import { z } from 'zod';
import { declarePolicy } from '../src/index.js';
import { guardAiSdkTools } from '../src/adapters/ai-sdk.js';
import { callTwice, expectSingleEffect, type CalledTwiceReport } from '../src/testing.js';
import type { Runner } from '../src/runner.js';
import { memoryProvider, type Refund } from './helpers/provider.js';
import { refundTool } from './helpers/tools.js';

const refund = refundTool(memoryProvider());

const aiRefund = declarePolicy(
  aiTool({ description: 'Refund', inputSchema: z.object({ orderId: z.string() }), execute: async ({ orderId }) => ({ refundId: orderId }) }),
  { side_effects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key' },
);

describe('callTwice and expectSingleEffect', () => {
  test('a defineTool tool: the report is typed by its result, as before', () => {
    expectTypeOf(expectSingleEffect(refund, {})).resolves.toEqualTypeOf<CalledTwiceReport<Refund>>();
    expectTypeOf(callTwice(refund, {})).resolves.toEqualTypeOf<CalledTwiceReport<Refund>>();
  });

  test('a framework tool with a declared policy, or a guard-made copy: accepted, its result unknown', () => {
    expectTypeOf(expectSingleEffect(aiRefund, {})).resolves.toEqualTypeOf<CalledTwiceReport>();
    const { aiRefund: guarded } = guardAiSdkTools({ aiRefund }, { runner: {} as Runner, run: { id: 'x' } as never });
    expectTypeOf(callTwice(guarded, {}, { effects: () => 1 })).resolves.toEqualTypeOf<CalledTwiceReport<unknown>>();
  });

  test('a name option, and one entry of a tool set: a defineTool entry is typed by its result', () => {
    expectTypeOf(expectSingleEffect(aiRefund, {}, { name: 'issue_refund' })).resolves.toEqualTypeOf<CalledTwiceReport>();
    expectTypeOf(callTwice({ refund }, {})).resolves.toEqualTypeOf<CalledTwiceReport<Refund>>();
    expectTypeOf(expectSingleEffect({ refund }, {})).resolves.toEqualTypeOf<CalledTwiceReport<Refund>>();
    expectTypeOf(callTwice({ aiRefund }, {})).resolves.toEqualTypeOf<CalledTwiceReport>();
    // @ts-expect-error the name is a string
    void callTwice(aiRefund, {}, { name: 42 });
  });

  test('not a tool: rejected at compile time', () => {
    // @ts-expect-error a string is no tool
    void expectSingleEffect('issue_refund', {});
    // @ts-expect-error a number is no tool
    void callTwice(42, {});
  });
});
