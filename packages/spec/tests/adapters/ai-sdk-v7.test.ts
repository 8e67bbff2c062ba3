/**
 * The AI SDK adapter's tests (ai-sdk.test.ts) again with the real AI SDK 7 (`ai7`, npm:ai@7) in
 * place of `ai`: the adapter imports `tool`, `jsonSchema` and `asSchema` from `ai` at run time, so
 * an application with ai@7 installed runs it on 7; here the module `ai` (and `ai/test`) is AI SDK
 * 7 for every import of this file's module graph, the adapter's included.
 */
import { expect, it, vi } from 'vitest';

vi.mock('ai', () => import('ai7'));
vi.mock('ai/test', () => import('ai7/test'));

it('runs on AI SDK 7: the adapter and the tests below get ai7 for `ai`', async () => {
  const [ai, ai7] = await Promise.all([import('ai'), import('ai7')]);
  expect(ai.generateText).toBe(ai7.generateText);
  expect(ai.tool).toBe(ai7.tool);
});

await import('./ai-sdk.test.js');
