import { describe, expect, it } from 'vitest';

import { parse } from 'yaml';

import { formatReport } from '../src/index.js';
import { auditedTool, auditFixture, REPORT_SCHEMA_FILE, validator } from './support.js';

// A policy value that is not one of @retrysafe/spec's (tests/fixtures/invalid-policy, plain
// JavaScript): the audit says the declaration is invalid, and judges the tool as declaring nothing.
describe('a declared policy with a value the spec does not know', () => {
  it("sideEffects: 'moneyout': the policy is invalid, naming the values and the near miss", async () => {
    const refund = await auditedTool('invalid-policy', 'refund');
    expect(refund.policy?.contradicted).toMatchObject({ invalid: true, evidence: { file: 'src/tools.js', line: 8, text: "sideEffects: 'moneyout'" } });
    expect(refund.policy?.contradicted?.reason).toBe(
      "the policy at src/tools.js:6 is invalid: `sideEffects: 'moneyout'` (line 8) is not one of `@retrysafe/spec`'s values for `sideEffects` (`'none'`, `'internal_write'`, `'external_write'`, `'money_out'` or `'message_out'`; did you mean `'money_out'`?), so the spec rejects it (a ToolPolicyError when the tool is defined) and the tool is judged as declaring nothing",
    );
    expect(refund.summary).toContain('moneyout · true · safe · 3 (default) (invalid)');
  });

  it("retry: 'always' and idempotent: 'yes' (declarePolicy): invalid too; a valid policy beside them is not", async () => {
    expect((await auditedTool('invalid-policy', 'send_email')).policy?.contradicted?.reason).toContain("`retry: 'always'` (line 18) is not one of `@retrysafe/spec`'s values for `retry` (`'safe'`, `'safe_with_same_key'` or `'never'`), so");
    const report = await auditFixture('invalid-policy');
    const lookup = report.tools.find((candidate) => candidate.name === 'lookup');
    expect(lookup?.policy?.contradicted?.reason).toContain("`idempotent: 'yes'` (line 24) is not one of `@retrysafe/spec`'s values for `idempotent` (`true`, `'with_key'` or `false`), so");
    expect((await auditedTool('invalid-policy', 'fine')).policy?.contradicted).toBeUndefined();
    // The lint finding says the same, once per policy.
    const unknown = report.findings.filter((finding) => finding.ruleId === '@retrysafe/no-unsafe-retry-policy');
    expect(unknown.filter((finding) => finding.file === 'src/tools.js').map((finding) => finding.line)).toEqual([8, 18, 24]);
  });

  it('the questions judge it as declaring nothing: a declared naturally idempotent class is not taken from an invalid policy', async () => {
    const refund = await auditedTool('invalid-policy', 'refund');
    // With its policy read as declared, Q2 would be "n/a: declared naturally idempotent".
    expect(refund.questions.q2.reason).not.toContain('declared naturally idempotent');
    expect(formatReport(await auditFixture('invalid-policy'), 'markdown')).toContain('(invalid)');
  });

  // New-user trial: with a deterministic key passed to Stripe (src/refund-card.js), Q2 to Q4 said yes
  // (runner replay, "Stripe keeps keys") and Q5 "it declares no policy", for a tool defineTool never defines.
  it('questions 2 to 5 of a tool defineTool or declarePolicy rejects say it is never defined (n/a), not what it would do at run time', async () => {
    const card = await auditedTool('invalid-policy', 'refund_card');
    const never = {
      verdict: 'n/a',
      reason: "`defineTool` throws a ToolPolicyError for this policy (`sideEffects: 'moneyout'`, line 11), so the tool is never defined: fix the value first (question 1)",
      evidence: [{ file: 'src/refund-card.js', line: 11, text: "sideEffects: 'moneyout'" }],
    };
    for (const id of ['q2', 'q3', 'q4', 'q5'] as const) expect(card.questions[id]).toEqual(never);
    // Q1 keeps its invalid wording, and counts the fault once.
    expect(card.questions.q1).toMatchObject({ verdict: 'no', severity: 'error', reason: expect.stringMatching(/^its declared policy is invalid \(/) });
    expect(card.summary).toContain('Q1 no, Q2 n/a, Q3 n/a, Q4 n/a, Q5 n/a');
    expect((await auditedTool('invalid-policy', 'lookup')).questions.q4.reason).toBe(
      "`declarePolicy` throws a ToolPolicyError for this policy (`idempotent: 'yes'`, line 24), so the tool is never defined: fix the value first (question 1)",
    );
    expect((await auditedTool('invalid-policy', 'fine')).questions.q2.reason).not.toContain('never defined');
  });

  it('the policies file (--format yaml) does not write a value the spec rejects; the JSON report names the field', async () => {
    const report = await auditFixture('invalid-policy');
    expect(report.tools.find((tool) => tool.name === 'refund_card')?.policy?.contradicted).toMatchObject({ invalid: true, field: 'side_effects' });
    const validate = validator(REPORT_SCHEMA_FILE);
    expect(validate(JSON.parse(formatReport(report, 'json'))), JSON.stringify(validate.errors)).toBe(true);
    const policies = parse(formatReport(report, 'yaml')) as Record<string, Record<string, unknown>>;
    expect(policies.refund_card).not.toHaveProperty('side_effects');
    expect(policies.refund_card).toMatchObject({ idempotent: 'with_key', retry: 'safe_with_same_key', declared: true, contradicted: true, reason: expect.stringContaining('(its side_effects is left out here)') });
    expect(policies.send_email).not.toHaveProperty('retry');
    expect(policies.send_email).toMatchObject({ side_effects: 'message_out', idempotent: false });
    // idempotent: 'yes' is left out as rejected, not listed as a field not stated statically.
    expect(policies.lookup).not.toHaveProperty('unknown');
    expect(policies.fine).toMatchObject({ side_effects: 'none', idempotent: true, retry: 'safe' });
  });
});
