import { expect, it } from 'vitest';

import { auditedTool } from './support.js';

// A tool that declares no policy, whose handler question 1 proves something about from its effects
// (new-user trial, project A: awardPoints, credit_account, sendEmail read Q1 no beside a Q2 and a Q3
// that said whether they have a side effect was not known). Questions 2 and 3 use what question 1
// proved, naming the operation and its line. tests/fixtures/undeclared-effects.

const tool = (name: string) => auditedTool('undeclared-effects', name);

it.each([
  ['awardPoints (a relative UPDATE)', 'awardPoints', 'src/ai-tools.ts', 12, '`UPDATE customers SET points = points + ?` (line 12) changes state relatively'],
  ['credit_account (OpenAI Agents, a relative UPDATE)', 'credit_account', 'src/agents-tools.ts', 11, '`UPDATE customers SET points = points + ?` (line 11) changes state relatively'],
  ['sendEmail (a POST without a key)', 'sendEmail', 'src/ai-tools.ts', 29, '`fetch` (line 29) creates without a key'],
] as const)('%s: Q2 and Q3 are no, naming the effect question 1 proved', async (_shape, name, file, line, effect) => {
  const { questions } = await tool(name);
  expect(questions.q1).toMatchObject({ verdict: 'no', reason: expect.stringContaining(effect) });
  expect(questions.q2).toMatchObject({
    verdict: 'no',
    severity: 'warning',
    reason: `no declared policy and no key in its definition or handler, while a second call runs its effect again: ${effect} (question 1)`,
    evidence: [expect.objectContaining({ file, line })],
  });
  expect(questions.q3).toMatchObject({
    verdict: 'no',
    severity: 'warning',
    reason: expect.stringContaining(`(it declares no policy, but its handler has a side effect a second call runs again: ${effect}, question 1)`),
    evidence: expect.arrayContaining([expect.objectContaining({ file, line })]),
  });
});

it('an undeclared absolute write: Q2 stays unknown, Q3 unknown saying its writes reach the same end state', async () => {
  const { questions } = await tool('setEmail');
  expect(questions.q1.verdict).toBe('yes');
  expect(questions.q2).toMatchObject({ verdict: 'unknown', reason: 'no declared policy, and no key in its definition or handler' });
  expect(questions.q3).toMatchObject({ verdict: 'unknown', reason: expect.stringContaining("its handler's writes reach the same end state on a repeat (its writes are absolute: `UPDATE customers SET email = ?`, line 43, question 1)") });
});

it('an undeclared read: Q3 unknown saying its handler has no side effect the analysis sees', async () => {
  const { questions } = await tool('getOrder');
  expect(questions.q1.verdict).toBe('yes');
  expect(questions.q2.verdict).toBe('unknown');
  expect(questions.q3).toMatchObject({ verdict: 'unknown', reason: expect.stringContaining('its handler has no side effect the effects analysis sees (it only reads') });
});

// A declaration question 1 proved false (new-user trial 2: `idempotent: true` on a relative UPDATE
// read Q2-Q4 n/a, "a repeat needs no key"): questions 2 to 5 no longer rest on it.
it('a read-only claim on a create without a key: Q2 to Q5 are no, naming the effect and the declaration', async () => {
  const { questions } = await auditedTool('tools', 'quick_charge');
  expect(questions.q1.verdict).toBe('no');
  for (const id of ['q2', 'q3', 'q4', 'q5'] as const) {
    expect(questions[id]).toMatchObject({
      verdict: 'no',
      severity: 'error',
      reason: expect.stringContaining('follows from question 1: the declared read-only `readOnlyHint: true` (line 10) that would make this question not apply is not true (`stripe.paymentIntents.create` (line 11) creates without a key)'),
      followsFrom: 'q1',
      evidence: expect.arrayContaining([expect.objectContaining({ file: 'src/effects.ts', line: 11 })]),
    });
  }
});
