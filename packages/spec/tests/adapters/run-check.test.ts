/**
 * The adapters refuse a run whose id is built from the framework's tool call id (new on every model
 * turn, so nothing would ever be replayed). The call id must appear in the run id as whole segments:
 * a substring test refused the AI SDK call id "1" inside `job:order-17` (found by a new-user trial).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toAiSdkTool } from '../../src/adapters/ai-sdk.js';
import { checkRun, containsAsSegments } from '../../src/adapters/shared.js';
import type { RunContext } from '../../src/run.js';
import { sqliteFixture, ticketTool } from './support.js';

const fixture = sqliteFixture();
afterAll(() => fixture.close());

describe('a call id in a run id, compared by whole segments', () => {
  it.each([
    ['call_AbC123xyz', 'call_AbC123xyz'],
    ['job:call_AbC123xyz', 'call_AbC123xyz'],
    ['call_AbC123xyz:refund', 'call_AbC123xyz'],
    ['run/toolu_01A/step', 'toolu_01A'],
    ['job-7 1', '1'],
    ['job:1', '1'],
  ])('%s contains %s', (id, callId) => {
    expect(containsAsSegments(id, callId)).toBe(true);
    expect(() => checkRun({ id }, callId, 'toAiSdkTool')).toThrow(`contains the tool call id ${JSON.stringify(callId)}`);
  });

  it.each([
    ['job:order-17', '1'],
    ['run_2026-01-15_order-1001', '1'],
    ['job:call_AbC123xyzz', 'call_AbC123xyz'],
    ['xcall_AbC123xyz', 'call_AbC123xyz'],
    ['job:order-17', ''],
  ])('%s does not contain %s', (id, callId) => {
    expect(containsAsSegments(id, callId)).toBe(false);
    expect(checkRun({ id }, callId, 'toAiSdkTool')).toEqual({ id });
  });

  it('the AI SDK call id "1" no longer refuses the run of job order-17', async () => {
    const effects: string[] = [];
    const run = { id: 'job:order-17' } as RunContext;
    const aiTool = toAiSdkTool(ticketTool(z.object({ subject: z.string() }), effects), { runner: fixture.runner, run: () => run });
    const call = (toolCallId: string) => aiTool.execute?.({ subject: 'Broken' }, { toolCallId, messages: [] });
    expect(await call('1')).toEqual({ result: { ticket: 1 }, replayed: false });
    expect(await call('2')).toEqual({ result: { ticket: 1 }, replayed: true });
    await expect(call('17')).rejects.toThrow('contains the tool call id "17"');
    expect(effects).toEqual(['Broken']);
  });
});
