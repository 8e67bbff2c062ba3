import { describe, expect, it } from 'vitest';

import { auditFixture } from './support.js';

// Tools registered through a wrapper defined in another file (tests/fixtures/cross-file-wrappers:
// lib/register.ts exports addTool and the like, src/tools.ts calls them). Before, the audit listed
// the definition inside each wrapper, unnamed, at lib/register.ts, and none of the tools.

const tools = async () => (await auditFixture('cross-file-wrappers')).tools;

describe('a wrapper another file exports', () => {
  it('lists each call as a tool, by its name, at the call site', async () => {
    expect((await tools()).map((tool) => `${tool.name ?? '(none)'} ${tool.file}:${tool.line} ${tool.framework}`)).toEqual([
      '(none) lib/register.ts:18 mcp',
      'refund src/tools.ts:11 mcp',
      'ping src/tools.ts:15 mcp',
      'get_order src/tools.ts:16 mcp',
      'cancel src/tools.ts:21 mcp',
      'refund_v2 src/tools.ts:25 mcp',
    ]);
  });

  it("judges the call's handler and the call's config: Q2 reads the key in the handler, the policy comes from the call", async () => {
    const byName = new Map((await tools()).map((tool) => [tool.name, tool]));
    expect(byName.get('refund')?.questions.q2).toMatchObject({ verdict: 'no', evidence: [{ file: 'src/tools.ts', line: 12, text: 'randomUUID()' }] });
    expect(byName.get('cancel')?.questions.q2).toMatchObject({ verdict: 'yes', evidence: [{ file: 'src/tools.ts', line: 22 }] });
    expect(byName.get('get_order')?.policy).toMatchObject({ side_effects: 'none', idempotent: null, via: 'annotations' });
    expect(byName.get('refund')?.policy).toBeNull();
  });

  it('keeps a wrapper no scanned file calls where it is, and is silent on what it cannot read (an unresolved import, a helper that registers nothing)', async () => {
    const names = (await tools()).map((tool) => tool.name);
    expect(names).not.toContain('unresolved');
    expect(names).not.toContain('not a tool');
    expect((await tools()).filter((tool) => tool.file === 'lib/register.ts').map((tool) => tool.line)).toEqual([18]);
  });

  it('with only the wrapper file scanned, its definitions stay listed there', async () => {
    const report = await auditFixture('cross-file-wrappers', { paths: ['lib'] });
    expect(report.tools.map((tool) => `${tool.file}:${tool.line}`)).toEqual(['lib/register.ts:7', 'lib/register.ts:10', 'lib/register.ts:13', 'lib/register.ts:18']);
  });
});
