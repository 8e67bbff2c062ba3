import * as parser from '@typescript-eslint/parser';
import { RuleTester } from '@typescript-eslint/rule-tester';
import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';

import plugin from '../../src/index.js';
import noRandomKey from '../../src/rules/no-random-key.js';
import noUnsafeRetryPolicy from '../../src/rules/no-unsafe-retry-policy.js';
import requireKeyPassthrough from '../../src/rules/require-key-passthrough.js';

// One fault, one report (new-user trial): a random provider key in the handler of a tool declared
// `idempotent: 'with_key'` got no-random-key, require-key-passthrough (foreignKey) and
// no-unsafe-retry-policy (withKeyUnused). The random key is no-random-key's (docs/rules): the others
// stay silent on it, and no-random-key's message and suggestion carry what they said (pass the tool's key).

const TRIAL = `import { defineTool } from '@retrysafe/spec';
import Stripe from 'stripe';
declare const stripe: Stripe; declare const input: object;
export const refund = defineTool({
  name: 'refund', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', input, key: ({ run }) => run.id,
  execute: async ({ chargeId }: { chargeId: string }) => stripe.refunds.create({ charge: chargeId }, { idempotencyKey: crypto.randomUUID() }),
});
`;
const WITH_KEY_ADVICE = "Pass the tool's key instead (`execute`'s second parameter: `{ key }`): it is the same on every retry of the call, which is what the tool is declared idempotent with.";

describe('the recommended config on the trial tool', () => {
  it('reports the random key once, as no-random-key', () => {
    const linter = new Linter({ configType: 'flat' });
    const messages = linter.verify(TRIAL, [
      { files: ['**/*.ts'], languageOptions: { parser: parser as unknown as Linter.Parser } },
      { ...(plugin.configs.recommended as Linter.Config), files: ['**/*.ts'] },
    ], 'tool.ts');
    expect(messages.map((message) => [message.ruleId, message.line])).toEqual([['@retrysafe/no-random-key', 6]]);
    expect(messages[0]?.message).toBe(`Idempotency key built from \`crypto.randomUUID()\` (line 6): a retry gets a new key. ${WITH_KEY_ADVICE}`);
  });
});

const ruleTester = new RuleTester();

ruleTester.run('no-random-key: the owner of a random key in a with_key handler', noRandomKey, {
  valid: [],
  invalid: [
    {
      name: "the trial tool: the advice and the suggestion are the tool's key",
      code: TRIAL,
      errors: [
        {
          messageId: 'randomKey',
          line: 6,
          data: { source: '`crypto.randomUUID()`', line: 6, advice: WITH_KEY_ADVICE },
          suggestions: [
            {
              messageId: 'bindAndUseToolKey',
              data: { key: '`key`' },
              output: TRIAL.replace('async ({ chargeId }: { chargeId: string }) =>', 'async ({ chargeId }: { chargeId: string }, { key }) =>').replace('idempotencyKey: crypto.randomUUID()', 'idempotencyKey: key'),
            },
          ],
        },
      ],
    },
  ],
});

ruleTester.run('require-key-passthrough: silent on the key no-random-key reports', requireKeyPassthrough, {
  valid: [{ name: 'the trial tool', code: TRIAL }],
  invalid: [
    {
      name: 'a key that is not the tool key and not random is still its own',
      code: TRIAL.replace('crypto.randomUUID()', 'chargeId'),
      errors: [
        {
          messageId: 'foreignKey',
          line: 6,
          suggestions: [
            {
              messageId: 'bindAndUseToolKey',
              output: TRIAL.replace('async ({ chargeId }: { chargeId: string }) =>', 'async ({ chargeId }: { chargeId: string }, { key }) =>').replace('idempotencyKey: crypto.randomUUID()', 'idempotencyKey: key'),
            },
          ],
        },
      ],
    },
  ],
});

// New-user trial 7: a keyed provider given no key in a with_key handler got require-key-passthrough's
// missingKey (the call, where the key goes, a suggestion) and no-unsafe-retry-policy's withKeyUnused.
const NO_KEY = TRIAL.replace(", { idempotencyKey: crypto.randomUUID() }", '');

describe('the recommended config on a with_key tool that gives Stripe no key', () => {
  it('reports it once, as require-key-passthrough', () => {
    const linter = new Linter({ configType: 'flat' });
    const lint = (code: string) =>
      linter.verify(code, [
        { files: ['**/*.ts'], languageOptions: { parser: parser as unknown as Linter.Parser } },
        { ...(plugin.configs.recommended as Linter.Config), files: ['**/*.ts'] },
      ], 'tool.ts').map((message) => [message.ruleId, message.line, message.messageId]);
    expect(lint(NO_KEY)).toEqual([['@retrysafe/require-key-passthrough', 6, 'missingKey']]);
    expect(lint(TRIAL.replace('crypto.randomUUID()', "'refund'"))).toEqual([['@retrysafe/require-key-passthrough', 6, 'constantKey']]);
  });
});

ruleTester.run('no-unsafe-retry-policy: silent where no-random-key or require-key-passthrough names the fault', noUnsafeRetryPolicy, {
  valid: [
    { name: 'the trial tool', code: TRIAL },
    { name: 'Stripe given no key: require-key-passthrough reports the call', code: NO_KEY },
    { name: 'Stripe given a constant key: require-key-passthrough reports the constant', code: TRIAL.replace('crypto.randomUUID()', "'refund'") },
  ],
  invalid: [
    {
      name: 'a handler that calls no keyed provider and never reads its key is still withKeyUnused',
      code: TRIAL.replace('declare const stripe: Stripe;', 'declare const stripe: Stripe; declare const ledger: { refund(id: string): Promise<void> };').replace("stripe.refunds.create({ charge: chargeId }, { idempotencyKey: crypto.randomUUID() })", 'ledger.refund(chargeId)'),
      errors: [{ messageId: 'withKeyUnused', line: 6 }],
    },
  ],
});
