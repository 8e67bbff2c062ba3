import * as parser from '@typescript-eslint/parser';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { Linter } from 'eslint';
import { RuleTester, type InvalidTestCase, type ValidTestCase } from '@typescript-eslint/rule-tester';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

import rule, { type MessageIds, type Options } from '../../src/rules/no-random-key.js';
import { codeSpan } from '../../src/ast/index.js';
import { createKeyNameMatcher, getKeyPositionOf } from '../../src/keys/index.js';
import { DURABLE_KEY_ADVICE } from '../../src/rules/no-random-key-utils/index.js';
import { FRAMEWORK_BY_ID } from '../../src/tools/index.js';
import { readCase } from '../support/cases.js';
import { trialRefundTool } from '../support/trialTools.js';

// Sources are flush left so that the line and column of each case read straight off the code.
const ruleTester = new RuleTester();

/** ESLint's default parser, for the plain-JavaScript cases (not a direct dependency: reached through eslint). */
const espree = createRequire(createRequire(import.meta.url).resolve('eslint'))('espree') as TSESLint.Parser.LooseParserModule;
const javascript = { parser: espree, parserOptions: { ecmaVersion: 'latest', sourceType: 'module' } } as const;

type Valid = ValidTestCase<Options>;
type Invalid = InvalidTestCase<MessageIds, Options>;
type Expected = NonNullable<Invalid['errors']>[number];

/** A `defineTool` key function returning the constant `constant` (as the message shows it). */
function constantToolKeyReport(line: number, column: number, constant: string): Expected {
  return { messageId: 'constantToolKey', line, column, data: { constant } };
}

/** One report: the sink's line and column, and the source (as written; the message quotes it) and its line that the message names. */
function report(messageId: MessageIds, line: number, column: number, source: string, sourceLine: number, advice = DURABLE_KEY_ADVICE): Expected {
  return { messageId, line, column, data: { source: codeSpan(source), line: sourceLine, advice } };
}

// ---------------------------------------------------------------------------------------------
// The shared cases (tests/cases, copied unchanged from the project's /work/shared/cases).
// Each file keeps its name in the test name; its `// EXPECT: R1` lines are the reports, exactly.
// ---------------------------------------------------------------------------------------------

/** The advice a key in a recognised tool's handler gets: where that framework's run id comes from (tools/frameworks). */
function adviceIn(framework: keyof typeof FRAMEWORK_BY_ID): string {
  const entry = FRAMEWORK_BY_ID[framework];
  return `Derive it from durable fields: the run id and the item id. In this ${entry.title} tool, the run id is ${entry.runId}.`;
}

/** The reports each shared case must produce; files with none must produce nothing. */
const sharedCaseReports: Record<string, Expected[]> = {
  // randomUUID() evaluated inside the retry loop; the X-Request-Id line is a trace id.
  'B01.ts': [report('randomKey', 17, 30, 'randomUUID()', 17)],
  // the helper mintKey() returns uuid v4; the caller's `charge-${orderId}` is durable.
  'B02.ts': [report('randomKey', 15, 52, 'uuidv4()', 10)],
  // new Date() → variable → concatenation → key.
  'B04.ts': [report('clockKey', 15, 23, 'new Date()', 11)],
  // the handler's `?? nanoid()` fallback; the enqueue-time nanoid() is persisted with the job.
  'B05.ts': [report('randomKey', 24, 69, 'nanoid()', 20)],
  // class-field generator calling randomUUID(); webhook-timestamp is not a key.
  'B07.ts': [report('randomKey', 17, 29, 'randomUUID()', 10)],
  // the OpenAI Agents per-call id.
  'B08.ts': [report('perAttemptKey', 18, 58, 'details!.toolCall!.callId', 17, adviceIn('openai-agents'))],
  // `?? randomUUID()` fallback inside the MCP tool handler.
  'B10.ts': [report('randomKey', 20, 73, 'randomUUID()', 19, adviceIn('mcp'))],
  'B11.ts': [],
  'B12.ts': [],
  'B13.ts': [],
  // keyed on ctx.run.id, stable across attempts.
  'B15.ts': [],
  // get-or-create: generated once and stored in sessionStorage before the first send.
  'B18.ts': [],
};

function markedLines(source: string, marker: 'R1' | 'none'): number[] {
  return source.split('\n').flatMap((text, index) => (text.includes(`// EXPECT: ${marker}`) ? [index + 1] : []));
}

describe('shared cases: the expectations above are exactly the files’ R1 markers', () => {
  it.each(Object.keys(sharedCaseReports))('%s', (file) => {
    const reportedLines = (sharedCaseReports[file] ?? []).map((expected) => expected.line);
    expect(reportedLines).toEqual(markedLines(readCase(file), 'R1'));
    for (const line of markedLines(readCase(file), 'none')) expect(reportedLines).not.toContain(line);
  });
});

ruleTester.run('no-random-key: shared cases', rule, {
  valid: Object.entries(sharedCaseReports)
    .filter(([, reports]) => reports.length === 0)
    .map(([file]): Valid => ({ name: `${file}: nothing to report`, code: readCase(file), filename: file })),
  invalid: Object.entries(sharedCaseReports)
    .filter(([, reports]) => reports.length > 0)
    .map(([file, errors]): Invalid => ({ name: `${file}: reports the R1 line, not the EXPECT: none lines`, code: readCase(file), filename: file, errors })),
});

// ---------------------------------------------------------------------------------------------
// Shapes the tracer follows, each with durable look-alikes that must stay quiet.
// ---------------------------------------------------------------------------------------------

ruleTester.run('no-random-key: variable indirection', rule, {
  valid: [
    {
      // Known miss, documented in mayHaveKeyPositions: a file that only computes a key name (never
      // spells it in any letter case) is skipped without looking at its nodes.
      name: 'a key name only computed by concatenation is not looked for',
      code: `import { randomUUID } from 'node:crypto';
const headers: Record<string, string> = {};
headers['Idem' + 'potency-Ke' + 'y'] = randomUUID();`,
    },
    {
      name: 'a key from a parameter is durable as far as this file can tell',
      code: `
declare const stripe: any;
export const charge = (orderId: string) => stripe.charges.create({}, { idempotencyKey: orderId });
`,
    },
    {
      name: 'a random value in a sibling property is not the key',
      code: `
import { randomUUID } from 'node:crypto';
declare const orderId: string;
const rec = { key: randomUUID(), name: orderId };
send({ idempotencyKey: rec.name });
`,
    },
    {
      name: 'a locally defined randomUUID is not the crypto one',
      code: `
function randomUUID() { return 'fixed'; }
send({ idempotencyKey: randomUUID() });
`,
    },
  ],
  invalid: [
    {
      name: 'const, then let, then the key',
      code: `
import { randomUUID } from 'node:crypto';
const k = randomUUID();
let k2 = k;
send({ idempotencyKey: k2 });
`,
      errors: [report('randomKey', 5, 24, 'randomUUID()', 3)],
    },
    {
      name: 'a let assigned later in a branch',
      code: `
import { v4 } from 'uuid';
let k: string;
if (Math.sign(1)) k = 'fixed'; else k = v4();
send({ idempotencyKey: k });
`,
      errors: [report('randomKey', 5, 24, 'v4()', 4)],
    },
    {
      name: 'a property of an object literal read back',
      code: `
import { randomUUID } from 'node:crypto';
const rec = { key: randomUUID(), name: 'x' };
send({ idempotencyKey: rec.key });
`,
      errors: [report('randomKey', 4, 24, 'randomUUID()', 3)],
    },
    {
      name: 'object and array destructuring',
      code: `
import { nanoid } from 'nanoid';
const { key } = { key: nanoid() };
const [first] = [nanoid(8)];
send({ idempotencyKey: key, dedupeKey: first });
`,
      errors: [report('randomKey', 5, 24, 'nanoid()', 3), report('randomKey', 5, 40, 'nanoid(8)', 4)],
    },
    {
      name: 'a closure reads a key minted outside it',
      code: `
import * as crypto from 'node:crypto';
const key = crypto.randomUUID();
export const send = () => fetch('/x', { headers: { 'Idempotency-Key': key } });
`,
      errors: [report('randomKey', 4, 71, 'crypto.randomUUID()', 3)],
    },
  ],
});

ruleTester.run('no-random-key: template literal and concatenation', rule, {
  valid: [
    {
      name: 'a template of durable parts (seed: f"{run_id}:{item_id}:refund")',
      code: `
declare const run: { id: string };
export const refund = (itemId: string) => send({ idempotencyKey: \`\${run.id}:\${itemId}:refund\` });
`,
    },
    {
      name: 'clock libraries given a stored date',
      code: `
import dayjs from 'dayjs';
import { DateTime } from 'luxon';
export const k = (createdAt: string) => ({ idempotencyKey: dayjs(createdAt).format(), dedupeKey: DateTime.utc(2024, 1, 1).toISO() });
`,
    },
    {
      name: 'a stored date formatted is not the clock',
      code: `
export const k = (createdAt: string) => ({ idempotencyKey: new Date(createdAt).toISOString() });
`,
    },
    {
      name: 'uuid v3 and v5 are name-based',
      code: `
import { v3, v5 } from 'uuid';
export const k = (orderId: string) => ({ idempotencyKey: v5(orderId, v3.URL), dedupeKey: v3(orderId, v3.DNS) });
`,
    },
  ],
  invalid: [
    {
      name: 'random part inside a template',
      code: `
import { randomUUID } from 'node:crypto';
export const k = (orderId: string) => ({ idempotencyKey: \`refund-\${orderId}-\${randomUUID()}\` });
`,
      errors: [report('randomKey', 3, 58, 'randomUUID()', 3)],
    },
    {
      name: 'B04-style: clock → slice → concatenation',
      code: `
export function k(patientId: string) {
  const day = new Date().toISOString().slice(0, 10);
  const signupKey = 'signup-' + patientId + '-' + day;
  return { idempotencyKey: signupKey };
}
`,
      errors: [report('clockKey', 5, 28, 'new Date()', 3)],
    },
    {
      name: 'String(), toString(), substring() and arithmetic keep the source',
      code: `
send({ idempotencyKey: String(Math.floor(Date.now() / 1000)) });
send({ idempotencyKey: Math.random().toString(36).substring(2) });
send({ idempotencyKey: performance.now().toFixed(0) });
send({ idempotencyKey: process.hrtime.bigint().toString() });
`,
      errors: [
        report('clockKey', 2, 24, 'Date.now()', 2),
        report('randomKey', 3, 24, 'Math.random()', 3),
        report('clockKey', 4, 24, 'performance.now()', 4),
        report('clockKey', 5, 24, 'process.hrtime.bigint()', 5),
      ],
    },
    {
      name: 'an array joined, and += onto a let',
      code: `
import { ulid } from 'ulid';
declare const runId: string;
let k = 'job-';
k += Date.now();
send({ idempotencyKey: [runId, ulid()].join(':'), dedupeKey: k });
`,
      errors: [report('randomKey', 6, 24, 'ulid()', 6), report('clockKey', 6, 62, 'Date.now()', 5)],
    },
    {
      name: 'clock libraries without arguments, and Date() called as a function',
      code: `
import dayjs from 'dayjs';
import moment from 'moment';
import { DateTime } from 'luxon';
send({ idempotencyKey: dayjs().format('YYYY-MM-DD'), dedupeKey: moment().unix(), dedupKey: DateTime.now().toISO() });
send({ deduplicationKey: Date() });
`,
      errors: [
        report('clockKey', 5, 24, 'dayjs()', 5),
        report('clockKey', 5, 65, 'moment()', 5),
        report('clockKey', 5, 92, 'DateTime.now()', 5),
        report('clockKey', 6, 26, 'Date()', 6),
      ],
    },
    {
      name: 'a hash of a random value is still random',
      code: `
import { createHash, randomBytes } from 'node:crypto';
send({ idempotencyKey: createHash('sha256').update(randomBytes(16)).digest('hex') });
`,
      errors: [report('randomKey', 3, 24, 'randomBytes(16)', 3)],
    },
  ],
});

ruleTester.run('no-random-key: helper function', rule, {
  valid: [
    {
      name: 'a helper that formats durable arguments',
      code: `
function makeKey(prefix: string, id: string) { return \`\${prefix}:\${id}\`; }
export const k = (orderId: string) => send({ idempotencyKey: makeKey('refund', orderId) });
`,
    },
    {
      name: 'recursion and mutual recursion end without a report',
      code: `
function rec(n: number): string { return n > 0 ? rec(n - 1) : 'x'; }
function ping(): string { return pong(); }
function pong(): string { return ping(); }
send({ idempotencyKey: rec(3), dedupeKey: ping() });
`,
    },
    {
      name: 'a function that only receives a random value is not a key position',
      code: `
import { randomUUID } from 'node:crypto';
export const f = (onKey: (k: string) => void) => onKey(randomUUID());
`,
    },
  ],
  invalid: [
    {
      name: 'B02-style: a const arrow helper returning uuid v4',
      code: `
import { v4 as uuidv4 } from 'uuid';
const mintKey = (): string => uuidv4();
send({ ...opts, idempotencyKey: mintKey() });
`,
      errors: [report('randomKey', 4, 33, 'uuidv4()', 3)],
    },
    {
      name: 'arguments are mapped to parameters, through two helpers',
      code: `
import { randomUUID } from 'node:crypto';
function makeKey(prefix: string, id: string) { return \`\${prefix}:\${id}\`; }
function wrap(id: string) { return makeKey('x', id); }
send({ idempotencyKey: wrap(randomUUID()) });
`,
      errors: [report('randomKey', 5, 24, 'randomUUID()', 5)],
    },
    {
      name: 'an async helper awaited, an object of helpers, an IIFE',
      code: `
import { randomUUID } from 'node:crypto';
async function newKey() { return randomUUID(); }
const keys = { fresh: () => crypto.randomUUID() };
export async function f() {
  send({ idempotencyKey: await newKey(), dedupeKey: keys.fresh(), dedupKey: (() => Date.now())() });
}
`,
      errors: [
        report('randomKey', 6, 26, 'randomUUID()', 3),
        report('randomKey', 6, 53, 'crypto.randomUUID()', 4),
        report('clockKey', 6, 77, 'Date.now()', 6),
      ],
    },
    {
      name: 'generators from nanoid customAlphabet and ulid monotonicFactory',
      code: `
import { customAlphabet } from 'nanoid';
import { monotonicFactory } from 'ulid';
const newId = customAlphabet('0123456789', 12);
const nextUlid = monotonicFactory();
send({ idempotencyKey: newId(), dedupeKey: nextUlid() });
`,
      errors: [report('randomKey', 6, 24, 'newId()', 6), report('randomKey', 6, 44, 'nextUlid()', 6)],
    },
  ],
});

ruleTester.run('no-random-key: default parameter', rule, {
  valid: [
    {
      name: 'a default from durable state',
      code: `
export async function post(body: unknown, runId: string, key = \`\${runId}:post\`) {
  await fetch('/x', { method: 'POST', headers: { 'Idempotency-Key': key } });
}
`,
    },
  ],
  invalid: [
    {
      name: 'a positional default',
      code: `
import { randomUUID } from 'node:crypto';
export async function post(body: unknown, key = randomUUID()) {
  await fetch('/x', { method: 'POST', headers: { 'Idempotency-Key': key } });
}
`,
      errors: [report('randomKey', 4, 69, 'randomUUID()', 3)],
    },
    {
      name: 'a destructured default',
      code: `
import { createId } from '@paralleldrive/cuid2';
export async function post(body: unknown, { idempotencyKey = createId() }: { idempotencyKey?: string } = {}) {
  await api.post(body, { idempotencyKey });
}
`,
      errors: [report('randomKey', 4, 26, 'createId()', 3)],
    },
  ],
});

ruleTester.run('no-random-key: class field', rule, {
  valid: [
    {
      name: 'a field set from a constructor parameter',
      code: `
export class Client {
  private readonly scope: string;
  constructor(private readonly runId: string) { this.scope = \`\${runId}:client\`; }
  a() { return api.post({ idempotencyKey: this.scope }); }
  b() { return api.post({ idempotencyKey: \`\${this.runId}:b\` }); }
}
`,
    },
    {
      name: 'a plain function rebinds this: this.newId is not the field',
      code: `
import { randomUUID } from 'node:crypto';
export class Client {
  private readonly newId = () => randomUUID();
  h() { return function (this: any) { return api.post({ idempotencyKey: this.newId() }); }; }
}
`,
    },
  ],
  invalid: [
    {
      name: 'B07-style: an arrow-function field called through this',
      code: `
import { randomUUID } from 'node:crypto';
export class Signer {
  private readonly newId: () => string = () => randomUUID();
  sign(headers: Record<string, string>) { headers['webhook-id'] = this.newId(); }
}
`,
      errors: [report('randomKey', 5, 67, 'randomUUID()', 4)],
    },
    {
      // Found by a new-user trial: private (#) fields were not followed.
      name: 'a private field minted once per instance, read through this.#key',
      code: `
import { randomUUID } from 'node:crypto';
export class Refunder {
  #key = randomUUID();
  send(stripe: any) { return stripe.refunds.create({}, { idempotencyKey: this.#key }); }
}
`,
      errors: [report('randomKey', 5, 74, 'randomUUID()', 4)],
    },
    {
      name: 'a method, a getter, a field minted once per instance',
      code: `
import { randomUUID } from 'node:crypto';
export class Client {
  private readonly sessionKey = randomUUID();
  get fresh() { return randomUUID(); }
  mint() { return randomUUID(); }
  a() { return api.post({ idempotencyKey: this.mint(), dedupeKey: this.fresh, dedupKey: this.sessionKey }); }
}
`,
      errors: [
        report('randomKey', 7, 43, 'randomUUID()', 6),
        report('randomKey', 7, 67, 'randomUUID()', 5),
        report('randomKey', 7, 89, 'randomUUID()', 4),
      ],
    },
    {
      name: 'a counter field bumped per call',
      code: `
export class Sender {
  private seq = 0;
  send() { return api.post({ idempotencyKey: \`msg-\${this.seq++}\` }); }
}
`,
      errors: [report('counterKey', 4, 46, 'this.seq', 4)],
    },
    {
      name: 'a class field named like a key is a key position',
      code: `
import { randomUUID } from 'node:crypto';
export class Request { idempotencyKey = randomUUID(); }
`,
      errors: [report('randomKey', 3, 41, 'randomUUID()', 3)],
    },
  ],
});

ruleTester.run('no-random-key: fallback', rule, {
  valid: [
    {
      name: 'a fallback to a constant or a durable value',
      code: `
declare const input: { key?: string }; declare const run: { id: string };
send({ idempotencyKey: input.key ?? run.id });
`,
    },
  ],
  invalid: [
    {
      name: '?? , || , ?: and ??= with a random branch',
      code: `
import { randomUUID } from 'node:crypto';
declare const input: { key?: string; flag: boolean };
send({ idempotencyKey: input.key ?? randomUUID() });
send({ idempotencyKey: input.key || randomUUID() });
send({ idempotencyKey: input.flag ? input.key : randomUUID() });
let k = input.key;
k ??= randomUUID();
send({ idempotencyKey: k });
`,
      errors: [
        report('randomKey', 4, 24, 'randomUUID()', 4),
        report('randomKey', 5, 24, 'randomUUID()', 5),
        report('randomKey', 6, 24, 'randomUUID()', 6),
        report('randomKey', 9, 24, 'randomUUID()', 8),
      ],
    },
  ],
});

/** What to do about a constant fallback outside a tool's handler. */
const FALLBACK_ADVICE = 'Throw when it is missing, or fall back to a key built from the run id and the item id.';
/** What to do when the fallback is for the guard's `currentCall()?.key`. */
const CURRENT_CALL_ADVICE = 'Throw when it is missing: `currentCall()` is set only inside a guarded call, so an unguarded call then fails instead of sharing one key.';

/**
 * A constant-fallback report: the sink, the constant and what it falls back from. The message names
 * the fallback's line only when it is not the sink's, and the key it makes only when that is not
 * the constant as written (`DEFAULT_KEY`, `` `refund:${k ?? ''}` ``).
 */
function fallbackReport(line: number, column: number, fallback: string, primary: string, fallbackLine: number, key: string, advice = FALLBACK_ADVICE): Expected {
  const asWritten = [`'${key}'`, `\`${key}\``, key].includes(fallback);
  return {
    messageId: 'constantFallbackKey',
    line,
    column,
    data: { fallback: codeSpan(fallback), primary: codeSpan(primary), at: fallbackLine === line ? '' : ` (line ${fallbackLine})`, value: asWritten ? '' : ` (the key is then ${JSON.stringify(key)})`, advice },
  };
}

// New-user trial 3: an AI SDK tool guarded by the retrysafe guard passed `currentCall()?.key ?? ''`
// to Stripe. Run outside the guard, every call sends the key '': a later, different refund gets the
// first one's result (or Stripe rejects the reused key). The fallback alone is the evidence.
ruleTester.run('no-random-key: constant fallback', rule, {
  valid: [
    {
      name: 'a fallback that is itself a key derived from the work, or a helper that makes one',
      code: `
declare const input: { key?: string; orderId: string }; declare const runId: string; declare const run: { id: string };
declare function generateKeyFromRun(run: unknown): string;
send({ idempotencyKey: input.key ?? \`\${runId}:\${input.orderId}:refund\` });
send({ idempotencyKey: input.key ?? generateKeyFromRun(run) });
send({ idempotencyKey: input.key || run.id });
`,
    },
    {
      name: 'a fallback the code checks before the key is used (if/throw, if/return, assert, ||): the rule cannot follow the flow, so it stays silent',
      code: `
declare function currentCall(): { key: string } | undefined; declare function assert(value: unknown, message?: string): asserts value;
declare const input: { key?: string };
export function guarded() {
  const key = currentCall()?.key ?? '';
  if (!key) throw new Error('refund must run under the retrysafe guard');
  send({ idempotencyKey: key });
}
export function returned() {
  const key = currentCall()?.key ?? '';
  if (key === '') return;
  send({ idempotencyKey: key });
}
export function asserted(fallback = '') {
  assert(fallback, 'a key is required');
  send({ idempotencyKey: fallback });
}
export function failed() {
  const key = input.key ?? '';
  key || fail();
  send({ idempotencyKey: key });
}
declare function fail(): never;
`,
    },
    {
      name: 'a constant fallback in a non-key position (a log message, a label)',
      code: `
declare const input: { key?: string };
console.log(\`refund key: \${input.key ?? ''}\`);
send({ idempotencyKey: input.key, note: input.key ?? 'none', label: input.key || 'refund' });
`,
    },
    {
      name: 'a fallback inside a key that keeps a varying part still differs between calls',
      code: `
declare const input: { note?: string; orderId: string }; declare const runId: string;
send({ idempotencyKey: \`\${runId}:\${input.note ?? ''}\` });
send({ idempotencyKey: input.orderId + ':' + (input.note || 'x') });
`,
    },
    {
      name: 'a choice between two keys is not a fallback, nor is a constant key with none',
      code: `
declare const live: boolean; declare const liveKey: string;
const FIXED = 'nightly-report';
send({ idempotencyKey: live ? liveKey : 'test' });
send({ idempotencyKey: FIXED });
`,
    },
    {
      name: 'a let written again is not followed; a fallback to a non-constant default parameter',
      code: `
declare const input: { key?: string }; declare function derive(): string;
let k = input.key ?? '';
k = derive();
send({ idempotencyKey: k });
function refund(key = derive()) { return send({ idempotencyKey: key }); }
`,
    },
  ],
  invalid: [
    {
      name: "the trial's AI SDK tool: currentCall()?.key ?? '' passed to stripe.refunds.create",
      code: `
import { tool } from 'ai';
import { z } from 'zod';
import { currentCall } from '@retrysafe/spec';
export const issueRefund = tool({
  description: 'Refund a charge',
  inputSchema: z.object({ chargeId: z.string(), amountCents: z.number() }),
  execute: async ({ chargeId, amountCents }) => {
    const key = currentCall()?.key ?? '';
    return stripe.refunds.create({ charge: chargeId, amount: amountCents }, { idempotencyKey: key });
  },
});
`,
      errors: [fallbackReport(10, 95, "''", 'currentCall()?.key', 9, '', CURRENT_CALL_ADVICE)],
    },
    {
      name: '??, || and ?: to a literal, a template without expressions and a const bound to one',
      code: `
declare const input: { key?: string }; declare const opts: { idempotencyKey?: string }; declare const k: string | undefined;
const DEFAULT_KEY = 'refund';
send({ idempotencyKey: input.key ?? 'default' });
send({ idempotencyKey: opts.idempotencyKey || 'refund' });
send({ idempotencyKey: k ? k : '' });
send({ idempotencyKey: !k ? \`none\` : k });
send({ idempotencyKey: input.key ?? DEFAULT_KEY });
send({ idempotencyKey: input.key ?? 0 });
`,
      errors: [
        fallbackReport(4, 24, "'default'", 'input.key', 4, 'default'),
        fallbackReport(5, 24, "'refund'", 'opts.idempotencyKey', 5, 'refund'),
        fallbackReport(6, 24, "''", 'k', 6, ''),
        fallbackReport(7, 24, '`none`', 'k', 7, 'none'),
        fallbackReport(8, 24, 'DEFAULT_KEY', 'input.key', 8, 'refund'),
        fallbackReport(9, 24, '0', 'input.key', 9, '0'),
      ],
    },
    {
      name: 'the whole key is a constant when the fallback is taken: a template, a concatenation',
      code: `
declare const input: { key?: string };
send({ idempotencyKey: \`refund:\${input.key ?? ''}\` });
send({ idempotencyKey: 'refund-' + (input.key || 'x') });
`,
      errors: [fallbackReport(3, 24, "''", 'input.key', 3, 'refund:'), fallbackReport(4, 24, "'x'", 'input.key', 4, 'refund-x')],
    },
    {
      name: 'headers, a default parameter, a destructured default, ??= onto a key property',
      code: `
declare const input: { key?: string }; declare const opts: { idempotencyKey?: string };
await fetch(url, { method: 'POST', headers: { 'Idempotency-Key': input.key ?? 'refund' } });
function refund(amount: number, key = '') { return send({ amount, idempotencyKey: key }); }
const { dedupeKey = 'dedupe' } = input as { dedupeKey?: string };
headers.set('Idempotency-Key', dedupeKey);
opts.idempotencyKey ??= 'refund';
`,
      errors: [
        fallbackReport(3, 66, "'refund'", 'input.key', 3, 'refund'),
        fallbackReport(4, 83, "''", 'key', 4, ''),
        fallbackReport(6, 32, "'dedupe'", 'dedupeKey', 5, 'dedupe'),
        fallbackReport(7, 25, "'refund'", 'opts.idempotencyKey', 7, 'refund'),
      ],
    },
    {
      name: 'a defineTool key, and a key template whose only part falls back',
      code: `
import { defineTool, key } from '@retrysafe/spec';
export const refund = defineTool({
  name: 'refund',
  policy: { side_effects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key' },
  key: ({ input }) => input.key ?? 'default',
  execute: async () => ({}),
});
export const refund2 = defineTool({
  name: 'refund2',
  policy: { side_effects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key' },
  key: ({ input }) => key\`refund:\${input.key ?? ''}\`,
  execute: async () => ({}),
});
`,
      errors: [fallbackReport(6, 23, "'default'", 'input.key', 6, 'default'), fallbackReport(12, 36, "''", 'input.key', 12, 'refund:')],
    },
    {
      // New-user trial 5: `defineTool({ ..., key: () => key\`refund\` })` was reported by no rule; the audit's Q2 said no.
      name: "a defineTool key function returning a constant: the spec's key template with no part, a string, a const bound to one",
      code: `
import { defineTool, key } from '@retrysafe/spec';
const REFUND_KEY = key\`refund\`;
const POLICY = { sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', maxAttempts: 1 } as const;
export const a = defineTool({ name: 'a', ...POLICY, input, key: () => key\`refund\`, execute });
export const b = defineTool({ name: 'b', ...POLICY, input, key: () => 'refund', execute });
export const c = defineTool({ name: 'c', ...POLICY, input, key: () => REFUND_KEY, execute });
export const d = defineTool({ name: 'd', ...POLICY, input, key: ({ run }) => { return key\`refund\`; }, execute });
`,
      errors: [
        constantToolKeyReport(5, 71, '`` key`refund` ``'),
        constantToolKeyReport(6, 71, "`'refund'`"),
        constantToolKeyReport(7, 71, '`REFUND_KEY` (`` key`refund` ``, line 3)'),
        constantToolKeyReport(8, 87, '`` key`refund` ``'),
      ],
    },
    {
      name: 'a key handed to runner.call in the input, and a key used twice is reported at each use',
      code: `
declare const input: { key?: string };
const k = input.key || 'refund';
await runner.call(issueRefund, { orderId: 'o1', idempotencyKey: k }, { run });
await stripe.refunds.create(params, { idempotencyKey: k });
`,
      errors: [fallbackReport(4, 65, "'refund'", 'input.key', 3, 'refund'), fallbackReport(5, 55, "'refund'", 'input.key', 3, 'refund')],
    },
    {
      // A new-user trial: the Mastra tool's message was wordy (the constant twice, its own line, two pieces of advice).
      name: "a Mastra createTool passing currentCall()?.key ?? '': the advice is to throw, the guard sets the key",
      code: `
import { createTool } from '@mastra/core/tools';
import { currentCall } from '@retrysafe/spec';
export const refund = createTool({ id: 'refund', description: 'Refund', inputSchema, execute: async (input) => {
  return stripe.refunds.create({ charge: input.chargeId }, { idempotencyKey: currentCall()?.key ?? '' });
} });
`,
      errors: [fallbackReport(5, 78, "''", 'currentCall()?.key', 5, '', CURRENT_CALL_ADVICE)],
    },
    {
      name: "a with_key defineTool handler: the advice is the tool's own key",
      code: `
import { defineTool, currentCall } from '@retrysafe/spec';
export const refund = defineTool({
  name: 'refund', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', input, key: k,
  execute: async (input) => stripe.refunds.create({ charge: input.chargeId }, { idempotencyKey: currentCall()?.key ?? '' }),
});
`,
      errors: [fallbackReport(5, 97, "''", 'currentCall()?.key', 5, '', "Throw when it is missing, or pass the tool's key (`execute`'s second parameter: `{ key }`).")],
    },
    {
      name: 'a Mastra tool falling back from its input: the advice says where its run id is',
      code: `
import { createTool } from '@mastra/core/tools';
export const refund = createTool({ id: 'refund', description: 'Refund', inputSchema, execute: async (input) => {
  return stripe.refunds.create({ charge: input.chargeId }, { idempotencyKey: input.key ?? 'refund' });
} });
`,
      errors: [fallbackReport(4, 78, "'refund'", 'input.key', 4, 'refund', `${FALLBACK_ADVICE} In this Mastra tool, the run id is ${FRAMEWORK_BY_ID.mastra.runId}.`)],
    },
  ],
});

describe('no-random-key: the constant-fallback message, whole', () => {
  const messageOf = (code: string): string | undefined =>
    new Linter({ configType: 'flat' })
      .verify(code, [{ files: ['**/*.ts'], languageOptions: { parser: parser as unknown as Linter.Parser }, plugins: { r: { rules: { 'no-random-key': rule as never } } }, rules: { 'r/no-random-key': 'error' } }], 'file.ts')
      .find((message) => message.ruleId === 'r/no-random-key')?.message;

  it('a Mastra tool: the constant once, what it falls back from, and what to do', () => {
    expect(
      messageOf(`import { createTool } from '@mastra/core/tools';
import { currentCall } from '@retrysafe/spec';
export const refund = createTool({ id: 'refund', inputSchema, execute: async (input) => {
  const key = currentCall()?.key ?? '';
  return stripe.refunds.create({ charge: input.chargeId }, { idempotencyKey: key });
} });`),
    ).toBe(
      "Idempotency key falls back to the constant `''` when `currentCall()?.key` is missing (line 4): every call without it sends that one key, so a later, different call gets the first one's result (or the provider rejects the reused key). Throw when it is missing: `currentCall()` is set only inside a guarded call, so an unguarded call then fails instead of sharing one key.",
    );
  });

  it('a constant named by a const, whose value the message then gives', () => {
    expect(messageOf("const DEFAULT_KEY = 'refund';\nsend({ idempotencyKey: input.key ?? DEFAULT_KEY });")).toBe(
      'Idempotency key falls back to the constant `DEFAULT_KEY` (the key is then "refund") when `input.key` is missing: every call without it sends that one key, so a later, different call gets the first one\'s result (or the provider rejects the reused key). Throw when it is missing, or fall back to a key built from the run id and the item id.',
    );
  });
});

ruleTester.run('no-random-key: headers forms', rule, {
  valid: [
    {
      name: 'trace and request ids, timestamps, signatures are not keys',
      code: `
import { randomUUID } from 'node:crypto';
const headers = new Headers({ 'X-Request-Id': randomUUID(), traceparent: \`00-\${randomUUID()}\` });
headers.set('X-Correlation-Id', randomUUID());
headers.append('webhook-timestamp', String(Date.now()));
`,
    },
  ],
  invalid: [
    {
      name: 'headers object in any letter case, new Headers({...}) and new Headers([[...]])',
      code: `
import { randomUUID } from 'node:crypto';
fetch('/x', { headers: { 'idempotency-key': randomUUID() } });
new Headers({ 'X-IDEMPOTENCY-KEY': randomUUID() });
new Headers([['Idempotency-Key', randomUUID()], ['X-Request-Id', randomUUID()]]);
`,
      errors: [
        report('randomKey', 3, 45, 'randomUUID()', 3),
        report('randomKey', 4, 36, 'randomUUID()', 4),
        report('randomKey', 5, 34, 'randomUUID()', 5),
      ],
    },
    {
      name: 'headers.set / append, res.setHeader, xhr.setRequestHeader',
      code: `
import { randomUUID } from 'node:crypto';
export function f(headers: Headers, res: any, xhr: XMLHttpRequest) {
  headers.set('Idempotency-Key', randomUUID());
  headers.append('X-Idempotency-Key', randomUUID());
  res.setHeader('Idempotency-Key', randomUUID());
  xhr.setRequestHeader('Idempotency-Key', randomUUID());
}
`,
      errors: [
        report('randomKey', 4, 34, 'randomUUID()', 4),
        report('randomKey', 5, 39, 'randomUUID()', 5),
        report('randomKey', 6, 36, 'randomUUID()', 6),
        report('randomKey', 7, 43, 'randomUUID()', 7),
      ],
    },
    {
      name: 'headers[name] = value, with a literal or a constant name',
      code: `
import { randomUUID } from 'node:crypto';
const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export function f(headers: Record<string, string>) {
  headers['X-Delivery-Id'] = randomUUID();
  headers[IDEMPOTENCY_HEADER] = randomUUID();
  return { [IDEMPOTENCY_HEADER]: Date.now() };
}
`,
      errors: [
        report('randomKey', 5, 30, 'randomUUID()', 5),
        report('randomKey', 6, 33, 'randomUUID()', 6),
        report('clockKey', 7, 34, 'Date.now()', 7),
      ],
    },
    {
      name: 'delivery dedup ids: webhook-id and svix-id (Standard Webhooks)',
      code: `
import { randomUUID } from 'node:crypto';
export function sign(headers: Record<string, string>) {
  headers['webhook-id'] = randomUUID();
  headers['svix-id'] = \`msg_\${randomUUID()}\`;
}
`,
      errors: [report('randomKey', 4, 27, 'randomUUID()', 4), report('randomKey', 5, 24, 'randomUUID()', 5)],
    },
  ],
});

ruleTester.run('no-random-key: per-attempt ids', rule, {
  valid: [
    {
      name: 'B15-style: ctx.run.id is the same on every attempt',
      code: `
export const t = task({ run: async (p: { id: string }, { ctx }: any) => api.refund(p.id, { idempotencyKey: \`r-\${ctx.run.id}\` }) });
`,
    },
    {
      name: 'a loop index over a batch, a local running number and a constant named attempt',
      code: `
export async function all(runId: string, items: string[]) {
  for (let i = 0; i < items.length; i++) await api.refund({ idempotencyKey: \`\${runId}:\${i}\` });
  let n = 0;
  for (const item of items) { n++; await api.refund({ idempotencyKey: \`\${runId}:\${item}:\${n}\` }); }
  const attempt = 1;
  await api.refund({ idempotencyKey: \`\${runId}:\${attempt}\` });
}
`,
    },
    {
      name: 'a record that is merely called an attempt (a purchase attempt) is read for its stored key',
      code: `
type PurchaseAttempt = { key: string; amount: number };
export function confirm(attempt: PurchaseAttempt, ctx: { attempt: PurchaseAttempt }) {
  return api.post({ idempotencyKey: attempt.key, dedupeKey: ctx.attempt.key });
}
`,
    },
    {
      // An attempt is also a domain entity, stored with its id: only a framework's execution
      // context (ctx, info, job ...) hands out a per-attempt \`attempt\`.
      name: 'a quiz attempt read as a property is an entity, its id is durable',
      code: `
export function grade(quiz: { attempt: { id: string; number: number } }, submission: { attempt: number }) {
  return api.post({ idempotencyKey: \`grade:\${quiz.attempt.id}\`, dedupeKey: \`\${quiz.attempt.number}:\${submission.attempt}\` });
}
`,
    },
    {
      name: 'a local function called require is not the module system',
      code: `
function require(name: string) { return { randomUUID: () => name }; }
fetch(url, { headers: { 'Idempotency-Key': require('crypto').randomUUID() } });
`,
    },
    {
      // A crash found by a new-user trial: an overload signature or a declare function has no body.
      name: 'a helper with overload signatures is followed into its implementation; a declared function is not followed',
      code: `
function makeKey(): string;
function makeKey(x?: string): string { return x ?? 'k'; }
declare function nanoid(): string;
declare const api: { send(a: unknown, b: unknown): Promise<void> };
export async function a() {
  await api.send({}, { idempotencyKey: makeKey() });
  await api.send({}, { idempotencyKey: nanoid() });
}
`,
    },
    {
      name: 'a batch loop whose counter indexes the items is not a retry counter, even with a try per item',
      code: `
export async function refundAll(runId: string, items: { orderId: string }[]) {
  for (let i = 0; i < items.length; i++) {
    try { await api.refund(items[i].orderId, { idempotencyKey: \`\${runId}:\${i}:refund\` }); } catch { /* next item */ }
  }
  for (let k = 0; k < limit; k++) {
    try { await api.refund(orders[k], { idempotencyKey: \`\${runId}:\${k}\` }); } catch { /* next */ }
  }
}
`,
    },
    {
      name: 'batches that run to their end key each item by its position: paged, seeded, walked with a while',
      code: `
export async function batches(runId: string, items: { chargeId: string }[]) {
  const pages = Math.ceil(items.length / 100);
  for (let page = 0; page < pages; page++) {
    try { await fetch(u, { method: 'POST', headers: { 'Idempotency-Key': \`\${runId}:bulk:\${page}\` } }); } catch (e) { log(e); }
  }
  for (let i = 0; i < 10; i++) {
    try { await stripe.customers.create({}, { idempotencyKey: \`\${runId}:seed-customer:\${i}\` }); } catch (err) { log(err); }
  }
  let idx = 0;
  while (idx < items.length) {
    try { await stripe.refunds.create({ charge: items[idx].chargeId }, { idempotencyKey: \`\${runId}:\${idx}:refund\` }); idx++; } catch (e) { log(e); idx++; }
  }
}
`,
    },
    {
      name: 'batches that stop at their first failure key each item by its position',
      code: `
export async function remind(runId: string, count: number) {
  for (let i = 0; i < count; i++) {
    const res = await fetch(u, { method: 'POST', headers: { 'Idempotency-Key': \`\${runId}-reminder-\${i}\` } });
    if (!res.ok) break;
  }
  for (let page = 0; page < 10; page++) {
    try { await fetch(u, { method: 'POST', headers: { 'Idempotency-Key': \`\${runId}-page-\${page}\` } }); } catch { break; }
  }
  for (let j = 0; j < count; j++) {
    const res = await fetch(u, { method: 'POST', headers: { 'Idempotency-Key': \`\${runId}-a-\${j}\` } });
    if (!res.ok || stopped) break;
  }
  for (let k = 0; k < count; k++) {
    const res = await fetch(u, { method: 'POST', headers: { 'Idempotency-Key': \`\${runId}-b-\${k}\` } });
    if (res.ok) { log(k); } else { break; }
  }
  for (let m = 0; m < count; m++) {
    const res = await fetch(u, { method: 'POST', headers: { 'Idempotency-Key': \`\${runId}-c-\${m}\` } });
    if (res.ok === false) break;
  }
}
`,
    },
    {
      name: "defineTool's key function: the spec's key template with a part is not a constant",
      code: `
import { defineTool, key } from '@retrysafe/spec';
export const a = defineTool({ name: 'a', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', maxAttempts: 1, input, key: ({ input }) => key\`refund:\${input.orderId}\`, execute });
`,
    },
    {
      name: "defineTool's key function built from durable fields; a key property elsewhere is no key position",
      code: `
import { defineTool, key } from '@retrysafe/spec';
import { randomUUID } from 'node:crypto';
export const t = defineTool({ name: 't', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', maxAttempts: 1, input, key: ({ run, input }) => key\`\${run.id}:\${input.orderId}:refund\`, execute });
cache.set({ key: randomUUID(), value: 1 });
`,
    },
    {
      name: "look-alikes of LangChain's config.runId: a durable run.id, an input field runId, a runId of a function that is no LangChain handler",
      code: `
import { tool } from '@langchain/core/tools';
import { defineTool, key } from '@retrysafe/spec';
export const a = tool(async ({ runId }: { runId: string }, config) => api.refund({ idempotencyKey: \`r:\${runId}\` }), { name: 'a' });
export const b = tool(async (input: { o: string }, config) => api.refund({ idempotencyKey: \`r:\${config.configurable.thread_id}\` }), { name: 'b' });
export const c = defineTool({ name: 'c', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', maxAttempts: 1, input, key: ({ run }) => key\`\${run.id}:refund\`, execute });
export async function d(input: { o: string }, config: { runId: string }) {
  await api.refund({ idempotencyKey: \`r:\${config.runId}\` });
}
export const e = mastraTool({ execute: async (input: unknown, context: any) => api.refund({ idempotencyKey: context.workflow.runId }) });
export const f = notLangchain.tool(async (input: unknown, config: any) => api.refund({ idempotencyKey: config.runId }));
const g = async (input: { o: string }, config: { runId: string }) => api.refund({ idempotencyKey: config.runId });
export const h = wrap(g, { name: 'h' });
export const i = tool(async () => d({ o: 'x' }, { runId: 'r' }), { name: 'i' });
`,
    },
    {
      name: 'look-alikes of DBOS.stepID and an SQS ReceiptHandle: DBOS.workflowID, a MessageId, a local DBOS',
      code: `
import { DBOS } from '@dbos-inc/dbos-sdk';
export async function step(message: { MessageId: string }) {
  await api.refund({ idempotencyKey: \`dbos:\${DBOS.workflowID}\`, dedupeKey: message.MessageId });
}
export async function other(dbos: { stepID: string }) {
  await api.refund({ idempotencyKey: dbos.stepID });
}
`,
    },
  ],
  invalid: [
    {
      name: "LangChain: config.runId in tool(fn)'s config, also destructured and renamed (new per invocation)",
      code: `
import { tool } from '@langchain/core/tools';
export const q5 = tool(async ({ o }: { o: string }, config) => stripe.refunds.create({ payment_intent: o }, { idempotencyKey: \`r:\${config.runId}\` }), { name: 'q5' });
export const q6 = tool(async (input: { o: string }, { runId }) => api.refund({ idempotencyKey: runId }), { name: 'q6' });
export const q7 = tool(async (input: { o: string }, { runId: id }) => api.refund({ idempotencyKey: \`\${id}:\${input.o}\` }), { name: 'q7' });
`,
      errors: [
        report('perAttemptKey', 3, 127, 'config.runId', 3, adviceIn('langchain')),
        report('perAttemptKey', 4, 96, 'runId', 4, adviceIn('langchain')),
        report('perAttemptKey', 5, 100, 'runId', 5, adviceIn('langchain')),
      ],
    },
    {
      name: 'LangChain: a handler declared apart and passed to tool() by name (a function declaration, a const arrow) (the third new-user trial)',
      code: `
import { tool } from '@langchain/core/tools';
async function refundHandler({ o }: { o: string }, config: { runId?: string }) { return api.refund({ idempotencyKey: \`\${config.runId}-\${o}\` }); }
const handler = async (input: { o: string }, { runId }: { runId?: string }) => api.refund({ idempotencyKey: runId });
export const a = tool(refundHandler, { name: 'a' });
export const b = tool(handler, { name: 'b' });
`,
      errors: [
        // The generic advice: the key is not written inside the tool() call, where the framework's is given.
        report('perAttemptKey', 3, 118, 'config.runId', 3),
        report('perAttemptKey', 4, 109, 'runId', 4),
      ],
    },
    {
      name: "LangChain: RunnableConfig.runId and the run manager's runId in a tool class's _call and a DynamicStructuredTool func",
      code: `
import { DynamicStructuredTool, StructuredTool } from '@langchain/core/tools';
export class Refund extends StructuredTool {
  name = 'refund';
  async _call(input: { o: string }, runManager?: any, config?: any) {
    return api.refund({ idempotencyKey: config.runId, dedupeKey: runManager.runId });
  }
}
export const r = new DynamicStructuredTool({ name: 'r', func: async (input: { o: string }, runManager, config) => api.refund({ idempotencyKey: config?.runId }) });
`,
      errors: [
        report('perAttemptKey', 6, 41, 'config.runId', 5, adviceIn('langchain')),
        report('perAttemptKey', 6, 66, 'runManager.runId', 5, adviceIn('langchain')),
        report('perAttemptKey', 9, 144, 'config.runId', 9, adviceIn('langchain')),
      ],
    },
    {
      name: 'DBOS: DBOS.stepID and DBOS.executorID; SQS: a ReceiptHandle (new per delivery)',
      code: `
import { DBOS } from '@dbos-inc/dbos-sdk';
export async function step(message: { ReceiptHandle: string }) {
  await api.refund({ idempotencyKey: \`s:\${DBOS.stepID}\`, dedupeKey: \`e:\${DBOS.executorID}\` });
  await api.refund({ idempotencyKey: message.ReceiptHandle });
}
`,
      errors: [
        report('perAttemptKey', 4, 38, 'DBOS.stepID', 4),
        report('perAttemptKey', 4, 69, 'DBOS.executorID', 4),
        report('perAttemptKey', 5, 38, 'message.ReceiptHandle', 5),
      ],
    },
    {
      name: 'AI SDK: toolCallId from the execute options',
      code: `
export const refund = tool({
  execute: async ({ orderId }: { orderId: string }, { toolCallId }: { toolCallId: string }) =>
    api.refund(orderId, { idempotencyKey: toolCallId }),
});
`,
      errors: [report('perAttemptKey', 4, 43, 'toolCallId', 3)],
    },
    {
      name: 'toolCallId read as a property, toolCall.id (LangChain, OpenAI)',
      code: `
export async function run(options: { toolCallId: string }, toolCall: { id: string }) {
  await api.refund({ idempotencyKey: \`refund:\${options.toolCallId}\`, dedupeKey: toolCall.id });
}
`,
      errors: [
        report('perAttemptKey', 3, 38, 'options.toolCallId', 3),
        report('perAttemptKey', 3, 81, 'toolCall.id', 3),
      ],
    },
    {
      name: 'Trigger.dev ctx.attempt.number and BullMQ job.attemptsMade',
      code: `
export const t = task({ run: async (p: { id: string }, { ctx }: any) => api.refund({ idempotencyKey: \`r-\${ctx.attempt.number}\` }) });
new Worker('q', async (job: any) => api.refund({ idempotencyKey: \`\${job.id}-\${job.attemptsMade}\` }));
`,
      errors: [
        report('perAttemptKey', 2, 102, 'ctx.attempt.number', 2),
        report('perAttemptKey', 3, 66, 'job.attemptsMade', 3),
      ],
    },
    {
      name: 'Trigger.dev ctx.attempt.id, Temporal info.attempt, a job context attempt',
      code: `
export const t = task({ run: async (p: { id: string }, { ctx }: any) => api.refund({ idempotencyKey: ctx.attempt.id }) });
export async function activity(info: { attempt: number }, jobContext: { attempt: number }) {
  await api.refund({ idempotencyKey: \`a-\${info.attempt}\`, dedupeKey: \`b-\${jobContext.attempt}\` });
}
`,
      errors: [
        report('perAttemptKey', 2, 102, 'ctx.attempt.id', 2),
        report('perAttemptKey', 4, 38, 'info.attempt', 4),
        report('perAttemptKey', 4, 70, 'jobContext.attempt', 4),
      ],
    },
    {
      name: 'CommonJS: require(...) read in place, without a binding',
      filename: 'client.js',
      code: `
fetch(url, { headers: { 'Idempotency-Key': require('crypto').randomUUID() } });
stripe.refunds.create(params, { idempotencyKey: require('node:crypto').randomBytes(16).toString('hex') });
`,
      errors: [
        report('randomKey', 2, 44, "require('crypto').randomUUID()", 2),
        report('randomKey', 3, 49, "require('node:crypto').randomBytes(16)", 3),
      ],
    },
    {
      name: 'the attempt number destructured from ctx.attempt',
      code: `
export const t = task({ run: async (p: { id: string }, { ctx }: any) => {
  const { number } = ctx.attempt;
  return api.refund({ idempotencyKey: \`\${p.id}-\${number}\` });
} });
`,
      errors: [report('perAttemptKey', 4, 39, 'ctx.attempt', 3)],
    },
    {
      name: 'retry loop counters: named attempt, or any for counter around a try',
      code: `
export async function post(orderId: string) {
  for (let attempt = 1; attempt <= 3; attempt++) await api.refund({ idempotencyKey: \`\${orderId}-\${attempt}\` });
  for (let i = 0; ; i++) {
    try { return await api.refund({ idempotencyKey: \`\${orderId}-\${i}\` }); } catch { /* again */ }
  }
}
`,
      errors: [report('perAttemptKey', 3, 85, 'attempt', 3), report('perAttemptKey', 5, 53, 'i', 4)],
    },
    {
      name: 'the implementation of an overloaded helper is traced',
      code: `
import { randomUUID } from 'node:crypto';
function makeKey(): string;
function makeKey(prefix: string): string;
function makeKey(prefix = 'k'): string { return \`\${prefix}:\${randomUUID()}\`; }
export const post = () => api.send({ idempotencyKey: makeKey() });
`,
      errors: [report('randomKey', 6, 54, 'randomUUID()', 5)],
    },
    {
      name: 'a while loop that counts its failures in the catch, whatever the counter is called',
      code: `
export async function refund(orderId: string) {
  let n = 0;
  while (true) {
    try {
      return await api.refund({ idempotencyKey: \`\${orderId}:\${n}\` });
    } catch (error) {
      if (++n > 3) throw error;
    }
  }
}
`,
      errors: [report('perAttemptKey', 6, 49, 'n', 3)],
    },
    {
      name: "defineTool's key function in JavaScript: a random or clock key, also past an as-any cast",
      filename: 'tools.js',
      code: `
const { defineTool } = require('@retrysafe/spec');
const { randomUUID } = require('node:crypto');
module.exports.refund = defineTool({ name: 'refund', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', maxAttempts: 1, input, key: () => randomUUID(), execute });
module.exports.notify = defineTool({ name: 'notify', sideEffects: 'external', idempotent: 'with_key', retry: 'safe_with_same_key', maxAttempts: 1, input, key: ({ input }) => \`\${input.orderId}:\${Date.now()}\`, execute });
`,
      errors: [report('randomKey', 4, 167, 'randomUUID()', 4), report('clockKey', 5, 175, 'Date.now()', 5)],
    },
    {
      name: "defineTool's key function by reference, and a config held in a const (found by a new-user trial)",
      filename: 'tools.js',
      code: `
import { defineTool } from '@retrysafe/spec';
import { randomUUID } from 'node:crypto';
const mk = () => randomUUID();
function mk2() { return randomUUID(); }
export const a = defineTool({ ...base, name: 'a', key: mk, execute });
export const b = defineTool({ ...base, name: 'b', key: mk2, execute });
const cfg = { ...base, name: 'f', key: () => \`f:\${Date.now()}\`, execute };
export const f = defineTool(cfg);
`,
      errors: [
        report('randomKey', 4, 18, 'randomUUID()', 4),
        report('randomKey', 5, 25, 'randomUUID()', 5),
        report('clockKey', 8, 46, 'Date.now()', 8),
      ],
    },
    {
      name: "defineTool's key function in TypeScript, past a cast; a random part inside key`...` is reported once, on that part",
      code: `
import { defineTool, key } from '@retrysafe/spec';
import { randomUUID } from 'node:crypto';
export const a = defineTool({ name: 'a', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', maxAttempts: 1, input, key: () => randomUUID() as any, execute });
export const b = defineTool({ name: 'b', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', maxAttempts: 1, input, key: ({ run }) => key\`\${run.id}:\${randomUUID() as any}\`, execute });
`,
      errors: [report('randomKey', 4, 155, 'randomUUID()', 4), report('randomKey', 5, 178, 'randomUUID()', 5)],
    },
    {
      name: 'retry loops that stop on success: fetch without a try, a counter bumped at the top of the body',
      code: `
export async function post(url: string, id: string, body: string) {
  for (let i = 0; i < 3; i++) {
    const res = await fetch(url, { method: 'POST', headers: { 'Idempotency-Key': \`\${id}-\${i}\` }, body });
    if (res.ok) return res.json();
    await sleep(200 * (i + 1));
  }
}
export async function refund(orderId: string) {
  let count = 0;
  while (true) {
    count++;
    try { return await stripe.refunds.create({ charge: orderId }, { idempotencyKey: \`\${orderId}:\${count}\` }); } catch (e) { if (count >= 5) throw e; }
  }
}
`,
      errors: [report('perAttemptKey', 4, 82, 'i', 3), report('perAttemptKey', 13, 85, 'count', 10)],
    },
    {
      name: 'a retry loop that stops on a success flag in its condition',
      code: `
export async function refund(orderId: string) {
  let k = 0;
  let ok = false;
  do {
    try { await stripe.refunds.create({ charge: orderId }, { idempotencyKey: \`\${orderId}:\${k}\` }); ok = true; } catch { await sleep(50); }
  } while (!ok && ++k < 3);
}
`,
      errors: [report('perAttemptKey', 6, 78, 'k', 3)],
    },
    {
      name: 'retries that stop on the outcome in the loop test: !res.ok, a done flag',
      code: `
export async function post(u: string, id: string) {
  let k = 0;
  let res = await fetch(u, { method: 'POST' });
  while (!res.ok && k < 3) {
    k++;
    res = await fetch(u, { method: 'POST', headers: { 'Idempotency-Key': \`\${id}-\${k}\` } });
  }
  let done = false;
  let n = 0;
  while (!done && n < 3) {
    const r = await fetch(u, { method: 'POST', headers: { 'Idempotency-Key': \`\${id}-\${n}\` } });
    done = r.ok;
    n++;
  }
}
`,
      errors: [report('perAttemptKey', 7, 74, 'k', 3), report('perAttemptKey', 12, 78, 'n', 10)],
    },
    {
      name: 'an attempt parameter of a retry callback, also renamed from a destructured property',
      code: `
retry(async (attempt: number) => api.refund({ idempotencyKey: \`x-\${attempt}\` }));
retry(async ({ attempt: n }: { attempt: number }) => api.refund({ idempotencyKey: \`x-\${n}\` }));
`,
      errors: [report('perAttemptKey', 2, 63, 'attempt', 2), report('perAttemptKey', 3, 83, 'n', 3)],
    },
    {
      name: 'a counter kept in a closure',
      code: `
let sent = 0;
export function nextMessage(body: string) {
  sent += 1;
  return { body, dedupeKey: \`msg-\${sent}\` };
}
`,
      errors: [report('counterKey', 5, 29, 'sent', 2)],
    },
  ],
});

ruleTester.run('no-random-key: import-sensitive allowed sources', rule, {
  valid: [
    {
      name: 'Temporal: uuid4 from @temporalio/workflow, and Date/Math.random in workflow code, replay',
      code: `
import { uuid4 } from '@temporalio/workflow';
export async function refundWorkflow(orderId: string) {
  await activities.refund({ idempotencyKey: uuid4() });
  await activities.refund({ idempotencyKey: \`\${orderId}-\${Date.now()}-\${Math.random()}\` });
}
`,
    },
    {
      name: 'Restate: ctx.rand and a journaled ctx.run are replay-stable',
      code: `
export async function handler(ctx: any) {
  await api.refund({ idempotencyKey: ctx.rand.uuidv4() });
  const key = await ctx.run('mint', () => crypto.randomUUID());
  await api.refund({ dedupeKey: key });
}
`,
    },
    {
      name: 'a parameter that shadows Math',
      code: `
export function f(Math: { random(): number }) { return { idempotencyKey: String(Math.random()) }; }
`,
    },
    {
      name: 'allowedSources: a source the user vouches for',
      code: `
import { v4 } from 'uuid';
send({ idempotencyKey: v4(), dedupeKey: Date.now() });
`,
      options: [{ allowedSources: [{ from: 'uuid', name: 'v4' }, { from: 'globalThis', name: 'Date.now' }] }],
    },
  ],
  invalid: [
    {
      name: 'uuid v4 in a Temporal workflow file is still random (only uuid4 is replayed)',
      code: `
import { uuid4 } from '@temporalio/workflow';
import { v4 } from 'uuid';
export async function wf() { await activities.refund({ idempotencyKey: v4() }); }
`,
      errors: [report('randomKey', 4, 72, 'v4()', 4)],
    },
    {
      name: 'namespace, default and require() imports, globalThis.crypto',
      code: `
import * as uuid from 'uuid';
import cuid from 'cuid';
const { randomUUID } = require('crypto');
send({ idempotencyKey: uuid.v4(), dedupeKey: cuid(), dedupKey: randomUUID(), deduplicationKey: globalThis.crypto.randomUUID() });
`,
      errors: [
        report('randomKey', 5, 24, 'uuid.v4()', 5),
        report('randomKey', 5, 46, 'cuid()', 5),
        report('randomKey', 5, 64, 'randomUUID()', 5),
        report('randomKey', 5, 96, 'globalThis.crypto.randomUUID()', 5),
      ],
    },
    {
      // Published CommonJS calls an import as `(0, module_1.name)(...)` (found by scripts/evaluate-real-code.mjs).
      name: 'compiled CommonJS: (0, node_crypto_1.randomUUID)() and (0, import_uuid.v4)() through __toESM',
      filename: 'index.js',
      code: `
"use strict";
const node_crypto_1 = require("node:crypto");
var import_uuid = __toESM(require("uuid"));
exports.refund = (order) => payments.refund(order.id, { idempotencyKey: (0, node_crypto_1.randomUUID)() });
exports.charge = (order) => payments.charge(order.id, { idempotencyKey: (0, import_uuid.v4)() });
`,
      errors: [
        report('randomKey', 5, 73, '(0, node_crypto_1.randomUUID)()', 5),
        report('randomKey', 6, 73, '(0, import_uuid.v4)()', 6),
      ],
    },
  ],
});

// Trial 3 (app/src/worker.ts, K10): get-or-create through raw SQL. A key given as a parameter to a
// statement that writes (INSERT, REPLACE, UPDATE, MERGE; read by sql/'s classifier) before its use
// is stored and read back on the retry; a SELECT or a DELETE stores nothing.
ruleTester.run('no-random-key: get-or-create through SQL text', rule, {
  valid: [
    {
      name: 'trial K10: select, else mint and insert, then send',
      code: `import pg from 'pg';\nimport { v4 as uuidv4 } from 'uuid';\nconst db = new pg.Pool();\nexport async function deliver(job: { id: string }, url: string) {\n  let deliveryKey: string | undefined = (await db.query('select k from deliveries where job=$1', [job.id])).rows[0]?.k;\n  if (!deliveryKey) {\n    deliveryKey = uuidv4();\n    await db.query('insert into deliveries(job, k) values ($1, $2)', [job.id, deliveryKey]);\n  }\n  await fetch(url, { method: 'POST', headers: { 'Idempotency-Key': deliveryKey } });\n}`,
    },
    { name: "a statement's parameters: db.query('INSERT …', [..., key])", code: `import { randomUUID } from 'node:crypto';\ndeclare const db: any;\nexport async function deliver(job: { id: string }, url: string) {\n  const key = randomUUID();\n  await db.query('insert into deliveries(job, k) values ($1, $2)', [job.id, key]);\n  return fetch(url, { method: 'POST', headers: { 'Idempotency-Key': key } });\n}` },
    { name: 'an upsert (INSERT … ON CONFLICT DO UPDATE)', code: `import { randomUUID } from 'node:crypto';\ndeclare const db: any;\nexport async function deliver(job: { id: string }, url: string) {\n  const key = randomUUID();\n  await db.query('INSERT INTO deliveries (job, k) VALUES ($1, $2) ON CONFLICT (job) DO UPDATE SET k = excluded.k', [job.id, key]);\n  return fetch(url, { method: 'POST', headers: { 'Idempotency-Key': key } });\n}` },
    { name: "an UPDATE through mysql2's execute", code: `import { randomUUID } from 'node:crypto';\ndeclare const db: any;\nexport async function deliver(job: { id: string }, url: string) {\n  const key = randomUUID();\n  await db.execute('UPDATE deliveries SET k = ? WHERE job = ?', [key, job.id]);\n  return fetch(url, { method: 'POST', headers: { 'Idempotency-Key': key } });\n}` },
    { name: 'a pg query config { text, values }', code: `import { randomUUID } from 'node:crypto';\ndeclare const db: any;\nexport async function deliver(job: { id: string }, url: string) {\n  const key = randomUUID();\n  await db.query({ text: 'INSERT INTO deliveries (job, k) VALUES ($1, $2)', values: [job.id, key] });\n  return fetch(url, { method: 'POST', headers: { 'Idempotency-Key': key } });\n}` },
    { name: 'a statement held in a const', code: `import { randomUUID } from 'node:crypto';\ndeclare const db: any;\nexport async function deliver(job: { id: string }, url: string) {\n  const key = randomUUID();\n  const INSERT_KEY = 'INSERT INTO deliveries (job, k) VALUES (?, ?)';\n  await db.query(INSERT_KEY, [job.id, key]);\n  return fetch(url, { method: 'POST', headers: { 'Idempotency-Key': key } });\n}` },
    { name: "a better-sqlite3 prepared statement's run", code: `import { randomUUID } from 'node:crypto';\ndeclare const db: any;\nexport async function deliver(job: { id: string }, url: string) {\n  const key = randomUUID();\n  db.prepare('INSERT INTO deliveries (job, k) VALUES (?, ?)').run(job.id, key);\n  return fetch(url, { method: 'POST', headers: { 'Idempotency-Key': key } });\n}` },
    { name: 'a prepared statement held in a const', code: `import { randomUUID } from 'node:crypto';\ndeclare const db: any;\nexport async function deliver(job: { id: string }, url: string) {\n  const key = randomUUID();\n  const insert = db.prepare('INSERT OR REPLACE INTO deliveries (job, k) VALUES (?, ?)');\n  insert.run(job.id, key);\n  return fetch(url, { method: 'POST', headers: { 'Idempotency-Key': key } });\n}` },
    { name: 'a hole of a template tagged sql (postgres.js)', code: `import { randomUUID } from 'node:crypto';\ndeclare const db: any;\nexport async function deliver(job: { id: string }, url: string) {\n  const key = randomUUID();\n  await sql\`INSERT INTO deliveries (job, k) VALUES (\${job.id}, \${key})\`;\n  return fetch(url, { method: 'POST', headers: { 'Idempotency-Key': key } });\n}` },
    { name: 'a drizzle sql template handed to db.execute', code: `import { randomUUID } from 'node:crypto';\ndeclare const db: any;\nexport async function deliver(job: { id: string }, url: string) {\n  const key = randomUUID();\n  await db.execute(sql\`INSERT INTO deliveries (job, k) VALUES (\${job.id}, \${key})\`);\n  return fetch(url, { method: 'POST', headers: { 'Idempotency-Key': key } });\n}` },
    { name: 'a data-modifying CTE', code: `import { randomUUID } from 'node:crypto';\ndeclare const db: any;\nexport async function deliver(job: { id: string }, url: string) {\n  const key = randomUUID();\n  await db.query('WITH saved AS (INSERT INTO deliveries (job, k) VALUES ($1, $2) RETURNING k) SELECT k FROM saved', [job.id, key]);\n  return fetch(url, { method: 'POST', headers: { 'Idempotency-Key': key } });\n}` },
  ],
  invalid: [
    {
      name: 'trial K10 with the insert made a SELECT',
      code: `import pg from 'pg';\nimport { v4 as uuidv4 } from 'uuid';\nconst db = new pg.Pool();\nexport async function deliver(job: { id: string }, url: string) {\n  let deliveryKey: string | undefined = (await db.query('select k from deliveries where job=$1', [job.id])).rows[0]?.k;\n  if (!deliveryKey) {\n    deliveryKey = uuidv4();\n    await db.query('select k from deliveries where job=$1 and k=$2', [job.id, deliveryKey]);\n  }\n  await fetch(url, { method: 'POST', headers: { 'Idempotency-Key': deliveryKey } });\n}`,
      errors: [report('randomKey', 10, 68, 'uuidv4()', 7)],
    },
    { name: 'a SELECT stores nothing', code: `import { randomUUID } from 'node:crypto';\ndeclare const db: any;\nexport async function deliver(job: { id: string }, url: string) {\n  const key = randomUUID();\n  await db.query('SELECT job FROM deliveries WHERE k = $1', [key]);\n  return fetch(url, { method: 'POST', headers: { 'Idempotency-Key': key } });\n}`, errors: [report('randomKey', 6, 69, 'randomUUID()', 4)] },
    { name: 'a DELETE stores nothing', code: `import { randomUUID } from 'node:crypto';\ndeclare const db: any;\nexport async function deliver(job: { id: string }, url: string) {\n  const key = randomUUID();\n  await db.query('DELETE FROM deliveries WHERE k = $1', [key]);\n  return fetch(url, { method: 'POST', headers: { 'Idempotency-Key': key } });\n}`, errors: [report('randomKey', 6, 69, 'randomUUID()', 4)] },
    { name: 'a SELECT template tagged sql', code: `import { randomUUID } from 'node:crypto';\ndeclare const db: any;\nexport async function deliver(job: { id: string }, url: string) {\n  const key = randomUUID();\n  await sql\`SELECT job FROM deliveries WHERE k = \${key}\`;\n  return fetch(url, { method: 'POST', headers: { 'Idempotency-Key': key } });\n}`, errors: [report('randomKey', 6, 69, 'randomUUID()', 4)] },
    { name: 'a template with another tag is not SQL', code: `import { randomUUID } from 'node:crypto';\ndeclare const db: any;\nexport async function deliver(job: { id: string }, url: string) {\n  const key = randomUUID();\n  await html\`INSERT INTO deliveries (k) VALUES (\${key})\`;\n  return fetch(url, { method: 'POST', headers: { 'Idempotency-Key': key } });\n}`, errors: [report('randomKey', 6, 69, 'randomUUID()', 4)] },
    { name: 'a SQL-named method whose first argument is not SQL', code: `import { randomUUID } from 'node:crypto';\ndeclare const db: any;\nexport async function deliver(job: { id: string }, url: string) {\n  const key = randomUUID();\n  await cache.get('deliveries', key);\n  return fetch(url, { method: 'POST', headers: { 'Idempotency-Key': key } });\n}`, errors: [report('randomKey', 6, 69, 'randomUUID()', 4)] },
    { name: "a prepared SELECT's run", code: `import { randomUUID } from 'node:crypto';\ndeclare const db: any;\nexport async function deliver(job: { id: string }, url: string) {\n  const key = randomUUID();\n  db.prepare('SELECT job FROM deliveries WHERE k = ?').get(key);\n  return fetch(url, { method: 'POST', headers: { 'Idempotency-Key': key } });\n}`, errors: [report('randomKey', 6, 69, 'randomUUID()', 4)] },
  ],
});

ruleTester.run('no-random-key: get-or-create', rule, {
  valid: [
    {
      name: 'read, else mint and store in sessionStorage, then use',
      code: `
import { randomUUID } from 'node:crypto';
export function post() {
  let key = sessionStorage.getItem('k');
  if (!key) { key = randomUUID(); sessionStorage.setItem('k', key); }
  return api.post({ idempotencyKey: key });
}
`,
    },
    {
      name: 'minted, inserted in the database and in redis before the first use',
      code: `
import { randomUUID } from 'node:crypto';
export async function post(orderId: string) {
  const existing = await db.find(orderId);
  if (existing) return api.post({ idempotencyKey: existing.key });
  const key = randomUUID();
  await db.insert({ orderId, key });
  const other = randomUUID();
  await redis.set(\`k:\${orderId}\`, other, 'NX');
  return api.post({ idempotencyKey: key, dedupeKey: other });
}
`,
    },
    {
      name: 'B05-style: minted at enqueue time into the stored job data, or into a stored record',
      code: `
import { nanoid } from 'nanoid';
export const enqueue = (orderId: string) => queue.add('deliver', { orderId, idempotencyKey: nanoid() }, { attempts: 3 });
export const record = () => db.insert({ idempotencyKey: nanoid(), status: 'pending' });
`,
    },
  ],
  invalid: [
    {
      name: 'stored only after the first use',
      code: `
import { randomUUID } from 'node:crypto';
export async function post(orderId: string) {
  const key = randomUUID();
  const res = await api.post({ idempotencyKey: key });
  await db.insert({ orderId, key });
  return res;
}
`,
      errors: [report('randomKey', 5, 48, 'randomUUID()', 4)],
    },
    {
      name: 'a Map and request headers do not persist anything',
      code: `
import { randomUUID } from 'node:crypto';
export async function post(headers: Headers) {
  const key = randomUUID();
  const cache = new Map<string, string>();
  cache.set('k', key);
  headers.set('X-Request-Id', key);
  return api.post({ idempotencyKey: key });
}
`,
      errors: [report('randomKey', 8, 37, 'randomUUID()', 4)],
    },
    {
      name: 'the options argument of queue.add is not stored job data',
      code: `
import { nanoid } from 'nanoid';
export const enqueue = () => queue.add('deliver', {}, { jobId: nanoid() });
`,
      options: [{ keyNames: ['jobId'] }],
      errors: [report('randomKey', 3, 64, 'nanoid()', 3)],
    },
  ],
});

ruleTester.run('no-random-key: non-key fields', rule, {
  valid: [
    {
      name: 'trace ids, request ids, file names, timestamps and a bare `key` are not key positions',
      code: `
import { randomUUID } from 'node:crypto';
import { nanoid } from 'nanoid';
log({ traceId: randomUUID(), requestId: randomUUID(), spanId: nanoid() });
upload({ fileName: \`\${randomUUID()}.png\`, createdAt: new Date(), key: nanoid(), messageId: nanoid() });
`,
    },
    {
      name: 'jobId and deliveryId are not keys by default',
      code: `
import { nanoid } from 'nanoid';
queue.add('x', {}, { jobId: nanoid() });
send({ deliveryId: nanoid() });
`,
    },
  ],
  invalid: [
    {
      name: 'keyNames adds names to the defaults, in any letter case',
      code: `
import { nanoid } from 'nanoid';
send({ deliveryId: nanoid(), IDEMPOTENCY_KEY: nanoid() });
`,
      options: [{ keyNames: ['deliveryId'] }],
      errors: [report('randomKey', 3, 20, 'nanoid()', 3), report('randomKey', 3, 47, 'nanoid()', 3)],
    },
    {
      name: 'other default names: Idempotency-Token, clientRequestToken, deduplicationId, Upstash-Deduplication-Id, an assigned option',
      code: `
import { randomUUID } from 'node:crypto';
export function f(opts: any, headers: Headers) {
  headers.set('Idempotency-Token', randomUUID());
  headers.set('Upstash-Deduplication-Id', randomUUID());
  opts.clientRequestToken = randomUUID();
  opts.deduplicationId = randomUUID();
  opts.idempotencyKey ??= randomUUID();
}
`,
      errors: [
        report('randomKey', 4, 36, 'randomUUID()', 4),
        report('randomKey', 5, 43, 'randomUUID()', 5),
        report('randomKey', 6, 29, 'randomUUID()', 6),
        report('randomKey', 7, 26, 'randomUUID()', 7),
        report('randomKey', 8, 27, 'randomUUID()', 8),
      ],
    },
    {
      name: 'AWS and SQS names: ClientToken, MessageDeduplicationId; PagerDuty dedup_key',
      code: `
import { randomUUID } from 'node:crypto';
new SendMessageCommand({ MessageDeduplicationId: randomUUID() });
new RunInstancesCommand({ ClientToken: randomUUID() });
pagerduty.event({ dedup_key: randomUUID() });
`,
      errors: [
        report('randomKey', 3, 50, 'randomUUID()', 3),
        report('randomKey', 4, 40, 'randomUUID()', 4),
        report('randomKey', 5, 30, 'randomUUID()', 5),
      ],
    },
  ],
});

ruleTester.run('no-random-key: the spec’s key constructors', rule, {
  valid: [
    {
      name: 'key`...` from durable parts',
      code: `
import { key, vouchDurable } from '@retrysafe/spec';
export const k = (run: { id: string }, input: { orderId: string }) => key\`\${run.id}:\${input.orderId}:refund\`;
export const v = (externalId: string) => vouchDurable(externalId);
`,
    },
    {
      name: 'a `key` tag from another module is not the spec’s',
      code: `
import { randomUUID } from 'node:crypto';
import { key } from './my-keys';
export const k = key\`\${randomUUID()}\`;
`,
    },
  ],
  invalid: [
    {
      name: 'every part of key`...` and every argument of vouchDurable(...) is a key position',
      code: `
import { randomUUID } from 'node:crypto';
import { key, vouchDurable } from '@retrysafe/spec';
export const k = (run: { id: string }) => key\`\${run.id}:\${Date.now()}\`;
export const v = vouchDurable(randomUUID());
`,
      errors: [report('clockKey', 4, 59, 'Date.now()', 4), report('randomKey', 5, 31, 'randomUUID()', 5)],
    },
    {
      name: 'vouchDurable nested in key`...` is reported once, at the vouched argument',
      code: `
import { randomUUID } from 'node:crypto';
import * as spec from '@retrysafe/spec';
export const k = spec.key\`order:\${spec.vouchDurable(randomUUID())}\`;
`,
      errors: [report('randomKey', 4, 53, 'randomUUID()', 4)],
    },
    {
      // The rule skips the scope lookup in files whose text never names @retrysafe/spec (bench/lint.mjs
      // found it the hottest path on real code); an alias or a require still names it.
      name: 'key`...` imported under another name is still a key position',
      code: `
import { randomUUID } from 'node:crypto';
import { key as k } from '@retrysafe/spec';
export const refundKey = k\`refund:\${randomUUID()}\`;
`,
      errors: [report('randomKey', 4, 37, 'randomUUID()', 4)],
    },
    {
      name: 'vouchDurable from require(...) is still a key position',
      code: `
const { randomUUID } = require('node:crypto');
const { vouchDurable } = require('@retrysafe/spec');
export const id = vouchDurable(randomUUID());
`,
      errors: [report('randomKey', 4, 32, 'randomUUID()', 4)],
    },
    {
      name: 'a key template inside a key property is reported once, at the property',
      code: `
import { randomUUID } from 'node:crypto';
import { key } from '@retrysafe/spec';
send({ idempotencyKey: key\`order:\${randomUUID()}\` });
`,
      errors: [report('randomKey', 4, 24, 'randomUUID()', 4)],
    },
  ],
});

ruleTester.run('no-random-key: plain JavaScript (espree)', rule, {
  valid: [
    {
      name: 'a durable key in plain JavaScript',
      code: `
export const charge = (orderId) => stripe.charges.create({}, { idempotencyKey: \`charge-\${orderId}\` });
`,
      languageOptions: javascript,
    },
  ],
  invalid: [
    {
      name: 'B01 in plain JavaScript: the key minted inside the retry loop',
      code: `
const { randomUUID } = require('node:crypto');
async function createMandate(body) {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await fetch('/mandates', { headers: { 'X-Request-Id': randomUUID(), 'Idempotency-Key': randomUUID() } });
    } catch (err) { /* retry */ }
  }
}
`,
      languageOptions: { parser: espree, parserOptions: { ecmaVersion: 'latest', sourceType: 'script' } },
      errors: [report('randomKey', 6, 101, 'randomUUID()', 6)],
    },
    {
      name: 'B07 in plain JavaScript: class field generator',
      code: `
import { randomUUID } from 'crypto';
export class WebhookSigner {
  newId = () => randomUUID();
  #seq = 0;
  sign(headers) {
    const id = this.newId();
    headers['webhook-id'] = id;
    headers['svix-id'] = Date.now() + '-' + Math.random();
  }
}
`,
      languageOptions: javascript,
      errors: [report('randomKey', 8, 29, 'randomUUID()', 4), report('clockKey', 9, 26, 'Date.now()', 9)],
    },
  ],
});

ruleTester.run('no-random-key: suggestions', rule, {
  valid: [],
  invalid: [
    {
      name: 'the enclosing function takes durable ids: suggest keying on them',
      code: `
import { randomUUID } from 'node:crypto';
export async function refund(runId: string, orderId: string, amount: number, requestId: string) {
  return stripe.refunds.create({ amount }, { idempotencyKey: randomUUID() });
}
`,
      errors: [
        {
          ...report('randomKey', 4, 62, 'randomUUID()', 4),
          suggestions: [
            {
              messageId: 'suggestDurableParameters',
              data: { parameters: '`runId`, `orderId`', action: ', ending with the action `refund`' },
              // randomUUID has no other use: its import from a Node built-in goes too.
              output: `
export async function refund(runId: string, orderId: string, amount: number, requestId: string) {
  return stripe.refunds.create({ amount }, { idempotencyKey: \`\${runId}:\${orderId}:refund\` });
}
`,
            },
          ],
        },
      ],
    },
    {
      name: 'a tool handler that destructures its input: the fields and the tool name',
      code: `
import { nanoid } from 'nanoid';
export const t = tool({
  name: 'issue_refund',
  execute: async ({ orderId, note }: { orderId: string; note: string }, { runId }: { runId: string }) => api.refund({ idempotencyKey: nanoid() }),
});
`,
      errors: [
        {
          ...report('randomKey', 5, 135, 'nanoid()', 5),
          suggestions: [
            {
              messageId: 'suggestDurableParameters',
              data: { parameters: '`orderId`, `runId`', action: ', ending with the action `issue_refund`' },
              output: `
import { nanoid } from 'nanoid';
export const t = tool({
  name: 'issue_refund',
  execute: async ({ orderId, note }: { orderId: string; note: string }, { runId }: { runId: string }) => api.refund({ idempotencyKey: \`\${orderId}:\${runId}:issue_refund\` }),
});
`,
            },
          ],
        },
      ],
    },
    {
      // One id, and the registered name at its end: `${orderId}:issue_refund` is still one key for
      // every refund of the order (a second, partial refund replays the first). The rule offered it
      // and then accepted it (new-user trial): not offered.
      name: 'an MCP handler with one durable id: no suggestion, whatever the registered tool name',
      code: `
import { randomUUID } from 'node:crypto';
server.registerTool('issue_refund', { inputSchema }, async ({ orderId }: { orderId: string }) => api.refund({ idempotencyKey: randomUUID() }));
`,
      errors: [{ ...report('randomKey', 3, 127, 'randomUUID()', 3), suggestions: [] }],
    },
    {
      // One id and no action to scope it: `${orderId}` alone would make every later call about the
      // order share one key (a second, partial refund replays the first), and `${customerId}` every
      // payment of the customer (new-user trial): no suggestion.
      name: 'a handler with one named durable parameter and no name of its own or of a tool: no suggestion',
      code: `
import { randomUUID } from 'node:crypto';
export default async function (orderId: string) {
  await api.refund({ idempotencyKey: randomUUID() });
}
`,
      errors: [{ ...report('randomKey', 4, 38, 'randomUUID()', 4), suggestions: [] }],
    },
    // New-user trial 2: two ids of items and none of the run are the same key in every later run
    // about those items (a second escalation of the ticket next week shares the first's key).
    {
      name: 'two item ids and no run id: no suggestion (the message says where a run id comes from)',
      code: `
import { randomUUID } from 'node:crypto';
export async function escalateTicket(ticketId: string, customerId: string) {
  await fetch(url, { method: 'POST', headers: { 'Idempotency-Key': randomUUID() } });
}
`,
      errors: [{ ...report('randomKey', 4, 68, 'randomUUID()', 4), suggestions: [] }],
    },
    {
      name: 'an order id and a line id, no run id: no suggestion',
      code: `
import { randomUUID } from 'node:crypto';
export async function refundLine(orderId: string, lineId: string) {
  return stripe.refunds.create({ amount: 1 }, { idempotencyKey: randomUUID() });
}
`,
      errors: [{ ...report('randomKey', 4, 65, 'randomUUID()', 4), suggestions: [] }],
    },
    {
      name: 'a job id names the run: suggested with the item id',
      code: `
import { randomUUID } from 'node:crypto';
export async function refundLine(jobId: string, lineId: string) {
  return stripe.refunds.create({ amount: 1 }, { idempotencyKey: randomUUID() });
}
`,
      errors: [
        {
          ...report('randomKey', 4, 65, 'randomUUID()', 4),
          suggestions: [
            {
              messageId: 'suggestDurableParameters',
              data: { parameters: '`jobId`, `lineId`', action: ', ending with the action `refundLine`' },
              output: `
export async function refundLine(jobId: string, lineId: string) {
  return stripe.refunds.create({ amount: 1 }, { idempotencyKey: \`\${jobId}:\${lineId}:refundLine\` });
}
`,
            },
          ],
        },
      ],
    },
    {
      name: 'a handler with two named durable parameters and no name of its own or of a tool: both, no action',
      code: `
import { randomUUID } from 'node:crypto';
export default async function (runId: string, orderId: string) {
  await api.refund({ idempotencyKey: randomUUID() });
}
`,
      errors: [
        {
          ...report('randomKey', 4, 38, 'randomUUID()', 4),
          suggestions: [
            {
              messageId: 'suggestDurableParameters',
              data: { parameters: '`runId`, `orderId`', action: '' },
              output: `
export default async function (runId: string, orderId: string) {
  await api.refund({ idempotencyKey: \`\${runId}:\${orderId}\` });
}
`,
            },
          ],
        },
      ],
    },
    {
      name: 'one durable id, with a function name or a tool name sibling as the action: no suggestion',
      code: `
import { randomUUID } from 'node:crypto';
const sendReceipt = (orderId: string) => mail.send({ idempotencyKey: randomUUID() });
const t = defineTool({ name: 'issue_refund', execute: async (input: unknown, orderId: string) => api.refund({ idempotencyKey: randomUUID() }) });
`,
      errors: [
        { ...report('randomKey', 3, 70, 'randomUUID()', 3), suggestions: [] },
        { ...report('randomKey', 4, 127, 'randomUUID()', 4), suggestions: [] },
      ],
    },
    {
      name: 'no durable-looking parameter: no suggestion',
      code: `
import { randomUUID } from 'node:crypto';
export const post = (body: unknown) => fetch('/x', { body: JSON.stringify(body), headers: { 'Idempotency-Key': randomUUID() } });
`,
      errors: [{ ...report('randomKey', 3, 112, 'randomUUID()', 3), suggestions: [] }],
    },
  ],
});

// ---------------------------------------------------------------------------------------------
// The key-position API other rules use (require-key-passthrough asks from the value's side).
// ---------------------------------------------------------------------------------------------

describe('getKeyPositionOf', () => {
  it('names the key position a value fills, and nothing for other values', () => {
    const found: string[] = [];
    const probe: TSESLint.RuleModule<never> = {
      defaultOptions: [],
      meta: { type: 'problem', messages: {}, schema: [] },
      create(context) {
        const positionContext = { sourceCode: context.sourceCode, matchKeyName: createKeyNameMatcher(['jobId']) };
        return {
          Identifier(node: TSESTree.Identifier): void {
            const position = getKeyPositionOf(node, positionContext);
            if (position) found.push(`${node.name} ${position.kind} ${position.keyName}`);
          },
        };
      },
    };
    const code = `
import { key } from '@retrysafe/spec';
send({ idempotencyKey: a, traceId: b, JOBID: g });
headers.set('idempotency-key', c);
headers['webhook-id'] = d;
new Headers([['X-Idempotency-Key', e]]);
key\`\${f}:x\`;
`;
    const messages = new Linter({ configType: 'flat' }).verify(code, [
      { languageOptions: { parser: parser as Linter.Parser }, plugins: { test: { rules: { probe: probe as never } } }, rules: { 'test/probe': 'error' } },
    ]);
    expect(messages).toEqual([]);
    expect(found).toEqual([
      'a property idempotencyKey',
      'g property jobId',
      'c headerCall Idempotency-Key',
      'd memberAssignment webhook-id',
      'e headerEntry X-Idempotency-Key',
      'f specKey key',
    ]);
  });
});

// ---------------------------------------------------------------------------------------------
// Issue 14, class 1: deduplication ids that are not on the name list. The key family (a vendor's
// own idempotency, dedup or delivery-id header, a field that says it is one), the id of an
// outgoing event or message envelope, and a helper whose name says it makes a key.
ruleTester.run('no-random-key: the key family, envelope ids and key helpers', rule, {
  valid: [
    { name: 'a trace id header is not a key', code: `import { randomUUID } from 'node:crypto';\nfetch(url, { headers: { 'X-Request-Id': randomUUID(), 'X-Correlation-Id': randomUUID(), traceparent: randomUUID() } });` },
    { name: 'a vendor trace header is not a key', code: `import { randomUUID } from 'node:crypto';\nfetch(url, { headers: { 'X-Acme-Trace-Id': randomUUID(), 'X-Amzn-Trace-Id': randomUUID() } });` },
    { name: 'requestId and correlationId fields are not keys', code: `import { randomUUID } from 'node:crypto';\nlog({ requestId: randomUUID(), correlationId: randomUUID(), traceId: randomUUID() });` },
    { name: 'flags about a key are not keys (Powertools’ throwOnNoIdempotencyKey)', code: `import { randomUUID } from 'node:crypto';\nconfigure({ throwOnNoIdempotencyKey: Math.random() > 0.5, hasIdempotencyKey: Boolean(randomUUID()), requireDedupKey: Date.now() > 0 });` },
    { name: 'a plain deliveryId field stays out (not a header)', code: `import { randomUUID } from 'node:crypto';\nsave({ deliveryId: randomUUID() });` },
    { name: 'a vendor idempotency header from the input', code: `export function send(input: { orderId: string }) {\n  return fetch(url, { headers: { 'X-Acme-Idempotency-Key': \`order:\${input.orderId}\` } });\n}` },
    { name: 'an event id from the caller', code: `export function publish(type: string, data: unknown, eventId: string) {\n  return bus.send({ eventId, type, data });\n}` },
    { name: 'an eventId outside an envelope (no type and data) is not judged', code: `import { randomUUID } from 'node:crypto';\nmetrics.count({ eventId: randomUUID(), value: 1 });` },
    { name: 'a chat message id minted when the message is made is its identity', code: `import { nanoid } from 'nanoid';\nmessages.push({ id: nanoid(), role: 'user', content: text });` },
    { name: 'a chat message id that falls back to a stored id', code: `export function toMessage(message: { id?: string; content: string }, stored: string) {\n  return { id: message.id ?? stored, role: 'user', content: message.content };\n}` },
    { name: 'a key helper that derives its key', code: `function generateIdempotencyKey(orderId: string) { return \`refund:\${orderId}\`; }\nexport const charge = (orderId: string) => client.refund(orderId, generateIdempotencyKey(orderId));` },
    { name: 'a helper with a random value but no key name is not a key source by itself', code: `import { randomUUID } from 'node:crypto';\nfunction newTraceId() { return randomUUID(); }\nlog(newTraceId());` },
    { name: 'a key helper imported from another module is not followed', code: `import { generateIdempotencyKey } from './keys';\nclient.refund(order, generateIdempotencyKey());` },
    { name: 'a key made by a helper and stored before use (get-or-create)', code: `import { randomUUID } from 'node:crypto';\nfunction generateIdempotencyKey() { return randomUUID(); }\nexport async function charge(order: string) {\n  const key = generateIdempotencyKey();\n  await redis.set(\`key:\${order}\`, key);\n  return client.refund(order, key);\n}` },
  ],
  invalid: [
    {
      name: 'a key name computed by concatenation, once the file spells a key word (it was not looked for before the key family)',
      code: `import { randomUUID } from 'node:crypto';\nconst headers: Record<string, string> = {};\nheaders['Idempotency-' + 'Ke' + 'y'] = randomUUID();`,
      errors: [report('randomKey', 3, 40, 'randomUUID()', 3)],
    },
    {
      name: 'X-<Vendor>-Idempotency-Key with a random value',
      code: `import { randomUUID } from 'node:crypto';\nfetch(url, { method: 'POST', headers: { 'X-Acme-Idempotency-Key': randomUUID() } });`,
      errors: [report('randomKey', 2, 67, 'randomUUID()', 2)],
    },
    {
      name: 'X-<Vendor>-Delivery-Id set on a webhook delivery',
      code: `import { randomUUID } from 'node:crypto';\nconst headers = new Headers();\nheaders.set('X-Hookdeck-Delivery-Id', randomUUID());`,
      errors: [report('randomKey', 3, 39, 'randomUUID()', 3)],
    },
    {
      name: 'a field of the family: paymentIdempotencyKey, order_dedup_key',
      code: `send({ paymentIdempotencyKey: \`p-\${Date.now()}\`, order_dedup_key: Math.random() });`,
      errors: [report('clockKey', 1, 31, 'Date.now()', 1), report('randomKey', 1, 67, 'Math.random()', 1)],
    },
    {
      name: 'an envelope eventId defaulted to a fresh UUID',
      code: `import { randomUUID } from 'node:crypto';\nexport function envelope(type: string, data: unknown, eventId = randomUUID()) {\n  return { eventId, type, data };\n}`,
      errors: [report('randomKey', 3, 12, 'randomUUID()', 2)],
    },
    {
      name: 'a webhook envelope with message_id',
      code: `import { v4 } from 'uuid';\nawait deliver(url, { message_id: v4(), event: 'order.paid', payload });`,
      errors: [report('randomKey', 2, 34, 'v4()', 2)],
    },
    {
      name: 'a chat message id that falls back to randomUUID()',
      code: `import { randomUUID } from 'node:crypto';\nexport function toMessage(message: { id?: string; content: string }) {\n  return { id: message.id ?? randomUUID(), role: 'user', content: message.content };\n}`,
      errors: [report('randomKey', 3, 16, 'randomUUID()', 3)],
    },
    {
      name: 'generateIdempotencyKey() returning a random value, passed positionally',
      code: `import { randomUUID } from 'node:crypto';\nfunction generateIdempotencyKey() { return randomUUID(); }\nexport async function charge(order: string) {\n  const key = generateIdempotencyKey();\n  return client.refund(order, key);\n}`,
      errors: [report('randomKey', 4, 15, 'randomUUID()', 2)],
    },
    {
      name: 'a key helper in a key position is reported once',
      code: `const makeDedupKey = () => \`k-\${Date.now()}\`;\nqueue.publish({ dedupKey: makeDedupKey() });`,
      errors: [report('clockKey', 2, 27, 'Date.now()', 1)],
    },
  ],
});

// ---------------------------------------------------------------------------------------------
// Issue 14, class 2: a key minted once before an in-process retry is the same on every attempt (the
// way Stripe's SDK keys its own retries; the IETF draft's UUID minted once). Decided by where the
// attempts are: a retry helper's callback, a retry loop, a recursive retry.
ruleTester.run('no-random-key: a key minted once before an in-process retry', rule, {
  valid: [
    {
      name: 'const key = randomUUID(); await withRetry(() => post(key)) (the issue’s example)',
      code: `import { randomUUID } from 'node:crypto';\nexport async function refund(order: string) {\n  const idempotencyKey = randomUUID();\n  await withRetry(() => stripe.refunds.create({ charge: order }, { idempotencyKey }));\n}`,
    },
    {
      name: 'p-retry around the request, the key minted before it',
      code: `import pRetry from 'p-retry';\nimport { randomUUID } from 'node:crypto';\nexport async function send(body: string) {\n  const key = randomUUID();\n  return pRetry(() => fetch(url, { method: 'POST', body, headers: { 'Idempotency-Key': key } }), { retries: 3 });\n}`,
    },
    {
      name: 'a for retry loop reusing a key minted before it',
      code: `import { randomUUID } from 'node:crypto';\nexport async function send(body: string) {\n  const key = randomUUID();\n  for (let attempt = 0; attempt < 3; attempt++) {\n    const res = await fetch(url, { method: 'POST', body, headers: { 'Idempotency-Key': key } });\n    if (res.ok) return res;\n  }\n}`,
    },
    {
      name: 'a while retry loop with a try',
      code: `import { randomUUID } from 'node:crypto';\nexport async function send(body: string) {\n  const idempotencyKey = \`send-\${randomUUID()}\`;\n  let retries = 3;\n  while (retries-- > 0) {\n    try { return await api.post(body, { idempotencyKey }); } catch { await sleep(100); }\n  }\n}`,
    },
    {
      name: 'a recursive retry closing over a key minted once',
      code: `import { randomUUID } from 'node:crypto';\nexport async function send(body: string) {\n  const key = randomUUID();\n  const attemptSend = async (n: number): Promise<unknown> => {\n    try { return await api.post(body, { idempotencyKey: key }); } catch (error) { if (n < 3) return attemptSend(n + 1); throw error; }\n  };\n  return attemptSend(0);\n}`,
    },
    {
      name: 'a key helper called once before the retry',
      code: `import { randomUUID } from 'node:crypto';\nconst generateIdempotencyKey = () => randomUUID();\nexport async function charge(order: string) {\n  const key = generateIdempotencyKey();\n  return withRetry(() => client.refund(order, key));\n}`,
    },
  ],
  invalid: [
    {
      name: 'minting inside the retry callback stays reported',
      code: `import { randomUUID } from 'node:crypto';\nexport async function refund(order: string) {\n  await withRetry(() => stripe.refunds.create({ charge: order }, { idempotencyKey: randomUUID() }));\n}`,
      errors: [report('randomKey', 3, 84, 'randomUUID()', 3)],
    },
    {
      name: 'minting inside the retry loop stays reported',
      code: `import { randomUUID } from 'node:crypto';\nexport async function send(body: string) {\n  for (let attempt = 0; attempt < 3; attempt++) {\n    const key = randomUUID();\n    const res = await fetch(url, { method: 'POST', body, headers: { 'Idempotency-Key': key } });\n    if (res.ok) return res;\n  }\n}`,
      errors: [report('randomKey', 5, 88, 'randomUUID()', 4)],
    },
    {
      name: 'a helper that mints, called inside the retry, mints on every attempt',
      code: `import { randomUUID } from 'node:crypto';\nconst makeKey = () => randomUUID();\nexport async function refund(order: string) {\n  await withRetry(() => stripe.refunds.create({ charge: order }, { idempotencyKey: makeKey() }));\n}`,
      errors: [report('randomKey', 4, 84, 'randomUUID()', 2)],
    },
    {
      name: 'minted once but with no retry in sight: the caller’s retry gets a new key',
      code: `import { randomUUID } from 'node:crypto';\nexport async function refund(order: string) {\n  const idempotencyKey = randomUUID();\n  await stripe.refunds.create({ charge: order }, { idempotencyKey });\n}`,
      errors: [report('randomKey', 4, 52, 'randomUUID()', 3)],
    },
    {
      name: 'a batch loop is not a retry loop',
      code: `import { randomUUID } from 'node:crypto';\nexport async function sendAll(items: string[]) {\n  const key = randomUUID();\n  for (const item of items) await api.post(item, { idempotencyKey: key });\n}`,
      errors: [report('randomKey', 4, 68, 'randomUUID()', 3)],
    },
    {
      name: 'a retry counter inside the loop is per attempt, not minted once',
      code: `export async function send(body: string) {\n  for (let attempt = 0; attempt < 3; attempt++) {\n    try { return await api.post(body, { idempotencyKey: \`send-\${attempt}\` }); } catch {}\n  }\n}`,
      errors: [report('perAttemptKey', 3, 57, 'attempt', 2)],
    },
  ],
});

// ---------------------------------------------------------------------------------------------
// Issue 14, class 4: durable-execution engines (keys/durableEngines.ts). Their step, workflow, event
// and job ids are deduplication keys, in a file that imports the engine; their seeded randomness
// (Restate's ctx.rand, a Vercel Workflow "use workflow" function, Temporal workflow code) is not a
// source, a "use step" body or an activity is.
ruleTester.run('no-random-key: durable-execution engines', rule, {
  valid: [
    { name: 'Inngest step.run with a fixed id', code: `import { Inngest } from 'inngest';\nconst inngest = new Inngest({ id: 'app' });\nexport const fn = inngest.createFunction({ id: 'refund' }, { event: 'order/refund' }, async ({ event, step }) => {\n  await step.run('refund-charge', () => refund(event.data.orderId));\n});` },
    { name: 'Inngest send with an event id derived from the order', code: `import { Inngest } from 'inngest';\nconst inngest = new Inngest({ id: 'app' });\nawait inngest.send({ id: \`order-paid-\${orderId}\`, name: 'order/paid', data: { orderId } });` },
    { name: 'a step.run of a file that imports no engine is not judged', code: `import { randomUUID } from 'node:crypto';\nawait step.run(randomUUID(), () => work());` },
    { name: 'Temporal workflowId from the order', code: `import { Client } from '@temporalio/client';\ndeclare const client: Client;\nawait client.workflow.start(refundWorkflow, { taskQueue: 'refunds', workflowId: \`refund-\${orderId}\`, args: [orderId] });` },
    { name: 'BullMQ jobId from the order; the data’s nanoid is stored with the job', code: `import { Queue } from 'bullmq';\nimport { nanoid } from 'nanoid';\nconst queue = new Queue('deliveries');\nawait queue.add('deliver', { deliveryId: nanoid() }, { jobId: \`deliver-\${orderId}\` });` },
    { name: 'Trigger.dev idempotencyKeys.create from the run', code: `import { idempotencyKeys } from '@trigger.dev/sdk';\nconst key = await idempotencyKeys.create(\`refund-\${orderId}\`);` },
    { name: 'Restate ctx.rand is seeded by the invocation', code: `import * as restate from '@restatedev/restate-sdk';\nexport const svc = restate.service({ name: 'payments', handlers: { pay: async (ctx: restate.Context, orderId: string) => {\n  const idempotencyKey = ctx.rand.uuidv4();\n  await ctx.run('charge', () => stripe.charges.create({ amount: 100 }, { idempotencyKey }));\n} } });` },
    { name: 'Math.random and Date.now in a "use workflow" function are seeded by the run', code: `export async function refundWorkflow(orderId: string) {\n  'use workflow';\n  const idempotencyKey = \`\${orderId}-\${Math.random()}-\${Date.now()}\`;\n  await refund({ orderId, idempotencyKey });\n}` },
    { name: 'crypto.randomUUID() in a "use workflow" function', code: `export async function notifyWorkflow(userId: string) {\n  'use workflow';\n  await send({ userId, idempotencyKey: crypto.randomUUID() });\n}` },
    { name: 'Temporal workflow code: Date and Math.random replay', code: `import { proxyActivities } from '@temporalio/workflow';\nconst { charge } = proxyActivities<{ charge(o: unknown): Promise<void> }>({ startToCloseTimeout: '1m' });\nexport async function payWorkflow(orderId: string) {\n  await charge({ orderId, idempotencyKey: \`\${orderId}-\${Date.now()}\` });\n}` },
  ],
  invalid: [
    {
      name: 'Inngest step.run with a random id: a replay runs a new step',
      code: `import { Inngest } from 'inngest';\nimport { randomUUID } from 'node:crypto';\nconst inngest = new Inngest({ id: 'app' });\nexport const fn = inngest.createFunction({ id: 'refund' }, { event: 'order/refund' }, async ({ event, step }) => {\n  await step.run(\`refund-\${randomUUID()}\`, () => refund(event.data.orderId));\n});`,
      errors: [report('randomKey', 5, 18, 'randomUUID()', 5)],
    },
    {
      name: 'Inngest send with a random event id: the 24-hour dedup never matches',
      code: `import { Inngest } from 'inngest';\nimport { v4 } from 'uuid';\nconst inngest = new Inngest({ id: 'app' });\nawait inngest.send({ id: v4(), name: 'order/paid', data: { orderId } });`,
      errors: [report('randomKey', 4, 26, 'v4()', 4)],
    },
    {
      name: 'Temporal signalWithStart with a clock workflowId',
      code: `import { Client } from '@temporalio/client';\ndeclare const client: Client;\nawait client.workflow.signalWithStart(orderWorkflow, { taskQueue: 'orders', workflowId: \`order-\${Date.now()}\`, signal: paid });`,
      errors: [report('clockKey', 3, 89, 'Date.now()', 3)],
    },
    {
      name: 'BullMQ queue.add with a random jobId',
      code: `import { Queue } from 'bullmq';\nimport { randomUUID } from 'node:crypto';\nconst queue = new Queue('emails');\nawait queue.add('send', { to }, { jobId: randomUUID() });`,
      errors: [report('randomKey', 4, 42, 'randomUUID()', 4)],
    },
    {
      name: 'Trigger.dev idempotencyKeys.create from the clock',
      code: `import { idempotencyKeys } from '@trigger.dev/sdk';\nconst key = await idempotencyKeys.create(\`refund-\${Date.now()}\`);`,
      errors: [report('clockKey', 2, 42, 'Date.now()', 2)],
    },
    {
      name: 'DBOS startWorkflow with a random workflowID',
      code: `import { DBOS } from '@dbos-inc/dbos-sdk';\nimport { randomUUID } from 'node:crypto';\nawait DBOS.startWorkflow(checkout, { workflowID: randomUUID() })(orderId);`,
      errors: [report('randomKey', 3, 50, 'randomUUID()', 3)],
    },
    {
      name: 'a "use step" body inside a workflow is real code: Math.random is reported',
      code: `export async function refundWorkflow(orderId: string) {\n  'use workflow';\n  await refundStep(orderId);\n}\nasync function refundStep(orderId: string) {\n  'use step';\n  await refund({ orderId, idempotencyKey: \`\${orderId}-\${Math.random()}\` });\n}`,
      errors: [report('randomKey', 7, 43, 'Math.random()', 7)],
    },
    {
      name: 'a Temporal activity key from Context.current().info.attempt is per attempt',
      code: `import { Context } from '@temporalio/activity';\nexport async function charge(orderId: string) {\n  const { attempt } = Context.current().info;\n  await payments.charge({ orderId, idempotencyKey: \`\${orderId}-\${Context.current().info.attempt}\` });\n}`,
      errors: [report('perAttemptKey', 4, 52, 'Context.current().info.attempt', 4)],
    },
  ],
});

// ---------------------------------------------------------------------------------------------
// Trial 3 (app/src/inngest.ts, inngest2.ts, jobs.ts): the events an engine dedupes on are followed to
// their object literals through `const` bindings, arrays of them and the callbacks of `.map`,
// `.flatMap` and `Array.from`; BullMQ's `deduplication.id` (BullMQ 5+) is a key position.
ruleTester.run('no-random-key: engine ids through consts and mapped events', rule, {
  valid: [
    { name: 'events mapped from the orders, ids derived from each', code: `import { Inngest } from 'inngest';\nimport { randomUUID } from 'node:crypto';\nconst inngest = new Inngest({ id: 'app' });\nawait inngest.send(orderIds.map((orderId) => ({ id: \`refund-\${orderId}\`, name: 'shop/refund', data: { orderId } })));` },
    { name: 'a mapped object without a name is not an event', code: `import { Inngest } from 'inngest';\nimport { randomUUID } from 'node:crypto';\nconst inngest = new Inngest({ id: 'app' });\nawait inngest.send(rows.map((row) => ({ id: randomUUID(), row })));` },
    { name: 'a filter callback does not make the events', code: `import { Inngest } from 'inngest';\nimport { randomUUID } from 'node:crypto';\nconst inngest = new Inngest({ id: 'app' });\nawait inngest.send(events.filter((event) => event.id !== randomUUID()));` },
    { name: 'a const event with a derived id', code: `import { Inngest } from 'inngest';\nimport { randomUUID } from 'node:crypto';\nconst inngest = new Inngest({ id: 'app' });\nconst evt = { id: \`refund-\${orderId}\`, name: 'shop/refund', data: { orderId } };\nawait inngest.send(evt);` },
    { name: 'a const with a random id that is not what is sent', code: `import { Inngest } from 'inngest';\nimport { randomUUID } from 'node:crypto';\nconst inngest = new Inngest({ id: 'app' });\nconst draft = { id: randomUUID(), name: 'shop/refund', data: { orderId } };\nlog(draft);\nawait inngest.send({ id: \`refund-\${orderId}\`, name: 'shop/refund', data: draft.data });` },
    { name: 'a const event of a file that imports no engine', code: `import { randomUUID } from 'node:crypto';\nconst evt = { id: randomUUID(), name: 'shop/refund', data: { orderId } };\nawait bus.send(evt);` },
    { name: 'BullMQ deduplication id from the order', code: `import { Queue } from 'bullmq';\nimport { randomUUID } from 'node:crypto';\nconst queue = new Queue('emails');\nawait queue.add('receipt', { orderId }, { deduplication: { id: \`receipt-\${orderId}\` } });` },
    { name: 'a deduplication object in the job data is data, not an option', code: `import { Queue } from 'bullmq';\nimport { randomUUID } from 'node:crypto';\nconst queue = new Queue('emails');\nawait queue.add('receipt', { orderId, deduplication: { id: randomUUID() } });` },
  ],
  invalid: [
    {
      name: 'events mapped with a clock id (trial I7)',
      code: `import { Inngest } from 'inngest';\nimport { randomUUID } from 'node:crypto';\nconst inngest = new Inngest({ id: 'app' });\nawait inngest.send(orderIds.map((orderId) => ({ id: \`r-\${orderId}-\${Date.now()}\`, name: 'shop/refund', data: { orderId } })));`,
      errors: [report('clockKey', 4, 53, 'Date.now()', 4)],
    },
    {
      name: 'events made by a flatMap callback with a block body',
      code: `import { Inngest } from 'inngest';\nimport { randomUUID } from 'node:crypto';\nconst inngest = new Inngest({ id: 'app' });\nawait inngest.send(orders.flatMap((order) => {\n  return [{ id: randomUUID(), name: 'shop/refund', data: { order } }];\n}));`,
      errors: [report('randomKey', 5, 17, 'randomUUID()', 5)],
    },
    {
      name: 'events made by Array.from',
      code: `import { Inngest } from 'inngest';\nimport { randomUUID } from 'node:crypto';\nconst inngest = new Inngest({ id: 'app' });\nawait inngest.send(Array.from(orders, (order) => ({ id: randomUUID(), name: 'shop/refund', data: { order } })));`,
      errors: [report('randomKey', 4, 57, 'randomUUID()', 4)],
    },
    {
      name: 'a const event with a random id (trial I9)',
      code: `import { Inngest } from 'inngest';\nimport { randomUUID } from 'node:crypto';\nconst inngest = new Inngest({ id: 'app' });\nconst evt = { id: randomUUID(), name: 'shop/refund.requested', data: { orderId } };\nawait inngest.send(evt);`,
      errors: [report('randomKey', 4, 19, 'randomUUID()', 4)],
    },
    {
      name: 'an array of const events',
      code: `import { Inngest } from 'inngest';\nimport { randomUUID } from 'node:crypto';\nconst inngest = new Inngest({ id: 'app' });\nconst first = { id: randomUUID(), name: 'a/b', data: {} };\nconst second = { id: \`b-\${Date.now()}\`, name: 'a/b', data: {} };\nawait inngest.send([first, second]);`,
      errors: [report('randomKey', 4, 21, 'randomUUID()', 4), report('clockKey', 5, 22, 'Date.now()', 5)],
    },
    {
      name: 'a const event given to step.sendEvent',
      code: `import { Inngest } from 'inngest';\nimport { randomUUID } from 'node:crypto';\nconst inngest = new Inngest({ id: 'app' });\nexport const fn = inngest.createFunction({ id: 'f' }, { event: 'a/b' }, async ({ step }) => {\n  const evt = { id: randomUUID(), name: 'a/c', data: {} };\n  await step.sendEvent('fan-out', evt);\n});`,
      errors: [report('randomKey', 5, 21, 'randomUUID()', 5)],
    },
    {
      name: 'a random event id in step.sendEvent: a failed send step is retried with a new id (trial N6)',
      code: `import { Inngest } from 'inngest';\nimport { randomUUID } from 'node:crypto';\nconst inngest = new Inngest({ id: 'app' });\nexport const fn = inngest.createFunction({ id: 'f' }, { event: 'a/b' }, async ({ step }) => {\n  await step.sendEvent('fan-out', { id: randomUUID(), name: 'shop/next', data: {} });\n});`,
      errors: [report('randomKey', 5, 41, 'randomUUID()', 5)],
    },
    {
      name: 'BullMQ options held in a const',
      code: `import { Queue } from 'bullmq';\nimport { randomUUID } from 'node:crypto';\nconst queue = new Queue('emails');\nconst options = { jobId: randomUUID() };\nawait queue.add('send', { to }, options);`,
      errors: [report('randomKey', 4, 26, 'randomUUID()', 4)],
    },
    {
      name: 'BullMQ deduplication id from the clock (trial J5)',
      code: `import { Queue } from 'bullmq';\nimport { randomUUID } from 'node:crypto';\nconst queue = new Queue('emails');\nawait queue.add('receipt', { orderId }, { deduplication: { id: \`\${orderId}-\${Date.now()}\` } });`,
      errors: [report('clockKey', 4, 64, 'Date.now()', 4)],
    },
  ],
});

// ---------------------------------------------------------------------------------------------
// Trial (app/src/probe/minted.ts): a key minted once before an in-process retry, but inside a tool's
// handler, is new on every tool call: the model's repeat and a resumed run call the handler again.
// Reported for every framework's handler; Stripe's own pattern in a plain function stays exempt.
const MINT_AND_RETRY = `const idempotencyKey = randomUUID();\n    return withRetries(() => stripe.paymentIntents.create({ customer, amount, currency: 'usd' }, { idempotencyKey }));`;
/** A tool of each framework whose handler mints the key then retries (after the prelude, the key's use is on line 11, column 100; line 12 in the MCP registration). */
const mintingTools: { framework: keyof typeof FRAMEWORK_BY_ID; code: string }[] = [
  { framework: 'ai-sdk', code: `import { tool } from 'ai';\nimport { z } from 'zod';\nexport const charge = tool({\n  description: 'Charge the customer',\n  inputSchema: z.object({ customer: z.string(), amount: z.number() }),\n  execute: async ({ customer, amount }) => {\n    ${MINT_AND_RETRY}\n  },\n});` },
  { framework: 'mcp', code: `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nimport { z } from 'zod';\ndeclare const server: McpServer;\nserver.registerTool('charge', {\n  inputSchema: { customer: z.string(), amount: z.number() },\n  },\n  async ({ customer, amount }) => {\n    ${MINT_AND_RETRY}\n  });` },
  { framework: 'openai-agents', code: `import { tool } from '@openai/agents';\nimport { z } from 'zod';\nexport const charge = tool({\n  name: 'charge', description: 'Charge the customer',\n  parameters: z.object({ customer: z.string(), amount: z.number() }),\n  execute: async ({ customer, amount }) => {\n    ${MINT_AND_RETRY}\n  },\n});` },
  { framework: 'mastra', code: `import { createTool } from '@mastra/core/tools';\nimport { z } from 'zod';\nexport const charge = createTool({\n  id: 'charge', description: 'Charge the customer',\n  inputSchema: z.object({ customer: z.string(), amount: z.number() }),\n  execute: async ({ customer, amount }) => {\n    ${MINT_AND_RETRY}\n  },\n});` },
  { framework: 'langchain', code: `import { DynamicStructuredTool } from '@langchain/core/tools';\nimport { z } from 'zod';\nexport const charge = new DynamicStructuredTool({\n  name: 'charge', description: 'Charge the customer',\n  schema: z.object({ customer: z.string(), amount: z.number() }),\n  func: async ({ customer, amount }) => {\n    ${MINT_AND_RETRY}\n  },\n});` },
];
const PRELUDE = `import { randomUUID } from 'node:crypto';\ndeclare const stripe: any;\ndeclare function withRetries<T>(fn: () => Promise<T>): Promise<T>;\n`;

ruleTester.run('no-random-key: a key minted once inside a tool handler', rule, {
  valid: [
    {
      name: 'Stripe’s own pattern outside a tool: a plain function mints once, then retries',
      code: `${PRELUDE}export async function chargeOnce(customer: string, amount: number) {\n  ${MINT_AND_RETRY}\n}`,
    },
    {
      name: 'a tool’s handler calls a plain function that mints once and retries (the function is judged, not the tool)',
      code: `${PRELUDE}import { tool } from 'ai';\nasync function chargeOnce(customer: string, amount: number) {\n  ${MINT_AND_RETRY}\n}\nexport const charge = tool({ description: 'Charge', inputSchema: {} as any, execute: async ({ customer, amount }) => chargeOnce(customer, amount) });`,
    },
  ],
  invalid: mintingTools.map(({ framework, code }) => ({
    name: `${framework}: minted in the handler, then retried (trial repro shape)`,
    code: `${PRELUDE}${code}`,
    errors: framework === 'mcp' ? [report('mintedPerToolCallKey', 12, 100, 'randomUUID()', 11, adviceIn(framework))] : [report('mintedPerToolCallKey', 11, 100, 'randomUUID()', 10, adviceIn(framework))],
  })),
});

// ---------------------------------------------------------------------------------------------
// New-user trial (project-a, src/ai-tools.ts): an AI SDK tool's refund sent `randomUUID()` as its
// Stripe Idempotency-Key. The suggestion was `${orderId}:issueRefund` (the one id and the tool's
// variable name), which the rule then accepted: one key for every refund of the order.
// ---------------------------------------------------------------------------------------------
/** The trial's tool with `input` destructured, `key` sent and `imports` (a randomUUID import by default). */
const TRIAL_REFUND = (input: string, key: string, imports?: string) => trialRefundTool(key, { input, imports });

ruleTester.run('no-random-key: suggestions in a recognised tool (new-user trial)', rule, {
  valid: [
    {
      name: 'the key the suggestion writes when a run id is in scope',
      code: TRIAL_REFUND('runId, orderId, amountCents', '`${runId}:${orderId}:issueRefund`', ''),
    },
  ],
  invalid: [
    {
      name: 'one durable id and the AI SDK tool’s variable name: no suggestion (the message says where the run id comes from)',
      code: TRIAL_REFUND('orderId, amountCents', 'randomUUID()'),
      errors: [{ ...report('randomKey', 11, 37, 'randomUUID()', 11, adviceIn('ai-sdk')), suggestions: [] }],
    },
    {
      name: 'a run id and an order id: the key ends with the tool’s variable name; the import left unused goes',
      code: TRIAL_REFUND('runId, orderId, amountCents', 'randomUUID()'),
      errors: [
        {
          ...report('randomKey', 11, 37, 'randomUUID()', 11, adviceIn('ai-sdk')),
          suggestions: [
            {
              messageId: 'suggestDurableParameters',
              data: { parameters: '`runId`, `orderId`', action: ', ending with the action `issueRefund`' },
              output: TRIAL_REFUND('runId, orderId, amountCents', '`${runId}:${orderId}:issueRefund`', ''),
            },
          ],
        },
      ],
    },
    {
      name: 'the name beside others in its import: only that name goes',
      code: TRIAL_REFUND('runId, orderId, amountCents', 'randomUUID()', `import { createHash, randomUUID } from 'node:crypto';\nvoid createHash;\n`),
      errors: [
        {
          ...report('randomKey', 12, 37, 'randomUUID()', 12, adviceIn('ai-sdk')),
          suggestions: [
            {
              messageId: 'suggestDurableParameters',
              data: { parameters: '`runId`, `orderId`', action: ', ending with the action `issueRefund`' },
              output: TRIAL_REFUND('runId, orderId, amountCents', '`${runId}:${orderId}:issueRefund`', `import { createHash } from 'node:crypto';\nvoid createHash;\n`),
            },
          ],
        },
      ],
    },
    {
      name: 'a default import beside the only named one: the braces go with it',
      code: TRIAL_REFUND('runId, orderId, amountCents', 'randomUUID()', `import crypto, { randomUUID } from 'node:crypto';\nvoid crypto;\n`),
      errors: [
        {
          ...report('randomKey', 12, 37, 'randomUUID()', 12, adviceIn('ai-sdk')),
          suggestions: [
            {
              messageId: 'suggestDurableParameters',
              data: { parameters: '`runId`, `orderId`', action: ', ending with the action `issueRefund`' },
              output: TRIAL_REFUND('runId, orderId, amountCents', '`${runId}:${orderId}:issueRefund`', `import crypto from 'node:crypto';\nvoid crypto;\n`),
            },
          ],
        },
      ],
    },
    {
      name: 'the name still read elsewhere: its import stays',
      code: TRIAL_REFUND('runId, orderId, amountCents', 'randomUUID()', `import { randomUUID } from 'node:crypto';\nexport const traceId = () => randomUUID();\n`),
      errors: [
        {
          ...report('randomKey', 12, 37, 'randomUUID()', 12, adviceIn('ai-sdk')),
          suggestions: [
            {
              messageId: 'suggestDurableParameters',
              data: { parameters: '`runId`, `orderId`', action: ', ending with the action `issueRefund`' },
              output: TRIAL_REFUND('runId, orderId, amountCents', '`${runId}:${orderId}:issueRefund`', `import { randomUUID } from 'node:crypto';\nexport const traceId = () => randomUUID();\n`),
            },
          ],
        },
      ],
    },
    {
      name: 'the only name imported from a package: its import stays (the package may do something when imported)',
      code: TRIAL_REFUND('runId, orderId, amountCents', 'nanoid()', `import { nanoid } from 'nanoid';\n`),
      errors: [
        {
          ...report('randomKey', 11, 37, 'nanoid()', 11, adviceIn('ai-sdk')),
          suggestions: [
            {
              messageId: 'suggestDurableParameters',
              data: { parameters: '`runId`, `orderId`', action: ', ending with the action `issueRefund`' },
              output: TRIAL_REFUND('runId, orderId, amountCents', '`${runId}:${orderId}:issueRefund`', `import { nanoid } from 'nanoid';\n`),
            },
          ],
        },
      ],
    },
  ],
});
