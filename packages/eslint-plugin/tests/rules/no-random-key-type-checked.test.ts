import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type InvalidTestCase, RuleTester } from '@typescript-eslint/rule-tester';

import rule, { type MessageIds, type Options } from '../../src/rules/no-random-key-type-checked.js';
import { codeSpan } from '../../src/ast/index.js';
import { DURABLE_KEY_ADVICE } from '../../src/rules/no-random-key-utils/index.js';

/** What to do about a constant fallback outside a tool's handler (no-random-key's `fallbackAdvice`). */
const FALLBACK_ADVICE = 'Throw when it is missing, or fall back to a key built from the run id and the item id.';

// The linted code is tests/fixtures/cross-file/file.ts; the modules it imports sit next to it
// (keys.ts, ids.ts, reexports.ts, headers.ts, branded.ts), and `@retrysafe/spec` maps to the stand-in
// in tests/fixtures/retrysafe-spec. That folder has its own tsconfig.json (extending the fixtures'
// one), so the project service gives every case a program with those files in it.
const crossFile = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/cross-file');

const ruleTester = new RuleTester({
  languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: crossFile } },
});

type Expected = NonNullable<InvalidTestCase<MessageIds, Options>['errors']>[number];

// Eleven lines: a test's own code starts on line 12.
const prelude = `
import { randomUUID } from 'node:crypto';
import { key, vouchDurable } from '@retrysafe/spec';
import * as keys from './keys.js';
import { attemptKey, clockKey, durableKey, keyFactory, KeyFactory, makeKey, newEmailKey, nextKey, refundRequest, SESSION_KEY, shortKey, viaIds, withPrefix } from './keys.js';
import { newId } from './ids.js';
import { newRefundKey, sessionKey } from './reexports.js';
import { idempotencyHeaders, PaymentsClient, postWithKey, refundHeaders, traceHeaders } from './headers.js';
import { chargeOrder, sendWithKey } from './branded.js';
declare const api: { refund(request: object): Promise<void>; post(url: string, init: object): Promise<void> };
declare const run: { id: string }; declare const orderId: string; declare const body: any; declare const queue: any;
`;

/** A key position whose value comes from `source` (in `file`, on `sourceLine`), reached through `through`. */
function keyFrom(
  messageId: Exclude<MessageIds, 'keyArgument'>,
  [line, column]: [number, number],
  [source, file, sourceLine]: [string, string, number],
  through: string,
): Expected {
  return { messageId, line, column, data: { source: codeSpan(source), file, line: sourceLine, through: codeSpan(through), advice: DURABLE_KEY_ADVICE } };
}

/** An argument for a key parameter declared in another file. */
function argumentFrom(
  [line, column]: [number, number],
  [source, file, sourceLine]: [string, string, number],
  [callee, parameter, role, roleFile, roleLine]: [string, string, string, string, number],
): Expected {
  return {
    messageId: 'keyArgument',
    line,
    column,
    data: { source: codeSpan(source), file, line: sourceLine, callee: codeSpan(callee), parameter: codeSpan(parameter), role, roleFile, roleLine, advice: DURABLE_KEY_ADVICE },
  };
}

const USES_IDEMPOTENCY_KEY = 'uses it as `Idempotency-Key`';

ruleTester.run('no-random-key-type-checked', rule, {
  valid: [
    {
      // New-user trial 3: a fallback that is itself a key derived from the work, or a constant for a parameter that is no key.
      name: 'a derived fallback for a key parameter, and a constant fallback for a parameter that is not a key',
      code: `${prelude}const a = idempotencyHeaders(body.key ?? \`\${run.id}:\${orderId}:refund\`);\nconst b = traceHeaders(body.trace ?? 'none');`,
    },
    // --- durable keys across files ---
    {
      name: 'a key derived from durable values by a helper in another file',
      code: `${prelude}await api.refund({ idempotencyKey: durableKey(run.id, orderId) });`,
    },
    {
      name: 'a helper that passes its parameters through, given durable parts',
      code: `${prelude}await api.refund({ idempotencyKey: withPrefix('refund', orderId) });`,
    },
    {
      name: 'the durable field of a returned object whose other field is random',
      code: `${prelude}await api.refund({ idempotencyKey: refundRequest(orderId).idempotencyKey });`,
    },
    {
      name: 'a parameter of the enclosing function (its callers are judged where they call)',
      code: `${prelude}export async function send(idempotencyKey: string) {\n  await api.refund({ idempotencyKey });\n}`,
    },

    // --- left to no-random-key, which reports them in the same file ---
    {
      name: 'a random call written at the key position',
      code: `${prelude}await api.refund({ idempotencyKey: randomUUID() });`,
    },
    {
      name: 'a helper of the same file',
      code: `${prelude}function localKey() {\n  return randomUUID();\n}\nawait api.refund({ idempotencyKey: localKey() });`,
    },
    {
      name: 'a random argument that is itself a key position of no-random-key (vouchDurable)',
      code: `${prelude}const headers = idempotencyHeaders(vouchDurable(randomUUID()));`,
    },
    {
      name: 'a header setter whose value is random is reported by no-random-key only',
      code: `${prelude}const headers = new Headers();\nheaders.set('Idempotency-Key', randomUUID());`,
    },

    // --- persisted, or allowed ---
    {
      name: 'a key generated in another file and stored with the job (get-or-create)',
      code: `${prelude}await queue.add('refund', { orderId, idempotencyKey: makeKey() });`,
    },
    {
      name: 'allowedSources applies in the other file too',
      code: `${prelude}await api.refund({ idempotencyKey: makeKey() });`,
      options: [{ allowedSources: [{ from: 'node:crypto', name: 'randomUUID' }] }],
    },

    // --- arguments that do not become keys ---
    {
      name: 'a random trace id passed to a helper that sends it as X-Request-Id',
      code: `${prelude}const headers = traceHeaders(randomUUID());`,
    },
    {
      name: 'a durable key passed to a key helper',
      code: `${prelude}const headers = idempotencyHeaders(\`\${run.id}:\${orderId}:refund\`);`,
    },
    {
      name: 'a key built with key`...` passed to a parameter typed with an alias of DeterministicKey',
      code: `${prelude}sendWithKey(orderId, key\`\${vouchDurable(run.id)}:refund\`);`,
    },
    {
      name: 'random values passed to functions of the standard library and of packages',
      code: `${prelude}console.log(randomUUID());\nsetTimeout(() => undefined, Math.random() * 1000);\nconst ids: string[] = [];\nids.push(randomUUID());`,
    },
    {
      name: 'a random argument for a parameter that is not a key',
      code: `${prelude}const headers = refundHeaders(randomUUID(), \`\${run.id}:refund\`);`,
    },
    {
      name: 'a random value passed to a function of the same file that uses it as a key (no-random-key’s domain)',
      code: `${prelude}function send(k: string) {\n  return api.refund({ idempotencyKey: k });\n}\nawait send(randomUUID());`,
    },
  ],
  invalid: [
    {
      // New-user trial 3: one key for every call that lacks the real one, passed to a helper of another file that makes it the Idempotency-Key.
      name: "a constant fallback passed to a key parameter declared in another file: body.key ?? ''",
      code: `${prelude}const headers = idempotencyHeaders(body.key ?? '');\nconst k = body.idempotencyKey || 'refund';\nawait new PaymentsClient().refund(orderId, k);`,
      errors: [
        {
          messageId: 'constantFallbackArgument',
          line: 12,
          column: 36,
          data: { fallback: "`''`", primary: '`body.key`', at: '', value: '', parameter: '`key`', callee: '`idempotencyHeaders`', role: USES_IDEMPOTENCY_KEY, roleFile: 'headers.ts', roleLine: 3, advice: FALLBACK_ADVICE },
        },
        {
          messageId: 'constantFallbackArgument',
          line: 14,
          column: 44,
          data: { fallback: "`'refund'`", primary: '`body.idempotencyKey`', at: ' (line 13)', value: '', parameter: '`idempotencyKey`', callee: '`new PaymentsClient().refund`', role: 'sends it as the `Idempotency-Key` header', roleFile: 'headers.ts', roleLine: 21, advice: FALLBACK_ADVICE },
        },
      ],
    },
    // --- the example ---
    {
      // keys.ts: `export function makeKey() { return randomUUID(); }`; tool.ts: `{ idempotencyKey: makeKey() }`.
      name: 'makeKey() from keys.ts returns randomUUID()',
      code: `${prelude}await api.refund({ idempotencyKey: makeKey() });`,
      errors: [keyFrom('randomKey', [12, 36], ['randomUUID()', 'keys.ts', 3], 'makeKey()')],
    },

    // --- what a function in another file returns ---
    {
      name: 'a const arrow returning a template around uuid v4',
      code: `${prelude}await api.refund({ idempotencyKey: newEmailKey() });`,
      errors: [keyFrom('randomKey', [12, 36], ['uuidv4()', 'keys.ts', 12], 'newEmailKey()')],
    },
    {
      name: 'the clock inside a template',
      code: `${prelude}await api.refund({ idempotencyKey: clockKey(orderId) });`,
      errors: [keyFrom('clockKey', [12, 36], ['Date.now()', 'keys.ts', 15], 'clockKey(orderId)')],
    },
    {
      name: 'a local binding and .slice() in the other file',
      code: `${prelude}await api.refund({ idempotencyKey: shortKey() });`,
      errors: [keyFrom('randomKey', [12, 36], ['randomUUID()', 'keys.ts', 29], 'shortKey()')],
    },
    {
      name: 'a parameter named like an attempt in the other file',
      code: `${prelude}await api.refund({ idempotencyKey: attemptKey(orderId, 2) });`,
      errors: [keyFrom('perAttemptKey', [12, 36], ['attempt', 'keys.ts', 41], 'attemptKey(orderId, 2)')],
    },
    {
      name: 'an in-memory counter of the other module',
      code: `${prelude}await api.refund({ idempotencyKey: nextKey() });`,
      errors: [keyFrom('counterKey', [12, 36], ['issued', 'keys.ts', 45], 'nextKey()')],
    },

    // --- arguments that the other file's function passes through ---
    {
      name: 'a random argument to a helper that returns its parameter in a template',
      code: `${prelude}await api.refund({ idempotencyKey: withPrefix('refund', randomUUID()) });`,
      errors: [keyFrom('randomKey', [12, 36], ['randomUUID()', 'file.ts', 12], "withPrefix('refund', randomUUID())")],
    },
    {
      name: 'an argument that itself comes from another file',
      code: `${prelude}await api.refund({ idempotencyKey: withPrefix('refund', makeKey()) });`,
      errors: [keyFrom('randomKey', [12, 36], ['randomUUID()', 'keys.ts', 3], 'makeKey()')],
    },

    // --- imported values ---
    {
      name: 'a module-level random constant of another file',
      code: `${prelude}await api.refund({ idempotencyKey: SESSION_KEY });`,
      errors: [keyFrom('randomKey', [12, 36], ['nanoid()', 'keys.ts', 26], 'SESSION_KEY')],
    },
    {
      name: 'the constant renamed by a barrel',
      code: `${prelude}await api.refund({ idempotencyKey: sessionKey });`,
      errors: [keyFrom('randomKey', [12, 36], ['nanoid()', 'keys.ts', 26], 'sessionKey')],
    },
    {
      name: 'the constant read through a namespace import',
      code: `${prelude}await api.refund({ idempotencyKey: keys.SESSION_KEY });`,
      errors: [keyFrom('randomKey', [12, 36], ['nanoid()', 'keys.ts', 26], 'keys.SESSION_KEY')],
    },

    // --- re-exports, namespaces, more files deep ---
    {
      name: 'a function renamed by a barrel',
      code: `${prelude}await api.refund({ idempotencyKey: newRefundKey() });`,
      errors: [keyFrom('randomKey', [12, 36], ['randomUUID()', 'keys.ts', 3], 'newRefundKey()')],
    },
    {
      name: 'a function called through a namespace import',
      code: `${prelude}await api.refund({ idempotencyKey: keys.makeKey() });`,
      errors: [keyFrom('randomKey', [12, 36], ['randomUUID()', 'keys.ts', 3], 'keys.makeKey()')],
    },
    {
      name: 'three files: keys.ts takes the id from ids.ts',
      code: `${prelude}await api.refund({ idempotencyKey: viaIds() });`,
      errors: [keyFrom('randomKey', [12, 36], ['newId()', 'ids.ts', 7], 'viaIds()')],
    },
    {
      name: 'a generator made by nanoid customAlphabet in another file',
      code: `${prelude}await api.refund({ idempotencyKey: newId() });`,
      errors: [keyFrom('randomKey', [12, 36], ["customAlphabet('0123456789abcdef', 12)", 'ids.ts', 4], 'newId()')],
    },

    // --- methods declared in another file ---
    {
      name: 'a method of an exported instance',
      code: `${prelude}await api.refund({ idempotencyKey: keyFactory.next() });`,
      errors: [keyFrom('randomKey', [12, 36], ['randomUUID()', 'keys.ts', 53], 'keyFactory.next()')],
    },
    {
      name: 'a method of a local instance of an imported class',
      code: `${prelude}const factory = new KeyFactory();\nawait api.refund({ idempotencyKey: factory.next() });`,
      errors: [keyFrom('randomKey', [13, 36], ['randomUUID()', 'keys.ts', 53], 'factory.next()')],
    },

    // --- every kind of key position ---
    {
      name: 'a header set on Headers',
      code: `${prelude}const headers = new Headers();\nheaders.set('Idempotency-Key', makeKey());`,
      errors: [keyFrom('randomKey', [13, 32], ['randomUUID()', 'keys.ts', 3], 'makeKey()')],
    },
    {
      name: 'an assigned member',
      code: `${prelude}const options: { idempotencyKey?: string } = {};\noptions.idempotencyKey = makeKey();`,
      errors: [keyFrom('randomKey', [13, 26], ['randomUUID()', 'keys.ts', 3], 'makeKey()')],
    },
    {
      name: 'a class field',
      code: `${prelude}class RefundJob {\n  idempotencyKey = makeKey();\n}`,
      errors: [keyFrom('randomKey', [13, 20], ['randomUUID()', 'keys.ts', 3], 'makeKey()')],
    },
    {
      name: 'a variable holding the helper’s result',
      code: `${prelude}const k = makeKey();\nawait api.refund({ idempotencyKey: k });`,
      errors: [keyFrom('randomKey', [13, 36], ['randomUUID()', 'keys.ts', 3], 'makeKey()')],
    },
    {
      name: 'vouchDurable(...) of a helper’s result',
      code: `${prelude}const id = vouchDurable(makeKey());`,
      errors: [keyFrom('randomKey', [12, 25], ['randomUUID()', 'keys.ts', 3], 'makeKey()')],
    },
    {
      name: 'key`...` around vouchDurable(...) is reported once, on the outer position',
      code: `${prelude}const k = key\`\${vouchDurable(makeKey())}:refund\`;`,
      errors: [keyFrom('randomKey', [12, 17], ['randomUUID()', 'keys.ts', 3], 'makeKey()')],
    },

    // --- arguments for parameters that another file makes a key ---
    {
      name: 'a helper that returns its parameter as the Idempotency-Key header',
      code: `${prelude}await fetch('https://payments.example/refunds', { method: 'POST', headers: idempotencyHeaders(randomUUID()) });`,
      errors: [
        argumentFrom([12, 95], ['randomUUID()', 'file.ts', 12], ['idempotencyHeaders', 'key', USES_IDEMPOTENCY_KEY, 'headers.ts', 3]),
      ],
    },
    {
      name: 'a key in an options object',
      code: `${prelude}await postWithKey('https://payments.example/refunds', {}, { key: randomUUID() });`,
      errors: [
        argumentFrom([12, 59], ['randomUUID()', 'file.ts', 12], ['postWithKey', 'options.key', USES_IDEMPOTENCY_KEY, 'headers.ts', 7]),
      ],
    },
    {
      name: 'a helper that passes its parameter on to another key helper',
      code: `${prelude}const headers = refundHeaders(orderId, randomUUID());`,
      errors: [
        argumentFrom([12, 40], ['randomUUID()', 'file.ts', 12], ['refundHeaders', 'key', USES_IDEMPOTENCY_KEY, 'headers.ts', 3]),
      ],
    },
    {
      name: 'a method of a client class declared in another file',
      code: `${prelude}const payments = new PaymentsClient();\nawait payments.refund(orderId, randomUUID());`,
      errors: [
        argumentFrom([13, 32], ['randomUUID()', 'file.ts', 13], [
          'payments.refund',
          'idempotencyKey',
          'sends it as the `Idempotency-Key` header',
          'headers.ts',
          21,
        ]),
      ],
    },
    {
      name: 'a variable holding a random key, passed to a key helper',
      code: `${prelude}const k = randomUUID();\nconst headers = idempotencyHeaders(k);`,
      errors: [argumentFrom([13, 36], ['randomUUID()', 'file.ts', 12], ['idempotencyHeaders', 'key', USES_IDEMPOTENCY_KEY, 'headers.ts', 3])],
    },
    {
      name: 'an argument from another file for a key helper',
      code: `${prelude}const headers = idempotencyHeaders(makeKey());`,
      errors: [argumentFrom([12, 36], ['randomUUID()', 'keys.ts', 3], ['idempotencyHeaders', 'key', USES_IDEMPOTENCY_KEY, 'headers.ts', 3])],
    },
    {
      name: 'an untyped fallback for a parameter typed with an alias of DeterministicKey',
      code: `${prelude}sendWithKey(orderId, body.idempotencyKey ?? randomUUID());`,
      errors: [
        argumentFrom([12, 22], ['randomUUID()', 'file.ts', 12], ['sendWithKey', 'key', 'declares it a `DeterministicKey`', 'branded.ts', 6]),
      ],
    },
    {
      name: 'an untyped fallback for a parameter typed Durable<string>',
      code: `${prelude}chargeOrder(JSON.parse(body).orderId ?? randomUUID(), 1200);`,
      errors: [argumentFrom([12, 13], ['randomUUID()', 'file.ts', 12], ['chargeOrder', 'orderId', 'declares it `Durable`', 'branded.ts', 10])],
    },

    // --- one report per problem ---
    {
      name: 'a key position whose helper argument comes from another file is reported once',
      code: `${prelude}await api.refund({ idempotencyKey: withPrefix('refund', idempotencyHeaders(makeKey())['Idempotency-Key']) });`,
      errors: [keyFrom('randomKey', [12, 36], ['randomUUID()', 'keys.ts', 3], 'makeKey()')],
    },
  ],
});

// A program without @retrysafe/spec (tests/fixtures/no-spec): no parameter is a key by its type, so
// the rule asks about a call only where its callee can have a key parameter by its body
// (src/program/keyReach.ts): a function of a file that spells a key name, or of a file that imports
// one. These cases check that nothing is lost by asking less.
const noSpec = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/no-spec');
const noSpecTester = new RuleTester({
  languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: noSpec } },
});

// Eight lines: a test's own code starts on line 9.
const noSpecPrelude = `
import { randomUUID } from 'node:crypto';
import { Payments, sendWithKey } from './payments.js';
import { notify } from './wrappers.js';
import { notifyOnce } from './barrel.js';
import { keyedClient } from './computed.js';
import { deliver, Mailer } from './unrelated.js';
declare const orderId: string; declare const url: string;
`;

const SENDS_IDEMPOTENCY_KEY = 'sends it as the `Idempotency-Key` header';

noSpecTester.run('no-random-key-type-checked', rule, {
  valid: [
    {
      name: 'a method named like a key method, declared in a file that reaches no key position',
      code: `${noSpecPrelude}await new Mailer().refund(orderId, randomUUID());`,
    },
    {
      name: 'a function of a file that reaches no key position',
      code: `${noSpecPrelude}await deliver(randomUUID());`,
    },
    {
      name: 'a method no file that reaches a key position declares',
      code: `${noSpecPrelude}const parts: string[] = [];\nparts.push(randomUUID());\nconsole.log(randomUUID());`,
    },
  ],
  invalid: [
    {
      name: 'a method of a class whose file spells the key',
      code: `${noSpecPrelude}await new Payments().refund(orderId, randomUUID());`,
      errors: [argumentFrom([9, 38], ['randomUUID()', 'file.ts', 9], ['new Payments().refund', 'idempotencyKey', SENDS_IDEMPOTENCY_KEY, 'payments.ts', 6])],
    },
    {
      name: 'a function whose file spells the key',
      code: `${noSpecPrelude}await sendWithKey(url, randomUUID());`,
      errors: [argumentFrom([9, 24], ['randomUUID()', 'file.ts', 9], ['sendWithKey', 'key', USES_IDEMPOTENCY_KEY, 'payments.ts', 12])],
    },
    {
      name: 'a function of a file that spells no key but imports one that does',
      code: `${noSpecPrelude}await notify(url, randomUUID());`,
      errors: [argumentFrom([9, 19], ['randomUUID()', 'file.ts', 9], ['notify', 'token', USES_IDEMPOTENCY_KEY, 'payments.ts', 12])],
    },
    {
      name: 'the same function renamed by a barrel',
      code: `${noSpecPrelude}await notifyOnce(url, randomUUID());`,
      errors: [argumentFrom([9, 23], ['randomUUID()', 'file.ts', 9], ['notifyOnce', 'token', USES_IDEMPOTENCY_KEY, 'payments.ts', 12])],
    },
    {
      name: 'a method declared under a computed name (a constant string)',
      code: `${noSpecPrelude}const headers = keyedClient.sendKeyed(randomUUID());`,
      errors: [argumentFrom([9, 39], ['randomUUID()', 'file.ts', 9], ['keyedClient.sendKeyed', 'key', 'uses it as `Idempotency-Key`', 'computed.ts', 5])],
    },
  ],
});
