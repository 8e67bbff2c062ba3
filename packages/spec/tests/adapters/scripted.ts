/**
 * Scripted models from the AI SDK's own test utilities (`MockLanguageModelV3` from `ai/test`, in
 * AI SDK 6 and 7), and the two SDKs side by side, so a test runs on both.
 */
import * as ai6 from 'ai';
import * as ai6test from 'ai/test';
import * as ai7 from 'ai7';
import * as ai7test from 'ai7/test';

/** One AI SDK major: its `generateText`, `tool`, `jsonSchema` and `MockLanguageModelV3`. */
export interface AiSdk {
  readonly name: string;
  readonly generateText: typeof ai6.generateText;
  readonly tool: typeof ai6.tool;
  readonly jsonSchema: typeof ai6.jsonSchema;
  readonly stepCountIs: typeof ai6.stepCountIs;
  readonly MockLanguageModelV3: typeof ai6test.MockLanguageModelV3;
}

export const AI_SDKS: readonly AiSdk[] = [
  { name: 'AI SDK 6', generateText: ai6.generateText, tool: ai6.tool, jsonSchema: ai6.jsonSchema, stepCountIs: ai6.stepCountIs, MockLanguageModelV3: ai6test.MockLanguageModelV3 },
  {
    name: 'AI SDK 7',
    generateText: ai7.generateText as unknown as typeof ai6.generateText,
    tool: ai7.tool as unknown as typeof ai6.tool,
    jsonSchema: ai7.jsonSchema as unknown as typeof ai6.jsonSchema,
    stepCountIs: ai7.stepCountIs as unknown as typeof ai6.stepCountIs,
    MockLanguageModelV3: ai7test.MockLanguageModelV3 as unknown as typeof ai6test.MockLanguageModelV3,
  },
];

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/** A step of a script: a tool call (with a fresh call id each time) or the final text. */
export type ScriptStep = { readonly call: string; readonly input: unknown } | { readonly text: string } | { readonly fail: Error };

let calls = 0;

/** One `doGenerate` answer for a step. */
export function answer(step: ScriptStep) {
  if ('fail' in step) throw step.fail;
  if ('text' in step) return { content: [{ type: 'text' as const, text: step.text }], finishReason: { unified: 'stop' as const, raw: 'stop' }, usage, warnings: [] };
  calls += 1;
  return {
    content: [{ type: 'tool-call' as const, toolCallId: `call_${calls}_${Math.random().toString(36).slice(2, 8)}`, toolName: step.call, input: JSON.stringify(step.input) }],
    finishReason: { unified: 'tool-calls' as const, raw: 'tool_calls' },
    usage,
    warnings: [],
  };
}

/** A `MockLanguageModelV3` of `sdk` that answers each model call with the next step. */
export function scriptedModel(sdk: AiSdk, steps: readonly ScriptStep[]) {
  let next = 0;
  return new sdk.MockLanguageModelV3({
    doGenerate: async () => {
      const step = steps[next];
      next += 1;
      if (step === undefined) throw new Error('the script has no more steps');
      return answer(step);
    },
  });
}

/** Every tool result the model was shown, in the prompts of all its calls (the last one's). */
export function toolOutputsSeen(model: InstanceType<AiSdk['MockLanguageModelV3']>): unknown[] {
  const prompt = model.doGenerateCalls.at(-1)?.prompt ?? [];
  return prompt.flatMap((message) =>
    message.role === 'tool' ? message.content.flatMap((part) => (part.type === 'tool-result' ? [part.output] : [])) : [],
  );
}
