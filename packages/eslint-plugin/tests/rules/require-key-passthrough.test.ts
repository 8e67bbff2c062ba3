import type { TSESLint } from '@typescript-eslint/utils';
import * as parser from '@typescript-eslint/parser';
import { RuleTester, type InvalidTestCase, type ValidTestCase } from '@typescript-eslint/rule-tester';
import { Linter } from 'eslint';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

import rule, { type MessageIds, type Options } from '../../src/rules/require-key-passthrough.js';

// Sources are flush left so that the line and column of each case read straight off the code.
// Each suggestion's output is written as the one edit it makes to the case's code (`edit`), so the
// test shows what changes; `edit` fails if the text to change is not there exactly once.
const ruleTester = new RuleTester();

/** ESLint's default parser, for the plain-JavaScript cases (not a direct dependency: reached through eslint). */
const espree = createRequire(createRequire(import.meta.url).resolve('eslint'))('espree') as TSESLint.Parser.LooseParserModule;
const javascript = { parser: espree, parserOptions: { ecmaVersion: 'latest', sourceType: 'module' } } as const;

type Valid = ValidTestCase<Options>;
type Invalid = InvalidTestCase<MessageIds, Options>;
type Expected = NonNullable<Invalid['errors']>[number];
type Suggestion = NonNullable<Expected['suggestions']>[number];

/** `code` with each `[from, to]` replaced; every `from` must occur exactly once. */
function edit(code: string, ...replacements: [string, string][]): string {
  return replacements.reduce((text, [from, to]) => {
    if (text.split(from).length !== 2) throw new Error(`expected exactly one ${JSON.stringify(from)} in the case's code`);
    return text.replace(from, () => to);
  }, code);
}

/** A call that passes no key; `suggestions` is what the report offers (none when it cannot write the key). */
function missing(line: number, column: number, suggestions: Suggestion[] = []): Expected {
  return { messageId: 'missingKey', line, column, suggestions };
}

/** What `missingKey` tells a framework tool with no key variable: through its guard the key is `currentCall()?.key`. */
function guardedRemedy(guard: string): string {
  return `Pass the key this tool is idempotent with as the \`idempotencyKey\` request option: run through \`${guard}\`, it is \`currentCall()?.key\` (\`currentCall\` from \`@retrysafe/spec\`). The handler has no variable for it yet, so there is no suggestion.`;
}

/** A call that passes a key other than the tool's. */
function foreign(line: number, column: number, suggestions: Suggestion[] = []): Expected {
  return { messageId: 'foreignKey', line, column, suggestions };
}

/** A call that passes a constant as its key (`'refund'`, a `const` bound to one). */
function constant(line: number, column: number, suggestions: Suggestion[] = []): Expected {
  return { messageId: 'constantKey', line, column, suggestions };
}

const pass = (output: string): Suggestion => ({ messageId: 'passKey', output });
const bindAndPass = (output: string): Suggestion => ({ messageId: 'bindAndPassKey', output });
const useToolKey = (output: string): Suggestion => ({ messageId: 'useToolKey', output });

/** An invalid case whose suggestions are derived from its own code. */
function invalid(name: string, code: string, errors: (code: string) => Expected[], extra: Partial<Invalid> = {}): Invalid {
  return { name, code, errors: errors(code), ...extra };
}

// ---------------------------------------------------------------------------------------------
// The shared cases (tests/cases): none is inside a with_key tool, so none is reported. B04 and B15
// pass keys to Stripe outside any tool; the rest have no keyed tool at all.
// ---------------------------------------------------------------------------------------------

const casesDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '../cases');
const sharedCases = ['B01.ts', 'B02.ts', 'B04.ts', 'B05.ts', 'B07.ts', 'B08.ts', 'B10.ts', 'B11.ts', 'B12.ts', 'B13.ts', 'B15.ts', 'B18.ts'];

ruleTester.run('require-key-passthrough: shared cases', rule, {
  valid: sharedCases.map((file): Valid => ({
    name: `${file}: nothing to report (no with_key tool)`,
    code: readFileSync(path.join(casesDir, file), 'utf8'),
    filename: file,
  })),
  invalid: [],
});

// ---------------------------------------------------------------------------------------------
// Stripe
// ---------------------------------------------------------------------------------------------

ruleTester.run('require-key-passthrough: Stripe create and update', rule, {
  valid: [
    {
      name: 'the seed: execute passes its key as the idempotencyKey option',
      code: `
import { defineTool } from '@retrysafe/spec';
import Stripe from 'stripe';
declare const stripe: Stripe;
export const issueRefund = defineTool({
  name: 'issue_refund', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', input, key: refundKey,
  execute: async ({ orderId, amountCents }, { key }) =>
    stripe.refunds.create({ payment_intent: orderId, amount: amountCents }, { idempotencyKey: key }),
});
`,
    },
    {
      name: 'keys built from the tool key, one per provider call',
      code: `
import { defineTool } from '@retrysafe/spec';
import Stripe from 'stripe';
const stripe = new Stripe(process.env.STRIPE_SECRET_KEY ?? '');
export const signUp = defineTool({
  name: 'sign_up', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', input, key: signUpKey,
  async execute({ email }, { key }) {
    const customer = await stripe.customers.create({ email }, { idempotencyKey: \`\${key}:customer\` });
    const options = { idempotencyKey: key + ':subscription' };
    await stripe.subscriptions.create({ customer: customer.id }, options);
    await stripe.customers.update(customer.id, { name: email }, { idempotencyKey: String(key).slice(0, 200) });
  },
});
`,
    },
    {
      name: 'options passed through a parameter or a spread are not visible, so not judged',
      code: `
import { defineTool } from '@retrysafe/spec';
import { Stripe } from 'stripe';
declare const stripe: Stripe;
export const t = defineTool({
  name: 't', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', input, key: k,
  execute: async (input, { key }) => {
    const send = (params: Stripe.RefundCreateParams, options: Stripe.RequestOptions) => stripe.refunds.create(params, options);
    await send({ amount: 1 }, { idempotencyKey: key });
    await stripe.refunds.create(...input.args);
    await stripe.refunds.create({ amount: 1 }, { ...input.options });
  },
});
`,
    },
    {
      name: 'a nested function that receives the key as an argument',
      code: `
import { defineTool } from '@retrysafe/spec';
import Stripe from 'stripe';
declare const stripe: Stripe;
export const t = defineTool({
  name: 't', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', input, key: k,
  execute: async ({ lines }, { key }) => {
    const refundLine = (line: { id: string }, lineKey: string) =>
      stripe.refunds.create({ charge: line.id }, { idempotencyKey: lineKey });
    return Promise.all(lines.map((line, i) => refundLine(line, \`\${key}:\${i}\`)));
  },
});
`,
    },
    {
      name: 'stripe-node before v18 also reads an options-only object in any position',
      code: `
import { defineTool } from '@retrysafe/spec';
import Stripe from 'stripe';
declare const stripe: Stripe;
export const t = defineTool({
  name: 't', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', input, key: k,
  execute: async ({ intentId }, { key }) => stripe.paymentIntents.capture(intentId, { idempotencyKey: key }),
});
`,
    },
  ],
  invalid: [
    invalid(
      'create with params only',
      `
import { defineTool } from '@retrysafe/spec';
import Stripe from 'stripe';
declare const stripe: Stripe;
export const issueRefund = defineTool({
  name: 'issue_refund', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', input, key: refundKey,
  execute: async ({ orderId, amountCents }, { key }) =>
    stripe.refunds.create({ payment_intent: orderId, amount: amountCents }),
});
`,
      (code) => [
        {
          ...missing(8, 5, [pass(edit(code, ['amount: amountCents })', 'amount: amountCents }, { idempotencyKey: key })']))]),
          // The message names the tool, the call and where the key goes.
          data: {
            tool: 'Tool `issue_refund`',
            call: '`stripe.refunds.create(...)`',
            where: 'the `idempotencyKey` request option',
            remedy: "Pass the tool's key as the `idempotencyKey` request option.",
          },
        },
      ],
    ),
    invalid(
      'update with an id and params, and a nested resource',
      `
import { defineTool } from '@retrysafe/spec';
import Stripe from 'stripe';
const stripe = new Stripe('sk_test_123');
export const t = defineTool({
  name: 't', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', input, key: k,
  execute: async ({ customerId }, { key }) => {
    await stripe.customers.update(customerId, { name: 'A' });
    await stripe.checkout.sessions.create({ mode: 'payment' });
  },
});
`,
      (code) => [
        missing(8, 11, [pass(edit(code, ["{ name: 'A' })", "{ name: 'A' }, { idempotencyKey: key })"]))]),
        missing(9, 11, [pass(edit(code, ["{ mode: 'payment' })", "{ mode: 'payment' }, { idempotencyKey: key })"]))]),
      ],
    ),
    invalid(
      'capture(id) and create() get empty params before the options',
      `
import { defineTool } from '@retrysafe/spec';
import Stripe from 'stripe';
declare const stripe: Stripe;
export const t = defineTool({
  name: 't', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', input, key: k,
  execute: async ({ intentId }, { key }) => {
    await stripe.paymentIntents.capture(intentId);
    await stripe.customers.create();
  },
});
`,
      (code) => [
        missing(8, 11, [pass(edit(code, ['capture(intentId)', 'capture(intentId, {}, { idempotencyKey: key })']))]),
        missing(9, 11, [pass(edit(code, ['create()', 'create({}, { idempotencyKey: key })']))]),
      ],
    ),
    invalid(
      'an options object without idempotencyKey gets it added, on its own line when the object spans lines',
      `
import { defineTool } from '@retrysafe/spec';
import Stripe from 'stripe';
declare const stripe: Stripe;
export const t = defineTool({
  name: 't', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', input, key: k,
  execute: async ({ account }, { key }) => {
    await stripe.transfers.create({ amount: 1 }, { stripeAccount: account });
    await stripe.payouts.create(
      { amount: 1 },
      {
        stripeAccount: account,
      },
    );
  },
});
`,
      (code) => [
        missing(8, 11, [pass(edit(code, ['{ stripeAccount: account }', '{ stripeAccount: account, idempotencyKey: key }']))]),
        missing(9, 11, [pass(edit(code, ['stripeAccount: account,\n', 'stripeAccount: account,\n        idempotencyKey: key,\n']))]),
      ],
    ),
    invalid(
      'idempotencyKey mixed into the params is sent as a param, not as the option',
      `
import { defineTool } from '@retrysafe/spec';
import Stripe from 'stripe';
declare const stripe: Stripe;
export const t = defineTool({
  name: 't', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', input, key: k,
  execute: async ({ amount }, { key }) => stripe.refunds.create({ amount, idempotencyKey: key }),
});
`,
      (code) => [missing(7, 43, [pass(edit(code, ['idempotencyKey: key })', 'idempotencyKey: key }, { idempotencyKey: key })']))])],
    ),
    invalid(
      'optional chaining and a client declared as Stripe | undefined',
      `
import { defineTool } from '@retrysafe/spec';
import type Stripe from 'stripe';
let stripe: Stripe | undefined;
export const t = defineTool({
  name: 't', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', input, key: k,
  execute: async ({ charge }, { key }) => stripe?.refunds?.create({ charge }),
});
`,
      (code) => [missing(7, 43, [pass(edit(code, ['create({ charge })', 'create({ charge }, { idempotencyKey: key })']))])],
    ),
    invalid(
      // The pair of the valid local-client case below: the same call on a client this file makes from 'stripe'.
      "a client made from 'stripe' in the file: import Stripe from 'stripe'",
      `
import { defineTool } from '@retrysafe/spec';
import Stripe from 'stripe';
const stripe = new Stripe('sk_test');
export const t = defineTool({
  name: 't', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', input, key: k,
  execute: async ({ charge }, { key }) => stripe.refunds.create({ charge }),
});
`,
      (code) => [missing(7, 43, [pass(edit(code, ['create({ charge })', 'create({ charge }, { idempotencyKey: key })']))])],
    ),
  ],
});

// New-user trial: a client imported from the project's own module was read as Stripe's SDK by its
// name alone (`stripe`, `stripeClient`), and renaming the import made the rule silent. The name is
// no evidence: only a client that traces to the 'stripe' package in this file is Stripe's.
ruleTester.run('require-key-passthrough: a local client named stripe', rule, {
  valid: [
    {
      name: "import { stripe } from './clients.js': the project's own module, not known to be Stripe",
      code: `
import { defineTool } from '@retrysafe/spec';
import { stripe } from './clients.js';
export const t = defineTool({
  name: 't', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', input, key: k,
  execute: async ({ charge }, { key }) => stripe.refunds.create({ charge }),
});
`,
    },
    {
      name: "import { stripeClient } from './lib/stripe': the module's path names Stripe, but is the project's own",
      code: `
import { defineTool } from '@retrysafe/spec';
import { stripeClient } from './lib/stripe';
export const t = defineTool({
  name: 't', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', input, key: k,
  execute: async ({ invoiceId }, { key }) => stripeClient.invoices.pay(invoiceId, {}),
});
`,
    },
  ],
  invalid: [
    invalid(
      "the same import given the type Stripe from 'stripe' where it is used (the docs' remedy)",
      `
import { defineTool } from '@retrysafe/spec';
import type Stripe from 'stripe';
import { stripe } from './clients.js';
const client: Stripe = stripe;
export const t = defineTool({
  name: 't', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', input, key: k,
  execute: async ({ charge }, { key }) => client.refunds.create({ charge }),
});
`,
      (code) => [missing(8, 43, [pass(edit(code, ['create({ charge })', 'create({ charge }, { idempotencyKey: key })']))])],
    ),
  ],
});

ruleTester.run('require-key-passthrough: a key that is not the tool key', rule, {
  valid: [],
  invalid: [
    invalid(
      // A fresh uuid is no-random-key's to report (one fault, one report): tests/rules/one-fault-one-report.test.ts.
      'a constant, the run id and an input field (a fresh uuid beside them is no-random-key\'s)',
      `
import { defineTool } from '@retrysafe/spec';
import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
declare const stripe: Stripe;
export const t = defineTool({
  name: 't', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', input, key: k,
  execute: async ({ orderId }, { key, run }) => {
    await stripe.refunds.create({ charge: orderId }, { idempotencyKey: 'refund' });
    await stripe.refunds.create({ charge: orderId }, { idempotencyKey: \`\${run.id}:\${orderId}\` });
    await stripe.refunds.create({ charge: orderId }, { idempotencyKey: orderId });
    await stripe.refunds.create({ charge: orderId }, { idempotencyKey: randomUUID() });
  },
});
`,
      (code) => [
        constant(9, 72, [useToolKey(edit(code, ["idempotencyKey: 'refund'", 'idempotencyKey: key']))]),
        foreign(10, 72, [useToolKey(edit(code, ['idempotencyKey: `${run.id}:${orderId}`', 'idempotencyKey: key']))]),
        foreign(11, 72, [useToolKey(edit(code, ['idempotencyKey: orderId }', 'idempotencyKey: key }']))]),
      ],
    ),
    invalid(
      'a shorthand property of another variable, and a header of a constant',
      `
import { defineTool } from '@retrysafe/spec';
import Stripe from 'stripe';
declare const stripe: Stripe;
const idempotencyKey = 'static';
export const t = defineTool({
  name: 't', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', input, key: k,
  execute: async ({ orderId }, ctx) => {
    await stripe.refunds.create({ charge: orderId }, { idempotencyKey });
    await fetch('https://api.example.com/refunds', { method: 'POST', headers: { 'Idempotency-Key': ctx.run.id } });
  },
});
`,
      (code) => [
        constant(9, 56, [useToolKey(edit(code, ['{ idempotencyKey }', '{ idempotencyKey: ctx.key }']))]),
        foreign(10, 100, [useToolKey(edit(code, ["'Idempotency-Key': ctx.run.id", "'Idempotency-Key': ctx.key"]))]),
      ],
    ),
  ],
});

ruleTester.run('require-key-passthrough: reads and deletes are exempt', rule, {
  valid: [
    {
      name: 'retrieve, list, search, del, the DELETE behind subscriptions.cancel, previews and webhooks',
      code: `
import { defineTool } from '@retrysafe/spec';
import Stripe from 'stripe';
declare const stripe: Stripe;
export const t = defineTool({
  name: 't', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', input, key: k,
  execute: async ({ id, payload, signature }, { key }) => {
    await stripe.paymentIntents.retrieve(id);
    await stripe.refunds.list({ charge: id });
    await stripe.customers.search({ query: "email:'a@b.c'" });
    await stripe.customers.listPaymentMethods(id);
    await stripe.customers.del(id);
    await stripe.subscriptions.cancel(id);
    await stripe.invoices.createPreview({ customer: id });
    stripe.webhooks.constructEvent(payload, signature, 'whsec');
    await stripe.refunds.create({ charge: id }, { idempotencyKey: key });
  },
});
`,
    },
  ],
  invalid: [],
});

// ---------------------------------------------------------------------------------------------
// HTTP: fetch, undici, axios
// ---------------------------------------------------------------------------------------------

ruleTester.run('require-key-passthrough: fetch', rule, {
  valid: [
    {
      name: 'GET by default, a method that is not known, and the header in another letter case',
      code: `
import { defineTool } from '@retrysafe/spec';
export const t = defineTool({
  name: 't', sideEffects: 'external_write', idempotent: 'with_key', retry: 'safe_with_same_key', input, key: k,
  execute: async ({ url, method }, { key }) => {
    await fetch(url);
    await fetch(url, { method: 'DELETE' });
    await fetch(url, { method });
    await fetch(url, { method: 'POST', headers: { 'idempotency-key': key } });
    await globalThis.fetch(url, { method: 'put', headers: { 'IDEMPOTENCY-KEY': key } });
  },
});
`,
    },
    {
      name: 'a local function called fetch is not the global',
      code: `
import { defineTool } from '@retrysafe/spec';
export const t = defineTool({
  name: 't', sideEffects: 'external_write', idempotent: 'with_key', retry: 'safe_with_same_key', input, key: k,
  execute: async ({ url }, { key }) => {
    const fetch = (u: string, init: RequestInit) => ({ u, init });
    return fetch(url, { method: 'POST' });
  },
});
`,
    },
  ],
  invalid: [
    invalid(
      'POST without headers, and headers without the key (method in any letter case)',
      `
import { defineTool } from '@retrysafe/spec';
export const createTicket = defineTool({
  name: 'create_ticket', sideEffects: 'external_write', idempotent: 'with_key', retry: 'safe_with_same_key', input, key: k,
  execute: async ({ title }, { key }) => {
    await fetch('https://api.example.com/tickets', { method: 'POST', body: JSON.stringify({ title }) });
    await fetch('https://api.example.com/tickets/1', { method: 'patch', headers: { 'content-type': 'application/json' } });
  },
});
`,
      (code) => [
        missing(6, 11, [pass(edit(code, ['body: JSON.stringify({ title }) }', "body: JSON.stringify({ title }), headers: { 'Idempotency-Key': key } }"]))]),
        missing(7, 11, [pass(edit(code, ["'content-type': 'application/json' }", "'content-type': 'application/json', 'Idempotency-Key': key }"]))]),
      ],
    ),
    invalid(
      'a Request object and an init held in a const',
      `
import { defineTool } from '@retrysafe/spec';
export const t = defineTool({
  name: 't', sideEffects: 'external_write', idempotent: 'with_key', retry: 'safe_with_same_key', input, key: k,
  execute: async ({ body }, { key }) => {
    await fetch(new Request('https://api.example.com/a', { method: 'PUT', body }));
    const init = { method: 'POST', body };
    await fetch('https://api.example.com/b', init);
  },
});
`,
      (code) => [
        missing(6, 11, [pass(edit(code, ["{ method: 'PUT', body }", "{ method: 'PUT', body, headers: { 'Idempotency-Key': key } }"]))]),
        missing(8, 11, [pass(edit(code, ["{ method: 'POST', body }", "{ method: 'POST', body, headers: { 'Idempotency-Key': key } }"]))]),
      ],
    ),
  ],
});

ruleTester.run('require-key-passthrough: Headers objects', rule, {
  valid: [
    {
      name: 'new Headers with entries, and headers set on a variable',
      code: `
import { defineTool } from '@retrysafe/spec';
export const t = defineTool({
  name: 't', sideEffects: 'external_write', idempotent: 'with_key', retry: 'safe_with_same_key', input, key: k,
  execute: async ({ body }, { key }) => {
    await fetch('/a', { method: 'POST', body, headers: new Headers([['Idempotency-Key', key]]) });
    const headers = new Headers({ accept: 'application/json' });
    headers.set('Idempotency-Key', key);
    await fetch('/b', { method: 'POST', body, headers });
    const plain: Record<string, string> = {};
    plain['idempotency-key'] = key;
    await fetch('/c', { method: 'POST', body, headers: plain });
  },
});
`,
    },
  ],
  invalid: [
    invalid(
      'new Headers({...}) without the key; an empty new Headers() has no place to write it',
      `
import { defineTool } from '@retrysafe/spec';
export const t = defineTool({
  name: 't', sideEffects: 'external_write', idempotent: 'with_key', retry: 'safe_with_same_key', input, key: k,
  execute: async ({ body }, { key }) => {
    await fetch('/a', { method: 'POST', body, headers: new Headers({ accept: 'application/json' }) });
    await fetch('/b', { method: 'POST', body, headers: new Headers() });
  },
});
`,
      (code) => [
        missing(6, 11, [pass(edit(code, ["{ accept: 'application/json' }", "{ accept: 'application/json', 'Idempotency-Key': key }"]))]),
        missing(7, 11),
      ],
    ),
  ],
});

ruleTester.run('require-key-passthrough: undici', rule, {
  valid: [
    {
      name: "undici's flat header array, and a GET request",
      code: `
import { defineTool } from '@retrysafe/spec';
import { request } from 'undici';
export const t = defineTool({
  name: 't', sideEffects: 'external_write', idempotent: 'with_key', retry: 'safe_with_same_key', input, key: k,
  execute: async ({ body }, { key }) => {
    await request('https://api.example.com/a', { method: 'POST', body, headers: ['content-type', 'text/plain', 'Idempotency-Key', key] });
    await request('https://api.example.com/a');
  },
});
`,
    },
  ],
  invalid: [
    invalid(
      'request and fetch from undici, imported by name and as a namespace',
      `
import { defineTool } from '@retrysafe/spec';
import { fetch, request } from 'undici';
import * as undici from 'undici';
export const t = defineTool({
  name: 't', sideEffects: 'external_write', idempotent: 'with_key', retry: 'safe_with_same_key', input, key: k,
  execute: async ({ body }, { key }) => {
    await request('https://api.example.com/a', { method: 'POST', body });
    await fetch('https://api.example.com/b', { method: 'PATCH', body });
    await undici.request('https://api.example.com/c', { method: 'PUT', body });
  },
});
`,
      (code) => [
        missing(8, 11, [pass(edit(code, ["{ method: 'POST', body }", "{ method: 'POST', body, headers: { 'Idempotency-Key': key } }"]))]),
        missing(9, 11, [pass(edit(code, ["{ method: 'PATCH', body }", "{ method: 'PATCH', body, headers: { 'Idempotency-Key': key } }"]))]),
        missing(10, 11, [pass(edit(code, ["{ method: 'PUT', body }", "{ method: 'PUT', body, headers: { 'Idempotency-Key': key } }"]))]),
      ],
    ),
  ],
});

ruleTester.run('require-key-passthrough: axios', rule, {
  valid: [
    {
      name: 'reads and deletes, a config that is not visible, and a key in the config headers',
      code: `
import { defineTool } from '@retrysafe/spec';
import axios from 'axios';
const api = axios.create({ baseURL: 'https://api.example.com' });
export const t = defineTool({
  name: 't', sideEffects: 'external_write', idempotent: 'with_key', retry: 'safe_with_same_key', input, key: k,
  execute: async ({ body, config }, { key }) => {
    await axios.get('/a');
    await api.delete('/a');
    await axios(config);
    await axios.post('/a', body, config);
    await api.put('/a', body, { headers: { 'Idempotency-Key': key } });
    await axios({ method: 'post', url: '/a', data: body, headers: { 'Idempotency-Key': key } });
  },
});
`,
    },
  ],
  invalid: [
    invalid(
      'axios.post with data, with no data, and an instance from axios.create',
      `
import { defineTool } from '@retrysafe/spec';
import axios from 'axios';
const api = axios.create({ baseURL: 'https://api.example.com' });
export const t = defineTool({
  name: 't', sideEffects: 'external_write', idempotent: 'with_key', retry: 'safe_with_same_key', input, key: k,
  execute: async ({ body }, { key }) => {
    await axios.post('/a', body);
    await axios.post('/a');
    await api.patch('/a', body, { timeout: 1000 });
  },
});
`,
      (code) => [
        missing(8, 11, [pass(edit(code, ["axios.post('/a', body)", "axios.post('/a', body, { headers: { 'Idempotency-Key': key } })"]))]),
        missing(9, 11, [pass(edit(code, ["axios.post('/a')", "axios.post('/a', undefined, { headers: { 'Idempotency-Key': key } })"]))]),
        missing(10, 11, [pass(edit(code, ['{ timeout: 1000 }', "{ timeout: 1000, headers: { 'Idempotency-Key': key } }"]))]),
      ],
    ),
    invalid(
      'axios(config), axios(url, config) and axios.request(config)',
      `
import { defineTool } from '@retrysafe/spec';
import axios from 'axios';
export const t = defineTool({
  name: 't', sideEffects: 'external_write', idempotent: 'with_key', retry: 'safe_with_same_key', input, key: k,
  execute: async ({ data }, { key }) => {
    await axios({ method: 'POST', url: '/a', data });
    await axios('/b', { method: 'put', data });
    await axios.request({ url: '/c', method: 'PATCH', data, headers: { accept: 'json' } });
  },
});
`,
      (code) => [
        missing(7, 11, [pass(edit(code, ["url: '/a', data }", "url: '/a', data, headers: { 'Idempotency-Key': key } }"]))]),
        missing(8, 11, [pass(edit(code, ["{ method: 'put', data }", "{ method: 'put', data, headers: { 'Idempotency-Key': key } }"]))]),
        missing(9, 11, [pass(edit(code, ["{ accept: 'json' }", "{ accept: 'json', 'Idempotency-Key': key }"]))]),
      ],
    ),
  ],
});

// ---------------------------------------------------------------------------------------------
// How the handler holds its key
// ---------------------------------------------------------------------------------------------

ruleTester.run('require-key-passthrough: the key binding', rule, {
  valid: [
    {
      name: 'renamed, read from the context, destructured later, or from a rest element',
      code: `
import { defineTool } from '@retrysafe/spec';
import Stripe from 'stripe';
declare const stripe: Stripe;
const base = { name: 't', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', input, key: k } as const;
export const a = defineTool({ ...base, idempotent: 'with_key', execute: async (i, { key: idem }) => stripe.refunds.create({}, { idempotencyKey: idem }) });
export const b = defineTool({ ...base, idempotent: 'with_key', execute: async (i, ctx) => stripe.refunds.create({}, { idempotencyKey: ctx.key }) });
export const c = defineTool({ ...base, idempotent: 'with_key', execute: async (i, ctx) => { const { key } = ctx; return stripe.refunds.create({}, { idempotencyKey: key }); } });
export const d = defineTool({ ...base, idempotent: 'with_key', execute: async (i, { run, ...rest }) => stripe.refunds.create({}, { idempotencyKey: rest.key }) });
`,
    },
  ],
  invalid: [
    invalid(
      'a renamed key is used by its name (shorthand when it matches the option)',
      `
import { defineTool } from '@retrysafe/spec';
import Stripe from 'stripe';
declare const stripe: Stripe;
export const t = defineTool({
  name: 't', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', input, key: k,
  execute: async ({ charge }, { key: idempotencyKey }) => stripe.refunds.create({ charge }),
});
`,
      (code) => [missing(7, 59, [pass(edit(code, ['create({ charge })', 'create({ charge }, { idempotencyKey })']))])],
    ),
    invalid(
      'the context as a parameter: ctx.key',
      `
import { defineTool } from '@retrysafe/spec';
import Stripe from 'stripe';
declare const stripe: Stripe;
export const t = defineTool({
  name: 't', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', input, key: k,
  async execute({ charge }, context) {
    return stripe.refunds.create({ charge });
  },
});
`,
      (code) => [missing(8, 12, [pass(edit(code, ['create({ charge })', 'create({ charge }, { idempotencyKey: context.key })']))])],
    ),
    invalid(
      'a handler that does not take the key yet: the suggestion binds it',
      `
import { defineTool } from '@retrysafe/spec';
import Stripe from 'stripe';
declare const stripe: Stripe;
const base = { name: 't', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', input, key: k } as const;
export const a = defineTool({ ...base, idempotent: 'with_key', execute: async ({ charge }) => stripe.refunds.create({ charge }) });
export const b = defineTool({ ...base, idempotent: 'with_key', execute: async () => stripe.refunds.create({}) });
export const c = defineTool({ ...base, idempotent: 'with_key', execute: async (input, { run }) => stripe.refunds.create({ metadata: { run: run.id } }) });
export const d = defineTool({ ...base, idempotent: 'with_key', execute: async input => stripe.refunds.create(input) });
`,
      (code) => [
        missing(6, 95, [
          bindAndPass(edit(code, ['async ({ charge }) =>', 'async ({ charge }, { key }) =>'], ['create({ charge })', 'create({ charge }, { idempotencyKey: key })'])),
        ]),
        missing(7, 85, [bindAndPass(edit(code, ['async () =>', 'async (_input, { key }) =>'], ['create({})', 'create({}, { idempotencyKey: key })']))]),
        missing(8, 99, [
          bindAndPass(edit(code, ['{ run }', '{ run, key }'], ['{ run: run.id } })', '{ run: run.id } }, { idempotencyKey: key })'])),
        ]),
        missing(9, 88, [bindAndPass(edit(code, ['async input =>', 'async (input, { key }) =>'], ['create(input)', 'create(input, { idempotencyKey: key })']))]),
      ],
    ),
    invalid(
      'the name `key` is taken (the key tagged template is used in the handler): bind it as idempotencyKey',
      `
import { defineTool, key } from '@retrysafe/spec';
import Stripe from 'stripe';
declare const stripe: Stripe;
export const t = defineTool({
  name: 't', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', input, key: ({ input }) => key\`\${input.id}\`,
  execute: async ({ id }) => stripe.refunds.create({ metadata: { ref: key\`\${id}\` } }),
});
`,
      (code) => [
        missing(7, 30, [
          bindAndPass(
            edit(code, ['async ({ id }) =>', 'async ({ id }, { key: idempotencyKey }) =>'], ['`${id}` } })', '`${id}` } }, { idempotencyKey })']),
          ),
        ]),
      ],
    ),
  ],
});

ruleTester.run('require-key-passthrough: nested closures', rule, {
  valid: [],
  invalid: [
    invalid(
      'calls in callbacks inside the handler are the handler’s calls',
      `
import { defineTool } from '@retrysafe/spec';
import Stripe from 'stripe';
declare const stripe: Stripe;
export const t = defineTool({
  name: 't', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', input, key: k,
  execute: async ({ charges }, { key }) => {
    await Promise.all(charges.map(async (charge: string) => {
      await stripe.refunds.create({ charge });
    }));
    setTimeout(function retryLater() { void fetch('/refunds', { method: 'POST' }); }, 10);
  },
});
`,
      (code) => [
        missing(9, 13, [pass(edit(code, ['create({ charge })', 'create({ charge }, { idempotencyKey: key })']))]),
        missing(11, 45, [pass(edit(code, ["{ method: 'POST' }", "{ method: 'POST', headers: { 'Idempotency-Key': key } }"]))]),
      ],
    ),
    invalid(
      'a closure parameter that shadows the key: reported without a suggestion',
      `
import { defineTool } from '@retrysafe/spec';
import Stripe from 'stripe';
declare const stripe: Stripe;
export const t = defineTool({
  name: 't', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', input, key: k,
  execute: async ({ charges }, { key }) => charges.map((key: string) => stripe.refunds.create({ charge: key })),
});
`,
      () => [missing(7, 73)],
    ),
  ],
});

// ---------------------------------------------------------------------------------------------
// Which tools: with_key only, of any framework with a declared policy
// ---------------------------------------------------------------------------------------------

ruleTester.run('require-key-passthrough: outside a with_key tool', rule, {
  valid: [
    {
      name: 'a plain function, a naturally idempotent tool, a not-repeatable one, and the key function',
      code: `
import { defineTool, key } from '@retrysafe/spec';
import Stripe from 'stripe';
declare const stripe: Stripe;
export const charge = (amount: number) => stripe.paymentIntents.create({ amount, currency: 'usd' });
export const getOrder = defineTool({
  name: 'get_order', sideEffects: 'none', idempotent: true, retry: 'safe', input,
  execute: async ({ id }) => fetch('/graphql', { method: 'POST', body: id }),
});
export const notify = defineTool({
  name: 'notify', sideEffects: 'message_out', idempotent: false, retry: 'never', input,
  execute: async ({ text }) => fetch('/notify', { method: 'POST', body: text }),
});
export const refund = defineTool({
  name: 'refund', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', input,
  key: ({ input }) => { void fetch('/log', { method: 'POST' }); return key\`\${input.id}\`; },
  execute: async ({ id }, { key }) => stripe.refunds.create({ charge: id }, { idempotencyKey: key }),
});
`,
    },
    {
      name: 'a tool whose policy is not visible is not judged',
      code: `
import { defineTool } from '@retrysafe/spec';
import Stripe from 'stripe';
import { policy } from './policy';
declare const stripe: Stripe;
export const t = defineTool({ name: 't', ...policy, input, execute: async ({ id }) => stripe.refunds.create({ charge: id }) });
`,
    },
    {
      name: 'MCP annotations cannot say with_key',
      code: `
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import Stripe from 'stripe';
declare const stripe: Stripe;
declare const server: McpServer;
server.registerTool('refund', {
  inputSchema: { charge: z.string() },
  annotations: { destructiveHint: false, idempotentHint: true },
}, async ({ charge }) => { await stripe.refunds.create({ charge }); return { content: [] }; });
`,
    },
  ],
  invalid: [],
});

// ---------------------------------------------------------------------------------------------
// A constant key (a new-user trial): one key for every call, so the provider answers a later,
// different refund with the first one's result. Reported as `constantKey`, naming the constant.
// ---------------------------------------------------------------------------------------------

/** A framework tool declared with_key whose handler's body is `body` (from line 8, or after `head`'s lines from line 6). */
const withKeyRefund = (body: string, head = ''): string => `
import { tool } from 'ai';
import { declarePolicy } from '@retrysafe/spec';
import Stripe from 'stripe';
declare const stripe: Stripe;
${head}export const refund = declarePolicy(
  tool({ description: 'Refund', inputSchema, execute: async (input) => {
${body}
  } }),
  { side_effects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key' },
);
`;

ruleTester.run('require-key-passthrough: a constant key', rule, {
  valid: [
    {
      // A key-named local is a framework tool's key unless the file shows it is a constant.
      name: 'a framework tool: a key-named local built from the input, or read from it',
      code: withKeyRefund(`    const idempotencyKey = \`refund:\${input.chargeId}\`;
    const dedupeKey = input.dedupeKey;
    await stripe.refunds.create({ charge: input.chargeId }, { idempotencyKey });
    return stripe.refunds.create({ charge: input.chargeId }, { idempotencyKey: dedupeKey });`),
    },
    {
      // A business id is the intended cross-run dedup (no-random-key.md); a framework tool's key is its own.
      name: 'a framework tool: a business-id key is not a constant',
      code: withKeyRefund('    return stripe.refunds.create({ charge: input.chargeId }, { idempotencyKey: input.orderId });'),
    },
    {
      // The call is not a provider the rule knows: only a constant under a key's name is judged there.
      name: "a project's own client in a with_key tool: the tool's key, a key built from it, a random key (no-random-key's), a constant under another name",
      code: `
import { defineTool } from '@retrysafe/spec';
import { payments } from './payments.js';
export const refund = defineTool({
  name: 'refund', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', input, key: k,
  execute: async (input, { key }) => {
    await payments.refund(input.orderId, input.amount, { idempotencyKey: key });
    await payments.refund(input.orderId, input.amount, { idempotencyKey: \`\${key}:refund\` });
    await payments.refund(input.orderId, input.amount, { idempotencyKey: crypto.randomUUID() });
    return payments.refund(input.orderId, input.amount, { reason: 'requested_by_customer', currency: 'usd' });
  },
});
`,
    },
    {
      name: "a project's own client given a constant key outside a with_key tool is not this rule's",
      code: `
import { defineTool } from '@retrysafe/spec';
import { payments } from './payments.js';
export const backfill = () => payments.refund('o_1', 100, { idempotencyKey: 'backfill-2026' });
export const refund = defineTool({
  name: 'refund', sideEffects: 'money_out', idempotent: false, retry: 'never', input,
  execute: async (input) => payments.refund(input.orderId, input.amount, { idempotencyKey: 'refund' }),
});
`,
    },
    {
      name: 'a constant key outside a with_key tool is not this rule\'s',
      code: `
import { tool } from 'ai';
import { declarePolicy } from '@retrysafe/spec';
import Stripe from 'stripe';
declare const stripe: Stripe;
export const backfill = () => stripe.refunds.create({ charge: 'ch_1' }, { idempotencyKey: 'backfill-2026' });
export const refund = declarePolicy(
  tool({ description: 'Refund', inputSchema, execute: async (input) => stripe.refunds.create({ charge: input.chargeId }, { idempotencyKey: 'refund' }) }),
  { side_effects: 'money_out', idempotent: false, retry: 'never' },
);
`,
    },
  ],
  invalid: [
    invalid(
      // new-user trial: defineTool({ ..., execute: async (input, { key }) => stripe.refunds.create(..., { idempotencyKey: 'refund' }) })
      'a defineTool handler passes a string literal',
      `
import { defineTool } from '@retrysafe/spec';
import Stripe from 'stripe';
declare const stripe: Stripe;
export const refund = defineTool({
  name: 'refund', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', input, key: k,
  execute: async (input, { key }) => stripe.refunds.create({ charge: input.chargeId, amount: input.amount }, { idempotencyKey: 'refund' }),
});
`,
      (code) => [
        {
          ...constant(7, 128, [useToolKey(edit(code, ["idempotencyKey: 'refund'", 'idempotencyKey: key']))]),
          data: { tool: 'Tool `refund`', call: '`stripe.refunds.create(...)`', where: 'the `idempotencyKey` request option', constant: "`'refund'`" },
        },
      ],
    ),
    invalid(
      // new-user trial 5: the spec's key template is a DeterministicKey, but with no part it is one key for every call.
      "a defineTool handler passes the spec's key template with no part",
      `
import { defineTool, key as k2 } from '@retrysafe/spec';
import Stripe from 'stripe';
declare const stripe: Stripe;
export const refund = defineTool({
  name: 'refund', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', input, key: k,
  execute: async (input, { key }) => stripe.refunds.create({ charge: input.chargeId, amount: input.amount }, { idempotencyKey: k2\`refund\` }),
});
`,
      (code) => [
        {
          ...constant(7, 128, [useToolKey(edit(code, ['idempotencyKey: k2`refund`', 'idempotencyKey: key']))]),
          data: { tool: 'Tool `refund`', call: '`stripe.refunds.create(...)`', where: 'the `idempotencyKey` request option', constant: '`` `refund` ``' },
        },
      ],
    ),
    invalid(
      "a framework tool in declarePolicy: idempotencyKey: 'fixed', a template without substitutions, an Idempotency-Key header, a module-level const",
      withKeyRefund(`    await stripe.refunds.create({ charge: input.chargeId }, { idempotencyKey: 'fixed' });
    await stripe.refunds.create({ charge: input.chargeId }, { idempotencyKey: \`fixed\` });
    await fetch('https://api.example.com/refunds', { method: 'POST', headers: { 'Idempotency-Key': 'static' } });
    await stripe.refunds.create({ charge: input.chargeId }, { idempotencyKey: ALIAS });`, `const KEY = 'refund-key';
const ALIAS = KEY;
`),
      () => [
        { ...constant(10, 79), data: { tool: 'Tool `refund`', call: '`stripe.refunds.create(...)`', where: 'the `idempotencyKey` request option', constant: "`'fixed'`" } },
        { ...constant(11, 79), data: { tool: 'Tool `refund`', call: '`stripe.refunds.create(...)`', where: 'the `idempotencyKey` request option', constant: '`` `fixed` ``' } },
        { ...constant(12, 100), data: { tool: 'Tool `refund`', call: 'the POST request `fetch(...)`', where: 'the `Idempotency-Key` header', constant: "`'static'`" } },
        // The name the key reads, and where the constant is.
        { ...constant(13, 79), data: { tool: 'Tool `refund`', call: '`stripe.refunds.create(...)`', where: 'the `idempotencyKey` request option', constant: "`ALIAS` (`'refund-key'`, line 6)" } },
      ],
    ),
    invalid(
      // Before, a local named like a key was taken for the framework tool's key, whatever it held.
      'a framework tool: a key-named local bound to a constant is not its key',
      withKeyRefund(`    const idempotencyKey = 'fixed';
    return stripe.refunds.create({ charge: input.chargeId }, { idempotencyKey });`),
      () => [{ ...constant(9, 64), data: { tool: 'Tool `refund`', call: '`stripe.refunds.create(...)`', where: 'the `idempotencyKey` request option', constant: "`idempotencyKey` (`'fixed'`, line 8)" } }],
    ),
    invalid(
      // Before, the suggestion passed that constant as the key.
      'a framework tool passing no key: a key-named local bound to a constant is not suggested as its key',
      withKeyRefund(`    const idempotencyKey = 'fixed';
    return stripe.refunds.create({ charge: input.chargeId });`),
      () => [{ ...missing(9, 12), data: { tool: 'Tool `refund`', call: '`stripe.refunds.create(...)`', where: 'the `idempotencyKey` request option', remedy: guardedRemedy('guardAiSdkTools') } }],
    ),
    invalid(
      // new-user trial 6: the audit's question 2 said the key was a constant; no rule said anything.
      "a project's own client (not a provider the rule knows) given a constant under a key's name",
      `
import { defineTool } from '@retrysafe/spec';
import { payments } from './payments.js';
export const refund = defineTool({
  name: 'refund', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', input, key: k,
  execute: async (input, { key }) => payments.refund(input.orderId, input.amount, { idempotencyKey: 'x' }),
});
`,
      (code) => [
        {
          ...constant(6, 101, [useToolKey(edit(code, ["idempotencyKey: 'x'", 'idempotencyKey: key']))]),
          data: { tool: 'Tool `refund`', call: '`payments.refund(...)`', constant: "`'x'`" },
        },
      ],
    ),
    invalid(
      "a framework tool's own client given a constant 'Idempotency-Key' and dedupeKey",
      withKeyRefund(`    await ledger.post({ 'Idempotency-Key': 'fixed', amount: input.amount });
    return ledger.post({ dedupeKey: KEY, amount: input.amount });`, `declare const ledger: { post(body: object): Promise<void> };
const KEY = 'ledger';
`),
      () => [
        { ...constant(10, 44), data: { tool: 'Tool `refund`', call: '`ledger.post(...)`', constant: "`'fixed'`" } },
        { ...constant(11, 37), data: { tool: 'Tool `refund`', call: '`ledger.post(...)`', constant: "`KEY` (`'ledger'`, line 7)" } },
      ],
    ),
    invalid(
      'a configured provider given a constant',
      `
import { defineTool } from '@retrysafe/spec';
import { Payments } from 'my-payments-sdk';
const payments = new Payments('key');
export const t = defineTool({
  name: 't', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', input, key: k,
  execute: async ({ amount }, { key }) => payments.charge(amount, { idempotencyKey: 'charge' }),
});
`,
      (code) => [constant(7, 85, [useToolKey(edit(code, ["idempotencyKey: 'charge'", 'idempotencyKey: key']))])],
      { options: [{ providers: [{ from: 'my-payments-sdk', methods: ['charge'], keyOption: 'idempotencyKey', argument: 1 }] }] },
    ),
    invalid(
      // Not a constant: the business id stays a key that is not the tool's (foreignKey).
      'a defineTool handler passing a business id is foreignKey, not constantKey',
      `
import { defineTool } from '@retrysafe/spec';
import Stripe from 'stripe';
declare const stripe: Stripe;
export const refund = defineTool({
  name: 'refund', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', input, key: k,
  execute: async (input, { key }) => stripe.refunds.create({ charge: input.chargeId }, { idempotencyKey: input.orderId }),
});
`,
      (code) => [foreign(7, 106, [useToolKey(edit(code, ['idempotencyKey: input.orderId', 'idempotencyKey: key']))])],
    ),
  ],
});

ruleTester.run('require-key-passthrough: framework tools with a declared with_key policy', rule, {
  valid: [
    {
      name: 'a policy spread from a const that says idempotent: false is not a with_key tool',
      code: `
import { tool } from 'ai';
import { declarePolicy } from '@retrysafe/spec';
import Stripe from 'stripe';
declare const stripe: Stripe;
const NEVER = { side_effects: 'money_out', idempotent: false, retry: 'never' } as const;
export const refund = declarePolicy(
  tool({ description: 'Refund', inputSchema, execute: async ({ charge }) => stripe.refunds.create({ charge }) }),
  { ...NEVER },
);
`,
    },
    {
      name: 'a spread after the with_key field that the rule cannot see may override it: not judged',
      code: `
import { tool } from 'ai';
import { declarePolicy } from '@retrysafe/spec';
import Stripe from 'stripe';
declare const stripe: Stripe;
declare const overrides: object;
export const refund = declarePolicy(
  tool({ description: 'Refund', inputSchema, execute: async ({ charge }) => stripe.refunds.create({ charge }) }),
  { side_effects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', ...overrides },
);
`,
    },
    {
      name: 'a framework tool derives its own key: any non-constant key is taken for it',
      code: `
import { tool } from 'ai';
import { declarePolicy } from '@retrysafe/spec';
import Stripe from 'stripe';
declare const stripe: Stripe;
export const refund = declarePolicy(
  tool({ description: 'Refund', inputSchema, execute: async ({ charge }) => stripe.refunds.create({ charge }, { idempotencyKey: \`refund:\${charge}\` }) }),
  { side_effects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key' },
);
`,
    },
  ],
  invalid: [
    invalid(
      'a with_key policy spread from a const of the same file is read through the spread (a new-user trial)',
      `
import { tool } from 'ai';
import { declarePolicy } from '@retrysafe/spec';
import Stripe from 'stripe';
declare const stripe: Stripe;
const WRITE_WITH_KEY = { side_effects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key' } as const;
export const refund = declarePolicy(
  tool({ description: 'Refund', inputSchema, execute: async ({ charge, idempotencyKey }) => stripe.refunds.create({ charge }) }),
  { ...WRITE_WITH_KEY, max_attempts: 3 },
);
`,
      (code) => [missing(8, 93, [pass(edit(code, ['create({ charge })', 'create({ charge }, { idempotencyKey })']))])],
    ),
    invalid(
      'AI SDK tool in declarePolicy: a key-named input is the key',
      `
import { tool } from 'ai';
import { declarePolicy } from '@retrysafe/spec';
import Stripe from 'stripe';
declare const stripe: Stripe;
export const refund = declarePolicy(
  tool({ description: 'Refund', inputSchema, execute: async ({ charge, idempotencyKey }) => stripe.refunds.create({ charge }) }),
  { side_effects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key' },
);
`,
      (code) => [missing(7, 93, [pass(edit(code, ['create({ charge })', 'create({ charge }, { idempotencyKey })']))])],
    ),
    invalid(
      'LangChain metadata.retrysafe, declarePolicy on a const, and a constant key',
      `
import { tool as langchainTool } from '@langchain/core/tools';
import { tool } from '@openai/agents';
import { declarePolicy } from '@retrysafe/spec';
import Stripe from 'stripe';
declare const stripe: Stripe;
export const a = langchainTool(async ({ charge }) => stripe.refunds.create({ charge }), {
  name: 'refund', schema, metadata: { retrysafe: { side_effects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key' } },
});
const sendTool = tool({ name: 'send', parameters, execute: async ({ to }) => fetch('/send', { method: 'POST', body: to, headers: { 'Idempotency-Key': 'send' } }) });
export const send = declarePolicy(sendTool, { side_effects: 'message_out', idempotent: 'with_key', retry: 'safe_with_same_key' });
`,
      () => [
        {
          ...missing(7, 54),
          // No key-named variable in the handler: no suggestion, and the message says so.
          data: {
            tool: 'Tool `refund`',
            call: '`stripe.refunds.create(...)`',
            where: 'the `idempotencyKey` request option',
            remedy: guardedRemedy('guardLangChainTools'),
          },
        },
        { ...constant(10, 151), data: { tool: 'Tool `send`', call: "the POST request `fetch(...)`", where: 'the `Idempotency-Key` header', constant: "`'send'`" } },
      ],
    ),
    invalid(
      // New-user trial 5: the message said the handler had no variable for the key, not where the key is.
      'a guarded framework tool with no key variable: the message names its guard and `currentCall()?.key` (OpenAI Agents, Mastra)',
      `
import { tool } from '@openai/agents';
import { createTool } from '@mastra/core/tools';
import { declarePolicy } from '@retrysafe/spec';
import Stripe from 'stripe';
declare const stripe: Stripe;
const WITH_KEY = { side_effects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key' } as const;
export const a = declarePolicy(tool({ name: 'refund', parameters, execute: async ({ charge }) => stripe.refunds.create({ charge }) }), WITH_KEY);
export const b = declarePolicy(createTool({ id: 'refund_b', description: 'Refund', inputSchema, execute: async ({ charge }) => stripe.refunds.create({ charge }) }), WITH_KEY);
`,
      () => [
        { ...missing(8, 98), data: { tool: 'Tool `refund`', call: '`stripe.refunds.create(...)`', where: 'the `idempotencyKey` request option', remedy: guardedRemedy('guardOpenAIAgentsTools') } },
        { ...missing(9, 128), data: { tool: 'Tool `refund_b`', call: '`stripe.refunds.create(...)`', where: 'the `idempotencyKey` request option', remedy: guardedRemedy('guardMastraTools') } },
      ],
    ),
    invalid(
      'a framework tool no guard runs (Inngest AgentKit): no `currentCall()` in the message',
      `
import { createTool } from '@inngest/agent-kit';
import { declarePolicy } from '@retrysafe/spec';
import Stripe from 'stripe';
declare const stripe: Stripe;
export const a = declarePolicy(createTool({ name: 'refund', description: 'Refund', parameters, handler: async ({ charge }) => stripe.refunds.create({ charge }) }), { side_effects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key' });
`,
      () => [
        {
          ...missing(6, 127),
          data: {
            tool: 'Tool `refund`',
            call: '`stripe.refunds.create(...)`',
            where: 'the `idempotencyKey` request option',
            remedy: 'Pass the key this tool is idempotent with as the `idempotencyKey` request option; the handler has no variable for it yet (such as `idempotencyKey`), so there is no suggestion.',
          },
        },
      ],
    ),
    invalid(
      'MCP with a declared policy in _meta.retrysafe',
      `
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
declare const server: McpServer;
server.registerTool('send_email', {
  inputSchema: { to: z.string(), idempotencyKey: z.string() },
  _meta: { retrysafe: { side_effects: 'message_out', idempotent: 'with_key', retry: 'safe_with_same_key' } },
}, async ({ to, idempotencyKey }) => {
  await fetch('https://mail.example.com/send', { method: 'POST', body: to });
  return { content: [] };
});
`,
      (code) => [
        missing(8, 9, [pass(edit(code, ["{ method: 'POST', body: to }", "{ method: 'POST', body: to, headers: { 'Idempotency-Key': idempotencyKey } }"]))]),
      ],
    ),
    invalid(
      'LangChain tool class with a with_key metadata field: its _call is the handler',
      `
import { StructuredTool } from '@langchain/core/tools';
import Stripe from 'stripe';
declare const stripe: Stripe;
export class RefundTool extends StructuredTool {
  name = 'refund';
  metadata = { retrysafe: { side_effects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key' } };
  async _call({ charge, idempotencyKey }: { charge: string; idempotencyKey: string }) {
    return stripe.refunds.create({ charge });
  }
}
`,
      (code) => [missing(9, 12, [pass(edit(code, ['create({ charge })', 'create({ charge }, { idempotencyKey })']))])],
    ),
    invalid(
      'LangChain tool classes: a _call implementation after its overload signature, and a _call arrow field',
      `
import { StructuredTool } from '@langchain/core/tools';
import Stripe from 'stripe';
declare const stripe: Stripe;
const WITH_KEY = { side_effects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key' } as const;
export class RefundTool extends StructuredTool {
  metadata = { retrysafe: WITH_KEY };
  _call(input: { charge: string; idempotencyKey: string }): Promise<unknown>;
  async _call({ charge, idempotencyKey }: { charge: string; idempotencyKey: string }) {
    return stripe.refunds.create({ charge });
  }
}
export class ChargeTool extends StructuredTool {
  metadata = { retrysafe: WITH_KEY };
  _call = async ({ amount, idempotencyKey }: { amount: number; idempotencyKey: string }) => stripe.charges.create({ amount });
}
`,
      (code) => [
        missing(10, 12, [pass(edit(code, ['create({ charge })', 'create({ charge }, { idempotencyKey })']))]),
        missing(15, 93, [pass(edit(code, ['create({ amount })', 'create({ amount }, { idempotencyKey })']))]),
      ],
    ),
    invalid(
      'FastMCP addTool with a with_key _meta.retrysafe: its execute is the handler',
      `
import { FastMCP } from 'fastmcp';
const server = new FastMCP({ name: 'mail', version: '1.0.0' });
server.addTool({
  name: 'send_email',
  _meta: { retrysafe: { side_effects: 'message_out', idempotent: 'with_key', retry: 'safe_with_same_key' } },
  execute: async ({ to, idempotencyKey }) => {
    await fetch('https://mail.example.com/send', { method: 'POST', body: to });
    return 'sent';
  },
});
`,
      (code) => [
        missing(8, 11, [pass(edit(code, ["{ method: 'POST', body: to }", "{ method: 'POST', body: to, headers: { 'Idempotency-Key': idempotencyKey } }"]))]),
      ],
    ),
  ],
});

ruleTester.run('require-key-passthrough: handlers declared apart', rule, {
  valid: [],
  invalid: [
    invalid(
      'a function declaration named as the handler, declared before the tool',
      `
import { defineTool } from '@retrysafe/spec';
import Stripe from 'stripe';
declare const stripe: Stripe;
async function execute({ charge }: { charge: string }, { key }: { key: string }) {
  return stripe.refunds.create({ charge });
}
export const t = defineTool({ name: 't', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', input, key: k, execute });
`,
      (code) => [missing(6, 10, [pass(edit(code, ['create({ charge })', 'create({ charge }, { idempotencyKey: key })']))])],
    ),
  ],
});

// ---------------------------------------------------------------------------------------------
// The providers option
// ---------------------------------------------------------------------------------------------

ruleTester.run('require-key-passthrough: providers option', rule, {
  valid: [
    {
      name: 'a configured provider given the key; other methods of the module are not judged',
      code: `
import { defineTool } from '@retrysafe/spec';
import { Payments } from 'my-payments-sdk';
const payments = new Payments('key');
export const t = defineTool({
  name: 't', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', input, key: k,
  execute: async ({ amount }, { key }) => {
    await payments.charge(amount, { idempotencyKey: key });
    await payments.balance();
  },
});
`,
      options: [{ providers: [{ from: 'my-payments-sdk', methods: ['charge', 'refund'], keyOption: 'idempotencyKey', argument: 1 }] }],
    },
  ],
  invalid: [
    invalid(
      'options property of argument N, on a client instance and on an imported function',
      `
import { defineTool } from '@retrysafe/spec';
import { Payments, refund } from 'my-payments-sdk';
const payments = new Payments('key');
export const t = defineTool({
  name: 't', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', input, key: k,
  execute: async ({ amount, chargeId }, { key }) => {
    await payments.charge(amount);
    await refund(chargeId, amount, { reason: 'duplicate' });
  },
});
`,
      (code) => [
        missing(8, 11, [pass(edit(code, ['charge(amount)', 'charge(amount, { idempotency_key: key })']))]),
        missing(9, 11, [pass(edit(code, ["{ reason: 'duplicate' }", "{ reason: 'duplicate', idempotency_key: key }"]))]),
      ],
      {
        options: [
          {
            providers: [
              { from: 'my-payments-sdk', methods: ['charge'], keyOption: 'idempotency_key', argument: 1 },
              { from: 'my-payments-sdk', methods: ['refund'], keyOption: 'idempotency_key', argument: 2 },
            ],
          },
        ],
      },
    ),
    invalid(
      'a header-based provider (keyHeader) and a missing argument filled with undefined',
      `
import { defineTool } from '@retrysafe/spec';
import ky from 'ky';
export const t = defineTool({
  name: 't', sideEffects: 'external_write', idempotent: 'with_key', retry: 'safe_with_same_key', input, key: k,
  execute: async ({ json }, { key }) => {
    await ky.post('https://api.example.com/a', { json });
    await ky.put('https://api.example.com/b', { json, headers: { 'X-Request-Key': key } });
    await ky.patch('https://api.example.com/c');
  },
});
`,
      (code) => [
        missing(7, 11, [pass(edit(code, ["com/a', { json }", "com/a', { json, headers: { 'X-Request-Key': key } }"]))]),
        missing(9, 11, [pass(edit(code, ["ky.patch('https://api.example.com/c')", "ky.patch('https://api.example.com/c', { headers: { 'X-Request-Key': key } })"]))]),
      ],
      { options: [{ providers: [{ from: 'ky', methods: ['post', 'put', 'patch'], keyHeader: 'X-Request-Key', argument: 1 }] }] },
    ),
    invalid(
      'argument 2 when only one argument is written: undefined in between',
      `
import { defineTool } from '@retrysafe/spec';
import send from 'mailer-sdk';
export const t = defineTool({
  name: 't', sideEffects: 'message_out', idempotent: 'with_key', retry: 'safe_with_same_key', input, key: k,
  execute: async ({ to }, { key }) => send(to),
});
`,
      (code) => [missing(6, 39, [pass(edit(code, ['send(to)', 'send(to, undefined, { dedupeKey: key })']))])],
      { options: [{ providers: [{ from: 'mailer-sdk', methods: ['default'], keyOption: 'dedupeKey', argument: 2 }] }] },
    ),
  ],
});

// ---------------------------------------------------------------------------------------------
// Plain JavaScript (no types): require, and the client built by calling the module
// ---------------------------------------------------------------------------------------------

ruleTester.run('require-key-passthrough: .js without types', rule, {
  valid: [
    {
      name: 'the key passed, in CommonJS',
      code: `
const { defineTool } = require('@retrysafe/spec');
const stripe = require('stripe')(process.env.STRIPE_SECRET_KEY);
exports.refund = defineTool({
  name: 'refund', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', input, key: k,
  execute: async ({ charge }, { key }) => stripe.refunds.create({ charge }, { idempotencyKey: key }),
});
`,
      filename: 'refund.js',
      languageOptions: { ...javascript, parserOptions: { ...javascript.parserOptions, sourceType: 'script' } },
    },
  ],
  invalid: [
    invalid(
      'require("stripe")(secret), Stripe(secret) and axios from require',
      `
const { defineTool } = require('@retrysafe/spec');
const Stripe = require('stripe');
const axios = require('axios');
const stripe = require('stripe')(process.env.STRIPE_SECRET_KEY);
const other = Stripe(process.env.OTHER_KEY);
exports.refund = defineTool({
  name: 'refund', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', input, key: k,
  async execute({ charge }, ctx) {
    await stripe.refunds.create({ charge });
    await other.refunds.create({ charge }, { idempotencyKey: ctx.key });
    await axios.post('/audit', { charge });
  },
});
`,
      (code) => [
        missing(10, 11, [pass(edit(code, ['create({ charge });', 'create({ charge }, { idempotencyKey: ctx.key });']))]),
        missing(12, 11, [pass(edit(code, ['{ charge });\n  },', "{ charge }, { headers: { 'Idempotency-Key': ctx.key } });\n  },"]))]),
      ],
      { filename: 'refund.js', languageOptions: { ...javascript, parserOptions: { ...javascript.parserOptions, sourceType: 'script' } } },
    ),
    invalid(
      'an ES module with new Stripe(secret)',
      `
import { defineTool } from '@retrysafe/spec';
import Stripe from 'stripe';
const stripe = new Stripe(process.env.STRIPE_SECRET_KEY);
export const refund = defineTool({
  name: 'refund', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', input, key: k,
  execute: async ({ charge }, { key }) => stripe.refunds.create({ charge }, { idempotencyKey: 'x' }),
});
`,
      (code) => [constant(7, 95, [useToolKey(edit(code, ["idempotencyKey: 'x'", 'idempotencyKey: key']))])],
      { filename: 'refund.mjs', languageOptions: javascript },
    ),
  ],
});

// ---------------------------------------------------------------------------------------------
// Shapes that must not crash the rule (and are not judged)
// ---------------------------------------------------------------------------------------------

ruleTester.run('require-key-passthrough: unusual shapes', rule, {
  valid: [
    {
      name: 'computed members, spread arguments, optional calls, tagged templates, classes, getters',
      code: `
import { defineTool } from '@retrysafe/spec';
import Stripe from 'stripe';
import axios from 'axios';
declare const stripe: Stripe;
declare const method: 'create';
export const t = defineTool({
  name: 't', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', input, key: k,
  execute: async (...args: any[]) => {
    await stripe.refunds[method]({});
    await stripe['refunds'][\`\${method}\`]?.({}, { idempotencyKey: args[1].key });
    await fetch(...(args as [string]));
    await axios(...args);
    await axios.post(...args);
    class Local { get x() { return fetch('/x', { method: 'GET' }); } }
    String.raw\`\${new Local().x}\`;
    await (0, stripe.refunds.list)();
    await new (class { go() { return 1; } })().go();
    await stripe.refunds;
  },
});
export const u = defineTool({ name: 'u', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', input, key: k, execute: undefined });
export const v = defineTool({ name: 'v', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', input, key: k, execute: makeHandler() });
export const w = defineTool();
`,
    },
  ],
  invalid: [
    invalid(
      'a computed string member is still a static name',
      `
import { defineTool } from '@retrysafe/spec';
import Stripe from 'stripe';
declare const stripe: Stripe;
export const t = defineTool({
  name: 't', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', input, key: k,
  execute: async ({ charge }, { key }) => stripe['refunds']['create']({ charge }),
});
`,
      (code) => [missing(7, 43, [pass(edit(code, ["['create']({ charge })", "['create']({ charge }, { idempotencyKey: key })"]))])],
    ),
  ],
});

// ---------------------------------------------------------------------------------------------
// The options schema
// ---------------------------------------------------------------------------------------------

describe('require-key-passthrough: options schema', () => {
  const lint = (options: Options[0]): Linter.LintMessage[] =>
    new Linter({ configType: 'flat' }).verify('fetch("/x");', [
      {
        languageOptions: { parser: parser as Linter.Parser },
        plugins: { retrysafe: { rules: { 'require-key-passthrough': rule as never } } },
        rules: { 'retrysafe/require-key-passthrough': ['error', options] },
      },
    ]);

  it('accepts the documented providers', () => {
    const providers = [
      { from: 'my-payments-sdk', methods: ['charge'], keyOption: 'idempotencyKey', argument: 1 },
      { from: 'ky', methods: ['post', 'put', 'patch'], keyHeader: 'Idempotency-Key' },
    ];
    expect(lint({ providers, toolFactories: [{ name: 'createTool', from: '@acme/agent-kit' }] })).toEqual([]);
  });

  it('rejects a provider that names both keyOption and keyHeader, or no methods', () => {
    expect(() => lint({ providers: [{ from: 'x', methods: ['a'], keyOption: 'k', keyHeader: 'K' }] })).toThrow(/should NOT be valid/);
    expect(() => lint({ providers: [{ from: 'x', methods: [] }] })).toThrow(/should NOT have fewer than 1 items/);
  });
});

// ---------------------------------------------------------------------------------------------
// Issue 14, class 6: a keyed provider's create call with no key, in a tool that declares nothing.
// Only a recognised tool's handler, only providers that dedupe on a key (Stripe, `providers`).
// ---------------------------------------------------------------------------------------------
const AI_SDK_RUN_ID =
  'your job or conversation id (the chat `id`), handed to `execute` as `experimental_context` (AI SDK 6) or as its `context` (AI SDK 7: the `toolsContext` of `generateText`, read in `execute` as `options.context`), or closed over; not `toolCallId`, which is new on every call';

ruleTester.run('require-key-passthrough: an undeclared tool calling a keyed provider', rule, {
  valid: [
    {
      name: 'an undeclared tool that passes a key to Stripe',
      code: `import { tool } from 'ai';
import Stripe from 'stripe';
declare const stripe: Stripe;
export const refund = tool({ description: 'Refund', execute: async ({ orderId }) => stripe.refunds.create({ payment_intent: orderId }, { idempotencyKey: \`refund:\${orderId}\` }) });`,
    },
    {
      name: 'an undeclared tool that only reads from Stripe',
      code: `import { tool } from 'ai';
import Stripe from 'stripe';
declare const stripe: Stripe;
export const lookup = tool({ description: 'Look up', execute: async ({ orderId }) => stripe.paymentIntents.retrieve(orderId) });`,
    },
    {
      name: 'a plain fetch POST in an undeclared tool: the server may not read a key at all',
      code: `import { tool } from 'ai';
export const notify = tool({ description: 'Notify', execute: async ({ text }) => fetch('https://hooks.example.com', { method: 'POST', body: text }) });`,
    },
    {
      name: 'a Stripe create outside any tool',
      code: `import Stripe from 'stripe';
declare const stripe: Stripe;
export const refund = (orderId: string) => stripe.refunds.create({ payment_intent: orderId });`,
    },
    {
      name: 'a tool that declares a policy other than with_key is judged by what it declares',
      code: `import { tool } from 'ai';
import { declarePolicy } from '@retrysafe/spec';
import Stripe from 'stripe';
declare const stripe: Stripe;
export const refund = declarePolicy(tool({ description: 'Refund', execute: async ({ orderId }) => stripe.refunds.create({ payment_intent: orderId }) }), { side_effects: 'money_out', idempotent: false, retry: 'never' });`,
    },
    {
      name: 'an MCP tool with annotations declares something',
      code: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import Stripe from 'stripe';
declare const stripe: Stripe;
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('refund', { annotations: { destructiveHint: true, idempotentHint: false } }, async ({ orderId }) => { await stripe.refunds.create({ payment_intent: orderId }); return { content: [] }; });`,
    },
    {
      name: 'a config that spreads another object may bring a declaration',
      code: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import Stripe from 'stripe';
import { preset } from './preset';
declare const stripe: Stripe;
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('refund', { ...preset }, async ({ orderId }) => { await stripe.refunds.create({ payment_intent: orderId }); return { content: [] }; });`,
    },
  ],
  invalid: [
    {
      name: 'an undeclared AI SDK refund tool calling stripe.refunds.create with no idempotencyKey',
      code: `import { tool } from 'ai';
import Stripe from 'stripe';
declare const stripe: Stripe;
export const refund = tool({
  description: 'Refund an order',
  execute: async ({ orderId }) => stripe.refunds.create({ payment_intent: orderId }),
});`,
      errors: [
        {
          messageId: 'undeclaredMissingKey',
          line: 6,
          column: 35,
          data: { tool: 'Tool `refund`', call: '`stripe.refunds.create(...)`', where: 'the `idempotencyKey` request option', runId: AI_SDK_RUN_ID },
        },
      ],
    },
    {
      name: 'an undeclared MCP tool: the message says where an MCP run id comes from',
      code: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import Stripe from 'stripe';
declare const stripe: Stripe;
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('charge', { description: 'Charge' }, async ({ customer }) => {
  await stripe.paymentIntents.create({ customer, amount: 100, currency: 'usd' });
  return { content: [] };
});`,
      errors: [
        {
          messageId: 'undeclaredMissingKey',
          line: 6,
          column: 9,
          data: {
            tool: 'Tool `charge`',
            call: '`stripe.paymentIntents.create(...)`',
            where: 'the `idempotencyKey` request option',
            runId: 'an id the client sends with the call (a job or conversation id in the arguments or `_meta`); not the request id, which is new on every request',
          },
        },
      ],
    },
    {
      name: 'a provider of the providers option, in an undeclared tool',
      options: [{ providers: [{ from: 'my-payments', methods: ['charge'], argument: 1 }] }],
      code: `import { tool } from '@openai/agents';
import { charge } from 'my-payments';
export const pay = tool({ name: 'pay', description: 'Pay', parameters, execute: async ({ amount }) => charge({ amount }, {}) });`,
      errors: [{ messageId: 'undeclaredMissingKey', line: 3, column: 103 }],
    },
  ],
});


// Trial 3 (app/src/reconcile.ts): a defineTool tool with a `reconcile` hook has the runner ask the
// hook before a lost attempt runs again, which answers the crash window a provider's key would.
const reconcileTool = (extra: string): string => `
import { defineTool } from '@retrysafe/spec';
import Stripe from 'stripe';
declare const stripe: Stripe;
export const issueRefund = defineTool({
  name: 'issue_refund', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', input, key: refundKey,
  execute: async ({ orderId }) => stripe.refunds.create({ payment_intent: orderId }),
  ${extra}
});
`;
const bindAndPassKey = (code: string): Suggestion =>
  bindAndPass(edit(code, ['async ({ orderId }) =>', 'async ({ orderId }, { key }) =>'], ['create({ payment_intent: orderId })', 'create({ payment_intent: orderId }, { idempotencyKey: key })']));
ruleTester.run('require-key-passthrough: a reconcile hook answers the crash window', rule, {
  valid: [
    { name: 'a reconcile hook that looks the refund up', code: reconcileTool("reconcile: async ({ orderId }) => ((await stripe.refunds.list({ payment_intent: orderId })).data[0] ? { status: 'done', result: 1 } : { status: 'not_done' }),") },
  ],
  invalid: [
    invalid('reconcile: undefined is no hook', reconcileTool('reconcile: undefined,'), (code) => [missing(7, 35, [bindAndPassKey(code)])]),
    invalid('a reconcile nested in another option is not the hook', reconcileTool("meta: { reconcile: async () => ({ status: 'not_done' }) },"), (code) => [missing(7, 35, [bindAndPassKey(code)])]),
  ],
});
