/**
 * The agent the end-to-end repetition tests run: an AI SDK `tool()` refund with a declared policy,
 * calling the provider stand-in over HTTP with the guard's key, guarded by `guardAiSdkTools`.
 */
import { z } from 'zod';
import { guardAiSdkTools, type AiSdkGuardOptions } from '../../src/adapters/ai-sdk.js';
import { currentCall, guardedRecord } from '../../src/loop/guard.js';
import { declarePolicy, policyOf, type ToolPolicy } from '../../src/policy.js';
import type { RunContext } from '../../src/run.js';
import type { Runner } from '../../src/runner.js';
import { refundAt } from '../helpers/ledger.js';
import type { AiSdk } from '../adapters/scripted.js';

export const REFUND = { orderId: 'ord_1001', amountCents: 1300 } as const;

/** `{ issue_refund }`, guarded: one line of setup for the application. */
export function refundTools(sdk: AiSdk, providerUrl: string, options: AiSdkGuardOptions) {
  const issueRefund = declarePolicy(
    sdk.tool({
      description: 'Refund part of an order',
      inputSchema: z.object({ orderId: z.string(), amountCents: z.number().int().positive() }),
      execute: async ({ orderId, amountCents }) => refundAt(providerUrl, orderId, amountCents, currentCall()?.key),
    }),
    { side_effects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', max_attempts: 3 },
  );
  return guardAiSdkTools({ issue_refund: issueRefund }, options);
}

/** Resolves once the refund's record is completed in the run (its effect ran and was recorded). */
export async function recorded(runner: Runner, run: RunContext, tool: object, args: unknown = REFUND): Promise<void> {
  const policy = policyOf(tool) as ToolPolicy;
  for (let i = 0; i < 200; i += 1) {
    const record = await guardedRecord(runner, { tool: 'issue_refund', policy, args, run });
    if (record?.status === 'completed') return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('the refund was never recorded');
}

/** The tool results the model read in its last prompt, as the AI SDK sent them. */
export function resultsRead(prompt: readonly { role: string; content: unknown }[]): { type: string; value: unknown }[] {
  return prompt.flatMap((message) =>
    message.role === 'tool' && Array.isArray(message.content)
      ? (message.content as { type: string; output: { type: string; value: unknown } }[]).flatMap((part) => (part.type === 'tool-result' ? [part.output] : []))
      : [],
  );
}
