/**
 * The seed's third source of repetition, end to end: model repetition after context loss. The
 * refund lands; then the history is trimmed (`prepareStep` keeps only the user's message, as a
 * summarisation pass or a context-window limit would), and the scripted model, which no longer
 * sees that it refunded, asks for the same refund with a new call id. The ledger counts one, and
 * the repeat is told it was a replay: "The result of a consequential call should stay in context
 * or in run state, and a replay flag in the response tells it what happened."
 */
import { afterAll, describe, expect, it } from 'vitest';
import { answer, AI_SDKS } from '../adapters/scripted.js';
import { sqliteFixture } from '../adapters/support.js';
import { startProviderStandIn } from '../helpers/ledger.js';
import { REFUND, refundTools, resultsRead } from './agent.js';

const fixture = sqliteFixture();
afterAll(() => fixture.close());

describe.each(AI_SDKS)('model repetition after context loss, $name', (sdk) => {
  it('the trimmed model asks again: one refund, the repeat reads replayed: true', async () => {
    const provider = await startProviderStandIn();
    try {
      const tools = refundTools(sdk, provider.url, { runner: fixture.runner, run: await fixture.jobRun() });
      const prompts: { role: string; content: unknown }[][] = [];
      const script = [{ call: 'issue_refund', input: REFUND }, { call: 'issue_refund', input: REFUND }, { text: 'Refunded.' }];
      const model = new sdk.MockLanguageModelV3({
        doGenerate: async (options) => {
          prompts.push(options.prompt as never);
          return answer(script[prompts.length - 1]!);
        },
      });
      await sdk.generateText({
        model,
        tools,
        stopWhen: sdk.stepCountIs(5),
        prompt: 'Refund order ord_1001.',
        // Before the second step, the history is cut back to the user's request.
        prepareStep: ({ stepNumber, messages }) => (stepNumber === 1 ? { messages: messages.slice(0, 1) } : {}),
      });
      expect(resultsRead(prompts[1]!)).toEqual([]); // the model really lost the first result
      expect(resultsRead(prompts[2]!).at(-1)).toEqual({ type: 'json', value: { result: { refundId: 're_1', ...REFUND }, replayed: true } });
      expect(provider.effects()).toHaveLength(1);
    } finally {
      await provider.close();
    }
  });
});
