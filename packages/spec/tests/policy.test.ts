import { tool as langchainTool } from '@langchain/core/tools';
import { tool as openAiAgentsTool } from '@openai/agents';
import { tool as aiSdkTool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CONTRADICTIONS, declarePolicy, defineTool, key, policyOf, ToolPolicyError } from '../src/index.js';

const issueRefund = defineTool({
  name: 'issue_refund',
  sideEffects: 'money_out',
  idempotent: 'with_key',
  retry: 'safe_with_same_key',
  maxAttempts: 1,
  input: z.object({ orderId: z.string() }),
  key: ({ run, input }) => key`${run.id}:${input.orderId}:refund`,
  execute: async ({ orderId }) => ({ refundId: `re_${orderId}` }),
});

// Plain JavaScript callers get no compile-time check; this is how they reach declarePolicy.
const declareUntyped = declarePolicy as unknown as (tool: object, policy: Record<string, unknown>) => object;

describe('declarePolicy and policyOf', () => {
  it('policyOf reads a defineTool policy', () => {
    expect(policyOf(issueRefund)).toBe(issueRefund.policy);
  });

  it('attaches a policy to an AI SDK tool without changing its keys', () => {
    const lookup = aiSdkTool({
      description: 'Look up an order',
      inputSchema: z.object({ orderId: z.string() }),
      execute: async ({ orderId }) => ({ orderId }),
    });
    const keysBefore = Object.keys(lookup);
    expect(declarePolicy(lookup, { side_effects: 'none', idempotent: true, retry: 'safe' })).toBe(lookup);
    expect(Object.keys(lookup)).toEqual(keysBefore);
    expect(policyOf(lookup)).toEqual({ side_effects: 'none', idempotent: true, retry: 'safe', max_attempts: 3 });
  });

  it('works for OpenAI Agents tools', () => {
    const refund = openAiAgentsTool({
      name: 'issue_refund',
      description: 'Refund',
      parameters: z.object({ orderId: z.string() }),
      execute: async () => 'ok',
    });
    declarePolicy(refund, { side_effects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', max_attempts: 1 });
    expect(policyOf(refund)?.max_attempts).toBe(1);
  });

  it("reads a LangChain tool's metadata.retrysafe, and declarePolicy works there too", () => {
    const fromMetadata = langchainTool(async () => 'ok', {
      name: 'send_email',
      description: 'Send',
      schema: z.object({ to: z.string() }),
      metadata: { retrysafe: { side_effects: 'message_out', idempotent: false, retry: 'never' } },
    });
    expect(policyOf(fromMetadata)).toEqual({ side_effects: 'message_out', idempotent: false, retry: 'never', max_attempts: 1 });
    const declared = declarePolicy(
      langchainTool(async () => 'ok', { name: 'get_order', description: 'Get', schema: z.object({ id: z.string() }) }),
      { side_effects: 'none', idempotent: true, retry: 'safe' },
    );
    expect(policyOf(declared)?.retry).toBe('safe');
  });

  it('rejects a contradictory LangChain metadata policy', () => {
    const contradictory = langchainTool(async () => 'ok', {
      name: 'send_email',
      description: 'Send',
      schema: z.object({ to: z.string() }),
      metadata: { retrysafe: { side_effects: 'message_out', idempotent: false, retry: 'safe' } },
    });
    expect(() => policyOf(contradictory)).toThrow(CONTRADICTIONS.notRepeatableRetried);
  });

  it('works on frozen objects (kept aside in a WeakMap)', () => {
    const frozen = Object.freeze({ name: 'get_order' });
    declarePolicy(frozen, { side_effects: 'none', idempotent: true, retry: 'safe' });
    expect(policyOf(frozen)?.idempotent).toBe(true);
  });

  it('returns undefined for a tool without a policy', () => {
    expect(policyOf({ name: 'x' })).toBeUndefined();
    expect(policyOf(undefined)).toBeUndefined();
  });

  it('validates at runtime for plain JavaScript', () => {
    expect(() =>
      declareUntyped({ name: 'send_email' }, { side_effects: 'message_out', idempotent: false, retry: 'safe' }),
    ).toThrow(`Retry policy of tool "send_email": ${CONTRADICTIONS.notRepeatableRetried}.`);
    expect(() => declareUntyped({ name: 'x' }, { side_effects: 'none', idempotent: 'yes', retry: 'safe' })).toThrow(
      ToolPolicyError,
    );
  });

  it('accepts the same policy twice but not a different one', () => {
    const target = { name: 'get_order' };
    declarePolicy(target, { side_effects: 'none', idempotent: true, retry: 'safe' });
    expect(() => declarePolicy(target, { side_effects: 'none', idempotent: true, retry: 'safe' })).not.toThrow();
    expect(() => declarePolicy(target, { side_effects: 'none', idempotent: true, retry: 'never' })).toThrow(
      /already declares/,
    );
    expect(() => declarePolicy(issueRefund, { side_effects: 'none', idempotent: true, retry: 'safe' })).toThrow(
      /already declares/,
    );
  });
});
