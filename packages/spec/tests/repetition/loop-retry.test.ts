/**
 * The seed's second source of repetition, end to end: a loop retry after an error. AI SDK 7 gives
 * up on a slow refund (`timeout: { toolMs }`: a tool error the model reads), and the scripted
 * model (the SDK's own `MockLanguageModelV3`) calls it again with a new call id. The refund had
 * already reached the provider: the ledger counts one, and the retry is told it was a replay.
 */
import { afterAll, expect, it } from 'vitest';
import { answer, AI_SDKS } from '../adapters/scripted.js';
import { sqliteFixture } from '../adapters/support.js';
import { startProviderStandIn } from '../helpers/ledger.js';
import { recorded, REFUND, refundTools, resultsRead } from './agent.js';

const fixture = sqliteFixture();
afterAll(() => fixture.close());

it('AI SDK 7: the refund times out, the model retries it, one refund lands and the retry reads replayed: true', async () => {
  const sdk = AI_SDKS[1]!;
  const provider = await startProviderStandIn({ delayMs: 300 });
  try {
    const run = await fixture.jobRun();
    const tools = refundTools(sdk, provider.url, { runner: fixture.runner, run });
    const prompts: { role: string; content: unknown }[][] = [];
    const script = [{ call: 'issue_refund', input: REFUND }, { call: 'issue_refund', input: REFUND }, { text: 'Refunded.' }];
    const model = new sdk.MockLanguageModelV3({
      doGenerate: async (options) => {
        prompts.push(options.prompt as never);
        // The model takes its time over the next step; by then the first refund has landed.
        if (prompts.length === 2) await recorded(fixture.runner, run, tools.issue_refund);
        return answer(script[prompts.length - 1]!);
      },
    });
    const result = await sdk.generateText({ model, tools, stopWhen: sdk.stepCountIs(5), timeout: { toolMs: 50 }, prompt: 'Refund order ord_1001.' } as never);
    expect(result.text).toBe('Refunded.');
    const [timedOut, retried] = resultsRead(prompts.at(-1)!);
    expect(timedOut).toMatchObject({ type: 'error-text' });
    expect(retried).toEqual({ type: 'json', value: { result: { refundId: 're_1', ...REFUND }, replayed: true } });
    expect(provider.effects()).toHaveLength(1);
  } finally {
    await provider.close();
  }
});
