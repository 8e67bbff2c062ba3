// The options whose items ESLint checks only as objects (`createRule`'s `deepOptions`: ESLint
// compiles every enabled rule's `meta.schema` in every process, options given or not) are checked
// by each rule against the full schema when given: an invalid value is an error naming the rule, the
// option path and what is wrong, as ESLint's own is; a valid one works as before. Linted through the
// ESLint class, as the CLI and editors run the rules.
import { ESLint, type Linter } from 'eslint';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

import { effectLibrariesSchema } from '../../src/effects/index.js';
import plugin from '../../src/index.js';
import { InvalidRuleOptionsError } from '../../src/rules/utils/index.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures');
const [untypedConfig, typedConfig] = plugin.configs['recommended-type-checked'] as Linter.Config[];

/** Lints `code` as tests/fixtures/file.ts with only `ruleId` on, given `options`; type information for `-type-checked` rules. */
async function lint(ruleId: string, options: object, code = 'export const x = 1;\n'): Promise<Linter.LintMessage[]> {
  const rules = { [`@retrysafe/${ruleId}`]: ['error', options] } as Linter.RulesRecord;
  const typed = ruleId.endsWith('-type-checked');
  const eslint = new ESLint({
    cwd: fixtures,
    overrideConfigFile: true,
    overrideConfig: [
      { ...untypedConfig, rules: typed ? {} : rules },
      ...(typed ? [{ ...typedConfig, languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: fixtures } }, rules }] : []),
    ] as Linter.Config[],
  });
  const [result] = await eslint.lintText(code, { filePath: path.join(fixtures, 'file.ts') });
  return result?.messages ?? [];
}

const library = (operations: object[]) => ({ name: 'acme credit', modules: ['acme-ledger'], clients: ['Ledger'], operations });
const twins = (ruleId: string): string[] => [ruleId, `${ruleId}-type-checked`];

/**
 * Each option a rule checks itself, with one invalid value and what the error says of it. Only
 * `libraries`: made shallow too, `providers` (~1 kB) and `toolFactories` (~0.5 kB) saved nothing
 * measurable (bench/lint-fixed-cost.mjs, within its run-to-run spread), so ESLint still checks them.
 */
const DEEP_OPTIONS = [
  {
    option: 'libraries',
    full: effectLibrariesSchema,
    rules: [...twins('require-retry-policy'), ...twins('no-contradicted-policy'), 'no-misleading-idempotent-hint'],
    invalid: [library([])],
    problem: 'options[0].libraries[0].operations: Value [] should NOT have fewer than 1 items.',
  },
];
const CASES = DEEP_OPTIONS.flatMap(({ rules, ...deep }) => rules.map((ruleId) => ({ ruleId, ...deep })));

describe('options whose items the rules check', () => {
  it.each(CASES)('$ruleId: meta.schema gives `$option` only as an array of objects', ({ ruleId, option, full }) => {
    const schema = (plugin.rules as unknown as Record<string, { meta: { schema: { properties: Record<string, object> }[] } }>)[ruleId]?.meta.schema[0];
    expect(schema?.properties[option]).toEqual({ type: 'array', description: full.description, items: { type: 'object' } });
  });

  it.each(CASES)('$ruleId: an invalid `$option` item is an error naming the rule, the option path and the problem', async ({ ruleId, option, invalid, problem }) => {
    const id = `@retrysafe/${ruleId}`;
    const message = `Error while loading rule '${id}': Invalid options for "${id}":\n\t${problem}`;
    // Twice: a rejected value is not remembered as checked.
    for (let run = 0; run < 2; run += 1) {
      const error: unknown = await lint(ruleId, { [option]: invalid }).catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(InvalidRuleOptionsError);
      expect((error as Error).message.split('\nOccurred while linting')[0]).toBe(message);
    }
  });

  it('names every branch of a oneOf, and the allowed values of an enum', async () => {
    const error: unknown = await lint('no-contradicted-policy', { libraries: [library([{ call: 'credit', kind: 'sideways', key: { header: 'Idempotency-Key', argument: 'one' } }])] }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(InvalidRuleOptionsError);
    expect((error as InvalidRuleOptionsError).problems).toEqual([
      {
        path: 'options[0].libraries[0].operations[0].kind',
        problem: 'Value "sideways" should be equal to one of the allowed values. Allowed: "absolute", "create", "read", "relative", "unknown", "write".',
      },
    ]);
    const oneOf: unknown = await lint('no-contradicted-policy', { libraries: [library([{ call: 'credit', key: { header: 'Idempotency-Key', argument: 'one' } }])] }).catch((thrown: unknown) => thrown);
    // Each branch's rejection (a string `none`, a `property` slot, a `header` slot), then the oneOf's.
    expect((oneOf as InvalidRuleOptionsError).problems.at(-1)).toEqual({
      path: 'options[0].libraries[0].operations[0].key',
      problem: 'Value {"header":"Idempotency-Key","argument":"one"} should match exactly one schema in oneOf.',
    });
    expect((oneOf as Error).message).toContain('options[0].libraries[0].operations[0].key.argument: Value "one" should be integer.');
  });

  it('still rejects a mistyped option name at config time (ESLint, against meta.schema)', async () => {
    await expect(lint('require-retry-policy', { librarys: [] })).rejects.toThrow(/Unexpected property "librarys"\. Expected properties: "toolFactories", "libraries"/);
  });

  // An MCP tool declared read-only whose handler credits an account through a library that only the
  // option makes known: reported with it, not without it.
  const CREDIT = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Ledger } from 'acme-ledger';
const ledger = new Ledger();
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('credit', { annotations: { readOnlyHint: true } }, async ({ id }: { id: string }) => { await ledger.credit(id, 5); return { content: [] }; });
`;

  it('a valid library is used, lint after lint', async () => {
    const options = { libraries: [library([{ call: 'credit', kind: 'relative' }])] };
    for (let run = 0; run < 2; run += 1) {
      const messages = await lint('no-contradicted-policy', options, CREDIT);
      expect(messages.map((message) => [message.ruleId, message.messageId, message.line])).toEqual([['@retrysafe/no-contradicted-policy', 'notReadOnly', 5]]);
    }
    expect(await lint('no-contradicted-policy', { libraries: [] }, CREDIT)).toEqual([]);
  });
});
