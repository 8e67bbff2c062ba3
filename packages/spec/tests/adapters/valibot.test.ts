/**
 * valibot schemas carry no Standard JSON Schema of their own, so the AI SDK, OpenAI Agents,
 * LangChain and Mastra adapters cannot describe them to the model. Each adapter's error names the fix,
 * `toStandardJsonSchema` from `@valibot/to-json-schema`, and the wrapped schema works through
 * each adapter: the model is shown its JSON Schema, the runner validates with valibot, and a
 * repeated call is replayed.
 */
import { RunContext as AgentsRunContext } from '@openai/agents';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { asSchema } from 'ai';
import * as v from 'valibot';
import { afterAll, describe, expect, it } from 'vitest';
import { toAiSdkTool } from '../../src/adapters/ai-sdk.js';
import { toLangChainTool } from '../../src/adapters/langchain.js';
import { toMastraTool } from '../../src/adapters/mastra.js';
import { toOpenAIAgentsTool } from '../../src/adapters/openai-agents.js';
import { sqliteFixture, ticketTool } from './support.js';

const fixture = sqliteFixture();
afterAll(() => fixture.close());

const plain = () => v.object({ subject: v.pipe(v.string(), v.minLength(4)) });
const wrapped = () => toStandardJsonSchema(plain());
const ADVICE = /\(valibot\).*Wrap the valibot schema with toStandardJsonSchema from '@valibot\/to-json-schema' \(input: toStandardJsonSchema\(v\.object\(\{\.\.\.\}\)\)\)/s;
const SUBJECT_SCHEMA = { type: 'object', properties: { subject: { type: 'string', minLength: 4 } }, required: ['subject'] };

describe('a valibot input schema', () => {
  it('is refused by each adapter with toStandardJsonSchema named as the fix', async () => {
    const run = await fixture.jobRun();
    const options = { runner: fixture.runner, run };
    expect(() => toAiSdkTool(ticketTool(plain(), []), options)).toThrow(ADVICE);
    expect(() => toOpenAIAgentsTool(ticketTool(plain(), []), options)).toThrow(ADVICE);
    expect(() => toLangChainTool(ticketTool(plain(), []), options)).toThrow(ADVICE);
    expect(() => toMastraTool(ticketTool(plain(), []), options)).toThrow(ADVICE);
  });

  it('wrapped with toStandardJsonSchema, runs through the AI SDK adapter: described, validated, replayed', async () => {
    const effects: string[] = [];
    const aiTool = toAiSdkTool(ticketTool(wrapped(), effects), { runner: fixture.runner, run: await fixture.jobRun() });
    expect(await asSchema(aiTool.inputSchema).jsonSchema).toMatchObject(SUBJECT_SCHEMA);
    const options = (toolCallId: string) => ({ toolCallId, messages: [] });
    expect(await aiTool.execute?.({ subject: 'Broken' }, options('call_a1'))).toEqual({ result: { ticket: 1 }, replayed: false });
    expect(await aiTool.execute?.({ subject: 'Broken' }, options('call_a2'))).toEqual({ result: { ticket: 1 }, replayed: true });
    await expect(aiTool.execute?.({ subject: 'Bad' }, options('call_a3'))).rejects.toThrow(/subject/);
    expect(effects).toEqual(['Broken']);
  });

  it('wrapped with toStandardJsonSchema, runs through the OpenAI Agents adapter', async () => {
    const effects: string[] = [];
    const run = await fixture.jobRun();
    const agentsTool = toOpenAIAgentsTool(ticketTool(wrapped(), effects), { runner: fixture.runner, run });
    expect(agentsTool.parameters).toMatchObject(SUBJECT_SCHEMA);
    const invoke = (subject: string, callId: string) =>
      agentsTool.invoke(new AgentsRunContext({}), JSON.stringify({ subject }), { toolCall: { type: 'function_call', callId, name: 'create_ticket', arguments: '' } });
    expect(await invoke('Broken', 'call_o1')).toEqual({ result: { ticket: 1 }, replayed: false });
    expect(await invoke('Broken', 'call_o2')).toEqual({ result: { ticket: 1 }, replayed: true });
    expect(effects).toEqual(['Broken']);
  });

  it('wrapped with toStandardJsonSchema, runs through the LangChain adapter', async () => {
    const effects: string[] = [];
    const lcTool = toLangChainTool(ticketTool(wrapped(), effects), { runner: fixture.runner, run: await fixture.jobRun() });
    expect(lcTool.schema).toMatchObject(SUBJECT_SCHEMA);
    expect(await lcTool.invoke({ subject: 'Broken' })).toEqual({ result: { ticket: 1 }, replayed: false });
    expect(await lcTool.invoke({ subject: 'Broken' })).toEqual({ result: { ticket: 1 }, replayed: true });
    expect(effects).toEqual(['Broken']);
  });

  it('wrapped with toStandardJsonSchema, runs through the Mastra adapter', async () => {
    const effects: string[] = [];
    const mastraTool = toMastraTool(ticketTool(wrapped(), effects), { runner: fixture.runner, run: await fixture.jobRun() });
    const context = (toolCallId: string) => ({ toolCallId, messages: [] }) as never;
    expect(await mastraTool.execute?.({ subject: 'Broken' }, context('call_m1'))).toEqual({ result: { ticket: 1 }, replayed: false });
    expect(await mastraTool.execute?.({ subject: 'Broken' }, context('call_m2'))).toEqual({ result: { ticket: 1 }, replayed: true });
    expect(effects).toEqual(['Broken']);
  });
});
