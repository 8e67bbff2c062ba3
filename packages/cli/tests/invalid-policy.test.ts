import { describe, expect, it } from 'vitest';

import { formatReport } from '../src/index.js';
import { auditedTool, auditFixture } from './support.js';

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
    expect(unknown.map((finding) => finding.line)).toEqual([8, 18, 24]);
  });

  it('the questions judge it as declaring nothing: a declared naturally idempotent class is not taken from an invalid policy', async () => {
    const refund = await auditedTool('invalid-policy', 'refund');
    // With its policy read as declared, Q2 would be "n/a: declared naturally idempotent".
    expect(refund.questions.q2.reason).not.toContain('declared naturally idempotent');
    expect(formatReport(await auditFixture('invalid-policy'), 'markdown')).toContain('(invalid)');
  });
});
