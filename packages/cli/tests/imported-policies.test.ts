import { describe, expect, it } from 'vitest';

import { auditFixture } from './support.js';

// New-user trial 3 (tests/fixtures/imported-policies): `declarePolicy(refundTool, policies.moneyOut)`
// with `export const policies = { moneyOut: { ... } as const }` in another file read `?` for every
// field, while require-retry-policy-type-checked read it through the checker.

const policyOf = async (name: string, typed = false) => {
  const report = await auditFixture('imported-policies', { configLookup: typed });
  const found = report.tools.find((tool) => tool.name === name);
  if (!found) throw new Error(`no tool ${name}`);
  return found.policy;
};

const fields = (policy: Awaited<ReturnType<typeof policyOf>>) =>
  policy && { side_effects: policy.side_effects, idempotent: policy.idempotent, retry: policy.retry, max_attempts: policy.max_attempts };

describe('a policy that is a member of another file’s exported const', () => {
  it('declarePolicy(tool, policies.moneyOut): read through the import and the member', async () => {
    expect(fields(await policyOf('refundTool'))).toEqual({ side_effects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', max_attempts: 1 });
  });

  it("a namespace import and a bracket member (p.policies['readOnly']), through `satisfies` and `as const`", async () => {
    expect(fields(await policyOf('lookupTool'))).toEqual({ side_effects: 'none', idempotent: true, retry: 'safe', max_attempts: 3 });
  });

  it('a member of a member, in parentheses (p.policies.nested.notify)', async () => {
    expect(fields(await policyOf('notifyTool'))).toEqual({ side_effects: 'message_out', idempotent: false, retry: 'never', max_attempts: 1 });
  });

  it("defineTool spreading a member in defineTool's own spelling (...camel.write)", async () => {
    expect(fields(await policyOf('write_note'))).toEqual({ side_effects: 'internal_write', idempotent: 'with_key', retry: 'safe_with_same_key', max_attempts: 2 });
  });

  it('an MCP _meta policy that is a member', async () => {
    expect(fields(await policyOf('mcp_refund'))).toEqual({ side_effects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', max_attempts: 1 });
  });

  it('MCP annotations that are a member are read as hints', async () => {
    expect(await policyOf('mcp_lookup')).toMatchObject({ via: 'annotations', side_effects: 'none' });
  });

  it('never a guess: a call result, a member a later spread may replace, a reassigned let, a member that is not there', async () => {
    for (const name of ['fromCall', 'fromSpread', 'fromLet', 'fromMissing']) {
      expect(fields(await policyOf(name)), name).toEqual({ side_effects: null, idempotent: null, retry: null, max_attempts: null });
    }
  });

  it('with types (recommended-type-checked) the audit reads the same policies', async () => {
    const untyped = await auditFixture('imported-policies', { configLookup: false });
    const typed = await auditFixture('imported-policies', { configLookup: true });
    expect(typed.config.kind).toBe('project');
    expect(typed.tools.find((tool) => tool.name === 'refundTool')?.policy).toMatchObject({ side_effects: 'money_out', retry: 'safe_with_same_key' });
    expect(typed.tools.map((tool) => [tool.name, tool.policy])).toEqual(untyped.tools.map((tool) => [tool.name, tool.policy]));
    expect(typed.findings.filter((finding) => finding.ruleId.endsWith('require-retry-policy-type-checked'))).toEqual([]);
  });
});
