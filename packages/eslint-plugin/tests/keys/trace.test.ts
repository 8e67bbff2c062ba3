// Key tracing, tested directly through the programmatic entry point: one row per kind of source the
// tracer knows (and per way a value is durable), each a key position whose value is followed back
// within the file. The rule tests judge the same values; these rows pin the analysis they share.
import { describe, expect, it } from 'vitest';

import { findKeys, findSources, type KeyAnalysisOptions, traceKey } from '../../src/analysis/index.js';
import { analyse } from '../support/analyse.js';

interface Row {
  readonly source: string;
  /** A file whose one key position is `idempotencyKey` (or the spec's `key`). */
  readonly code: string;
  /** The source found (kind, description, line), or how the value is durable. */
  readonly expected: { readonly kind: string; readonly description: string; readonly line: number } | 'durable' | 'mintedOnce' | 'persisted';
  readonly options?: KeyAnalysisOptions;
}

const ROWS: readonly Row[] = [
  // --- minted once before an in-process retry (keys/retryScopes.ts) ---
  {
    source: 'a UUID minted before a withRetry callback',
    code: `import { randomUUID } from 'node:crypto';\nconst idempotencyKey = randomUUID();\nawait withRetry(() => send({ idempotencyKey }));`,
    expected: 'mintedOnce',
  },
  {
    source: 'a UUID minted before async-retry',
    code: `import retry from 'async-retry';\nimport { randomUUID } from 'node:crypto';\nconst k = randomUUID();\nawait retry(async () => send({ idempotencyKey: k }), { retries: 3 });`,
    expected: 'mintedOnce',
  },
  {
    source: 'a UUID minted before exponential-backoff’s backOff',
    code: `import { backOff } from 'exponential-backoff';\nimport { randomUUID } from 'node:crypto';\nconst k = randomUUID();\nawait backOff(() => send({ idempotencyKey: k }));`,
    expected: 'mintedOnce',
  },
  {
    source: 'a UUID minted in a callback of a function that is no retry helper',
    code: `import { randomUUID } from 'node:crypto';\nconst k = randomUUID();\nawait withTimeout(() => send({ idempotencyKey: k }));`,
    expected: { kind: 'random', description: 'randomUUID()', line: 2 },
  },
  {
    source: 'a UUID minted inside a retry callback',
    code: `import { randomUUID } from 'node:crypto';\nawait withRetry(() => send({ idempotencyKey: randomUUID() }));`,
    expected: { kind: 'random', description: 'randomUUID()', line: 2 },
  },
  {
    source: 'a per-attempt id outside the retry is still per attempt',
    code: `export const execute = async (_input: unknown, { toolCallId }: { toolCallId: string }) => withRetry(() => send({ idempotencyKey: toolCallId }));`,
    expected: { kind: 'perAttempt', description: 'toolCallId', line: 1 },
  },
  // --- the key family and envelope ids (keys/keyNames.ts, keys/keyPositions.ts) ---
  {
    source: 'a vendor idempotency header',
    code: `import { randomUUID } from 'node:crypto';\nfetch(url, { headers: { 'X-Acme-Idempotency-Key': randomUUID() } });`,
    expected: { kind: 'random', description: 'randomUUID()', line: 2 },
  },
  // --- random ---
  {
    source: 'randomUUID() from node:crypto',
    code: `import { randomUUID } from 'node:crypto';\nstripe.refunds.create(params, { idempotencyKey: randomUUID() });`,
    expected: { kind: 'random', description: 'randomUUID()', line: 2 },
  },
  {
    source: 'uuid v4 through a variable and a template',
    code: `import { v4 as uuidv4 } from 'uuid';\nconst id = uuidv4();\nconst idempotencyKey = \`refund:\${id}\`;\nsend({ idempotencyKey });`,
    expected: { kind: 'random', description: 'uuidv4()', line: 2 },
  },
  {
    source: 'Math.random() through a helper of the file',
    code: `function newKey(prefix: string) { return prefix + Math.random().toString(36); }\nsend({ idempotencyKey: newKey('r') });`,
    expected: { kind: 'random', description: 'Math.random()', line: 1 },
  },
  {
    source: 'a generator made by nanoid customAlphabet',
    code: `import { customAlphabet } from 'nanoid';\nconst newId = customAlphabet('abc', 10);\nsend({ idempotencyKey: newId() });`,
    expected: { kind: 'random', description: 'newId()', line: 3 },
  },
  // --- clock ---
  {
    source: 'Date.now()',
    code: `send({ headers: { 'Idempotency-Key': \`order-\${Date.now()}\` } });`,
    expected: { kind: 'clock', description: 'Date.now()', line: 1 },
  },
  {
    source: 'new Date() through toISOString()',
    code: `const at = new Date().toISOString();\nheaders.set('Idempotency-Key', at);`,
    expected: { kind: 'clock', description: 'new Date()', line: 1 },
  },
  // --- per attempt ---
  {
    source: "the AI SDK's toolCallId",
    code: `export const execute = async ({ orderId }: { orderId: string }, { toolCallId }: { toolCallId: string }) => api.refund(orderId, { idempotencyKey: toolCallId });`,
    expected: { kind: 'perAttempt', description: 'toolCallId', line: 1 },
  },
  {
    source: "Trigger.dev's ctx.attempt.number",
    code: `export async function run(payload: { id: string }, { ctx }: { ctx: any }) {\n  await charge({ idempotencyKey: \`\${payload.id}:\${ctx.attempt.number}\` });\n}`,
    expected: { kind: 'perAttempt', description: 'ctx.attempt.number', line: 2 },
  },
  {
    source: "a retry loop's counter",
    code: `for (let attempt = 0; attempt < 3; attempt++) {\n  const res = await send({ idempotencyKey: \`job-\${attempt}\` });\n  if (res.ok) break;\n}`,
    expected: { kind: 'perAttempt', description: 'attempt', line: 1 },
  },
  // --- counter ---
  {
    source: 'an in-memory counter in a closure',
    code: `let sequence = 0;\nexport function submit(order: { id: string }) {\n  sequence++;\n  return send({ idempotencyKey: \`\${order.id}:\${sequence}\` });\n}`,
    expected: { kind: 'counter', description: 'sequence', line: 1 },
  },
  {
    source: 'a class field bumped with ++',
    code: `class Client {\n  private counter = 0;\n  next() { this.counter++; return send({ idempotencyKey: \`k\${this.counter}\` }); }\n}`,
    expected: { kind: 'counter', description: 'this.counter', line: 3 },
  },
  // --- durable ---
  {
    source: 'durable fields of the run and the input',
    code: `export const refund = async (run: { id: string }, input: { orderId: string }) => send({ idempotencyKey: \`\${run.id}:\${input.orderId}:refund\` });`,
    expected: 'durable',
  },
  {
    source: 'a random id stored before use (get-or-create)',
    code: `import { randomUUID } from 'node:crypto';\nconst id = sessionStorage.getItem('k') ?? randomUUID();\nsessionStorage.setItem('k', id);\nsend({ idempotencyKey: id });`,
    expected: 'durable',
  },
  {
    source: 'a random id stored in the job it keys',
    code: `import { nanoid } from 'nanoid';\nqueue.add('deliver', { idempotencyKey: nanoid() });`,
    expected: 'persisted',
  },
  {
    source: "Temporal's workflow uuid4 (replay-stable)",
    code: `import { uuid4 } from '@temporalio/workflow';\nsend({ idempotencyKey: uuid4() });`,
    expected: 'durable',
  },
  {
    source: 'a source listed in allowedSources',
    code: `import { stableId } from 'my-workflow-sdk';\nsend({ idempotencyKey: stableId() });`,
    options: { allowedSources: [{ from: 'my-workflow-sdk', name: 'stableId' }] },
    expected: 'durable',
  },
];

describe('findKeys and traceKey: one row per source kind', () => {
  it.each(ROWS.map((row) => [row.source, row] as const))('%s', (_source, row) => {
    const [use, ...others] = analyse(row.code, (sourceCode) => findKeys(sourceCode, row.options));
    expect(others).toEqual([]);
    if (row.expected === 'durable' || row.expected === 'persisted' || row.expected === 'mintedOnce') {
      expect(use?.source).toBeUndefined();
      expect(use?.persisted).toBe(row.expected === 'persisted');
      expect(use?.mintedOnceBeforeRetry).toBe(row.expected === 'mintedOnce');
      return;
    }
    expect(use?.source && { kind: use.source.kind, description: use.source.description, line: use.source.loc.start.line }).toEqual(row.expected);
  });

  it('traceKey follows any expression as findKeys follows a key position', () => {
    const traced = analyse(`import { randomUUID } from 'node:crypto';\nconst id = randomUUID();\nexport const label = \`order-\${id}\`;`, (sourceCode) => {
      const declarator = sourceCode.ast.body.at(-1);
      const init = declarator?.type === 'ExportNamedDeclaration' && declarator.declaration?.type === 'VariableDeclaration' ? declarator.declaration.declarations[0]?.init : undefined;
      return init ? traceKey(sourceCode, init) : undefined;
    });
    expect(traced).toMatchObject({ kind: 'random', description: 'randomUUID()', loc: { start: { line: 2 } } });
  });

  it('finds key positions of every kind: a property, a header call, a class field, the spec’s key template', () => {
    const kinds = analyse(
      `import { key } from '@retrysafe/spec';
send({ idempotencyKey: a });
headers.set('Idempotency-Key', b);
class Job { dedupeKey = c; }
export const k = key\`\${run.id}:\${input.orderId}\`;`,
      (sourceCode) => findKeys(sourceCode).map((use) => `${use.kind} ${use.keyName}`),
    );
    expect(kinds).toEqual(['property idempotencyKey', 'headerCall Idempotency-Key', 'classField dedupeKey', 'specKey key', 'specKey key']);
  });

  it('finds the key family, envelope ids and key helpers, and not trace or request ids', () => {
    const kinds = analyse(
      `headers.set('X-GitHub-Delivery-Id', a);
send({ 'X-Acme-Idempotency-Key': b, 'X-Request-Id': c, correlationId: d, traceId: e });
bus.publish({ eventId: f, type: 'order.paid', data });
chat.save({ id: message.id ?? g, role: 'user', content });
chat.save({ id: h, role: 'user', content });
function generateIdempotencyKey() { return i; }
client.charge(generateIdempotencyKey());`,
      (sourceCode) => findKeys(sourceCode).map((use) => `${use.kind} ${use.keyName}`),
    );
    expect(kinds).toEqual(['headerCall X-GitHub-Delivery-Id', 'property X-Acme-Idempotency-Key', 'envelopeId eventId', 'envelopeId id', 'keyHelper generateIdempotencyKey']);
  });
});

describe('findKeys: the durable engines’ ids, one row per engine (keys/durableEngines.ts)', () => {
  const ROWS: readonly { engine: string; code: string; expected: string[] }[] = [
    { engine: 'Inngest', code: `import { Inngest } from 'inngest';\nstep.run(a, fn);\nstep.sendEvent(b, { name: 'x', data, id: c });\ninngest.send([{ name: 'x', data, id: d }]);\ninngest.send({ id: e });`, expected: ['step.run id', 'step.sendEvent id', 'event id', 'event id'] },
    { engine: 'Temporal', code: `import { Client } from '@temporalio/client';\nclient.workflow.start(wf, { workflowId: a });\nclient.workflow.signalWithStart(wf, { workflowId: b });\nclient.schedule.create({ workflowId: c });`, expected: ['workflowId', 'workflowId'] },
    { engine: 'Trigger.dev', code: `import { idempotencyKeys } from '@trigger.dev/sdk';\nidempotencyKeys.create(a, b);`, expected: ['idempotencyKeys.create id', 'idempotencyKeys.create id'] },
    { engine: 'Restate', code: `import * as restate from '@restatedev/restate-sdk';\nctx.run(a, fn);\nother.run(b, fn);`, expected: ['ctx.run id'] },
    { engine: 'DBOS', code: `import { DBOS } from '@dbos-inc/dbos-sdk';\nDBOS.startWorkflow(fn, { workflowID: a });\nDBOS.runStep(fn, { name: b });`, expected: ['workflowID', 'name'] },
    { engine: 'BullMQ', code: `import { Queue } from 'bullmq';\nqueue.add('n', data, { jobId: a });\nqueue.add('n', { jobId: b });`, expected: ['jobId'] },
    { engine: 'none imported', code: `step.run(a, fn);\nclient.workflow.start(wf, { workflowId: b });\nqueue.add('n', data, { jobId: c });`, expected: [] },
  ];
  it.each(ROWS.map((row) => [row.engine, row] as const))('%s', (_engine, row) => {
    const names = analyse(row.code, (sourceCode) => findKeys(sourceCode).filter((use) => use.kind === 'engineKey').map((use) => use.keyName));
    expect(names).toEqual(row.expected);
  });
});

describe('findSources', () => {
  it('lists every random, clock and per-attempt value of a file, wherever it is used', () => {
    const sources = analyse(
      `import { randomUUID } from 'node:crypto';\nconst a = randomUUID();\nlog(Date.now(), details.toolCall.callId);`,
      (sourceCode) => findSources(sourceCode).map((source) => `${source.kind} ${source.description}`),
    );
    expect(sources).toEqual(['random randomUUID()', 'clock Date.now()', 'perAttempt details.toolCall.callId']);
  });
});
