/**
 * OpenTelemetry for runner calls, through the real SDK (sdk-trace-base's InMemorySpanExporter,
 * sdk-metrics' InMemoryMetricExporter): a span per call with the tool, the class, the key's hash
 * (never the key), the attempt, the replay flag and the outcome; the four `retrysafe.*`
 * instruments; providers handed in or registered globally after the runner exists; and a package
 * that runs without `@opentelemetry/api` installed.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { context, metrics, trace } from '@opentelemetry/api';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  type MetricData,
} from '@opentelemetry/sdk-metrics';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConcurrentCallError, KeyReuseError } from '../src/errors.js';
import { key } from '../src/key.js';
import { createRunner, type RunnerOptions } from '../src/runner.js';
import { createNonDurableMemoryStore } from '../src/stores/memory.js';
import {
  ATTR_RETRYSAFE_IDEMPOTENCY_KEY_HASH,
  METRIC_RETRYSAFE_CALL_DURATION,
  METRIC_RETRYSAFE_CALLS,
  METRIC_RETRYSAFE_CONFLICTS,
  METRIC_RETRYSAFE_REPLAYS,
} from '../src/telemetry/names.js';
import { keyHash } from '../src/telemetry/otel.js';
import { defineTool } from '../src/tool.js';
import { memoryProvider } from './helpers/provider.js';
import { freshRun, refundTool } from './helpers/tools.js';

const here = dirname(fileURLToPath(import.meta.url));

function sdk() {
  const spans = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
  const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 3_600_000 });
  const meterProvider = new MeterProvider({ readers: [reader] });
  return {
    tracerProvider,
    meterProvider,
    spans: () => spans.getFinishedSpans(),
    /** The metric named `name` from a fresh collection. */
    async metric(name: string): Promise<MetricData | undefined> {
      metricExporter.reset();
      await reader.forceFlush();
      const found = metricExporter.getMetrics().flatMap((m) => m.scopeMetrics.flatMap((s) => s.metrics));
      return found.filter((m) => m.descriptor.name === name).at(-1);
    },
  };
}

/** Sum of a counter's points, optionally those with one outcome. */
const total = (metric: MetricData | undefined, outcome?: string) =>
  (metric?.dataPoints ?? [])
    .filter((p) => outcome === undefined || p.attributes['retrysafe.outcome'] === outcome)
    .reduce((n, p) => n + (p.value as number), 0);

const slowTool = (effects: { count: number }, release: Promise<void>) =>
  defineTool({
    name: 'send_invoice',
    sideEffects: 'message_out',
    idempotent: 'with_key',
    retry: 'safe_with_same_key',
    input: z.object({ invoiceId: z.string() }),
    key: ({ run, input }) => key`${run.id}:${input.invoiceId}:send`,
    execute: async ({ invoiceId }) => {
      effects.count += 1;
      await release;
      return { sent: invoiceId };
    },
  });

describe('telemetry', () => {
  afterEach(() => {
    trace.disable();
    metrics.disable();
    context.disable();
  });

  it('records one span per call, called twice: executed then replayed, one effect, the key only as its hash', async () => {
    const otel = sdk();
    const provider = memoryProvider({ dedupeByKey: false });
    const runner = createRunner({ store: createNonDurableMemoryStore(), namespace: 'tenant-a', telemetry: otel });
    const run = freshRun();
    const first = await runner.call(refundTool(provider), { orderId: 'o_1', amountCents: 500 }, { run });
    const second = await runner.call(refundTool(provider), { orderId: 'o_1', amountCents: 500 }, { run });
    expect(provider.effects()).toBe(1);
    expect(second.replayed).toBe(true);

    const spans = otel.spans();
    expect(spans.map((s) => s.name)).toEqual(['execute_tool issue_refund', 'execute_tool issue_refund']);
    const hash = keyHash('tenant-a', 'issue_refund', first.key as string);
    expect(hash).toMatch(/^[0-9a-f]{32}$/);
    expect(spans[0]?.attributes).toEqual({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'issue_refund',
      'retrysafe.idempotency.class': 'with_key',
      'retrysafe.idempotency.key_hash': hash,
      'retrysafe.attempt': 1,
      'retrysafe.replayed': false,
      'retrysafe.outcome': 'executed',
    });
    expect(spans[1]?.attributes).toMatchObject({ 'retrysafe.replayed': true, 'retrysafe.outcome': 'replayed', 'retrysafe.attempt': 1, 'retrysafe.idempotency.key_hash': hash });
    for (const span of spans) {
      expect(JSON.stringify(span.attributes)).not.toContain(first.key as string);
      expect(JSON.stringify(span.attributes)).not.toContain(run.id);
    }

    expect(total(await otel.metric(METRIC_RETRYSAFE_CALLS))).toBe(2);
    expect(total(await otel.metric(METRIC_RETRYSAFE_CALLS), 'executed')).toBe(1);
    expect(total(await otel.metric(METRIC_RETRYSAFE_REPLAYS))).toBe(1);
    expect(total(await otel.metric(METRIC_RETRYSAFE_CONFLICTS))).toBe(0);
    const duration = await otel.metric(METRIC_RETRYSAFE_CALL_DURATION);
    expect(duration?.descriptor.unit).toBe('ms');
    expect(duration?.dataPoints.reduce((n, p) => n + (p.value as { count: number }).count, 0)).toBe(2);
    // Metric attributes stay low-cardinality: no key hash.
    expect(duration?.dataPoints.every((p) => !(ATTR_RETRYSAFE_IDEMPOTENCY_KEY_HASH in p.attributes))).toBe(true);
  });

  it('a hash differs by tenant, tool and key', () => {
    const hashes = new Set([keyHash('a', 't', 'k'), keyHash('b', 't', 'k'), keyHash('a', 'u', 'k'), keyHash('a', 't', 'l'), keyHash('a:t', '', 'k')]);
    expect(hashes.size).toBe(5);
  });

  it('counts a concurrent call and a key reuse as conflicts, with error.type and an error status', async () => {
    const otel = sdk();
    const effects = { count: 0 };
    let open!: () => void;
    const tool = slowTool(effects, new Promise<void>((resolve) => (open = resolve)));
    const runner = createRunner({ store: createNonDurableMemoryStore(), telemetry: otel });
    const run = freshRun();
    const inFlight = runner.call(tool, { invoiceId: 'inv_1' }, { run });
    await expect(runner.call(tool, { invoiceId: 'inv_1' }, { run })).rejects.toBeInstanceOf(ConcurrentCallError);
    open();
    await inFlight;
    // Same key, another input: a tool whose key ignores part of the input.
    const loose = defineTool({
      name: 'tag_order',
      sideEffects: 'internal_write',
      idempotent: 'with_key',
      retry: 'safe_with_same_key',
      input: z.object({ orderId: z.string(), tag: z.string() }),
      key: ({ run: r, input }) => key`${r.id}:${input.orderId}:tag`,
      execute: async () => ({ ok: true }),
    });
    await runner.call(loose, { orderId: 'o_9', tag: 'a' }, { run });
    await expect(runner.call(loose, { orderId: 'o_9', tag: 'b' }, { run })).rejects.toBeInstanceOf(KeyReuseError);
    expect(effects.count).toBe(1);

    const byOutcome = (outcome: string): ReadableSpan | undefined => otel.spans().find((s) => s.attributes['retrysafe.outcome'] === outcome);
    expect(byOutcome('concurrent_call')?.attributes).toMatchObject({ 'error.type': 'concurrent_call', 'retrysafe.attempt': 1, 'retrysafe.replayed': false });
    expect(byOutcome('concurrent_call')?.attributes['retrysafe.idempotency.key_hash']).toMatch(/^[0-9a-f]{32}$/);
    expect(byOutcome('concurrent_call')?.status.code).toBe(2); // SpanStatusCode.ERROR
    expect(byOutcome('key_reuse')?.attributes['error.type']).toBe('key_reuse');
    expect(total(await otel.metric(METRIC_RETRYSAFE_CONFLICTS))).toBe(2);
    expect(total(await otel.metric(METRIC_RETRYSAFE_CONFLICTS), 'concurrent_call')).toBe(1);
  });

  it("records a tool's own error as tool_error with its attempt and the exception, and the retry as attempt 2", async () => {
    const otel = sdk();
    const provider = memoryProvider({ dedupeByKey: false });
    provider.failNext(1);
    const runner = createRunner({ store: createNonDurableMemoryStore(), telemetry: otel });
    const run = freshRun();
    const tool = refundTool(provider);
    await expect(runner.call(tool, { orderId: 'o_2', amountCents: 100 }, { run })).rejects.toThrow();
    await runner.call(tool, { orderId: 'o_2', amountCents: 100 }, { run });
    const [failed, retried] = otel.spans();
    expect(failed?.attributes).toMatchObject({ 'retrysafe.outcome': 'tool_error', 'retrysafe.attempt': 1, 'error.type': 'Error' });
    expect(failed?.events.map((e) => e.name)).toEqual(['exception']);
    expect(retried?.attributes).toMatchObject({ 'retrysafe.outcome': 'executed', 'retrysafe.attempt': 2 });
    expect(retried?.attributes['retrysafe.idempotency.key_hash']).toBe(failed?.attributes['retrysafe.idempotency.key_hash']);
  });

  it('uses the global providers registered after the runner was created, and makes the call span the parent of spans in the effect', async () => {
    const otel = sdk();
    const runner = createRunner({ store: createNonDurableMemoryStore() });
    trace.setGlobalTracerProvider(otel.tracerProvider);
    metrics.setGlobalMeterProvider(otel.meterProvider);
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    const inner = defineTool({
      name: 'lookup_order',
      sideEffects: 'none',
      idempotent: true,
      retry: 'safe',
      input: z.object({ orderId: z.string() }),
      // An instrumented HTTP client in the effect: its span starts in the active context.
      execute: async ({ orderId }) => {
        await new Promise((resolve) => setImmediate(resolve));
        trace.getTracer('provider').startSpan('GET /orders').end();
        return { orderId };
      },
    });
    await runner.call(inner, { orderId: 'o_3' }, { run: freshRun(), attempt: 2 });
    const spans = otel.spans();
    const call = spans.find((s) => s.name === 'execute_tool lookup_order');
    expect(call?.attributes).toMatchObject({ 'retrysafe.idempotency.class': 'true', 'retrysafe.attempt': 2, 'retrysafe.outcome': 'executed' });
    expect(call?.attributes['retrysafe.idempotency.key_hash']).toBeUndefined();
    const child = spans.find((s) => s.name === 'GET /orders');
    expect(child?.parentSpanContext?.spanId).toBe(call?.spanContext().spanId);
    expect(total(await otel.metric(METRIC_RETRYSAFE_CALLS))).toBe(1);
  });

  // The runner skips the span while no SDK is registered (no tracer delegate, no meter, no
  // active trace): registering only a tracer provider afterwards must end that, metrics or not.
  it('records spans through a global tracer provider registered after the runner, with no meter provider', async () => {
    const otel = sdk();
    const runner = createRunner({ store: createNonDurableMemoryStore() });
    const tool = refundTool(memoryProvider());
    await runner.call(tool, { orderId: 'o_5', amountCents: 1 }, { run: freshRun() });
    expect(otel.spans()).toEqual([]);
    trace.setGlobalTracerProvider(otel.tracerProvider);
    const run = freshRun();
    await runner.call(tool, { orderId: 'o_6', amountCents: 1 }, { run });
    await runner.call(tool, { orderId: 'o_6', amountCents: 1 }, { run });
    expect(otel.spans().map((s) => s.attributes['retrysafe.outcome'])).toEqual(['executed', 'replayed']);
  });

  it('records nothing with telemetry: false', async () => {
    const otel = sdk();
    trace.setGlobalTracerProvider(otel.tracerProvider);
    const options: RunnerOptions = { store: createNonDurableMemoryStore(), telemetry: false };
    await createRunner(options).call(refundTool(memoryProvider()), { orderId: 'o_4', amountCents: 1 }, { run: freshRun() });
    expect(otel.spans()).toEqual([]);
  });

  it('runs without @opentelemetry/api installed (called twice: one effect, one replay)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'retrysafe-no-otel-'));
    try {
      // Makes `@opentelemetry/api` unresolvable, as in a project that does not install it.
      const block = join(dir, 'block-otel.cjs');
      writeFileSync(
        block,
        `const Module = require('node:module');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (request === '@opentelemetry/api' || request.startsWith('@opentelemetry/api/')) {
    const error = new Error("Cannot find module '" + request + "'"); error.code = 'MODULE_NOT_FOUND'; throw error;
  }
  return resolve.call(this, request, ...rest);
};`,
      );
      const script = join(dir, 'main.ts');
      writeFileSync(
        script,
        `import { createRunner } from ${JSON.stringify(join(here, '../src/runner.js'))};
import { createNonDurableMemoryStore } from ${JSON.stringify(join(here, '../src/stores/memory.js'))};
import { defineTool } from ${JSON.stringify(join(here, '../src/tool.js'))};
import { key } from ${JSON.stringify(join(here, '../src/key.js'))};
import { vouchDurable } from ${JSON.stringify(join(here, '../src/durable.js'))};
let effects = 0;
const tool = defineTool({ name: 'charge', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key',
  input: { '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => ({ value }) } },
  key: ({ run }) => key\`\${run.id}:charge\`, execute: async () => ({ n: (effects += 1) }) });
const runner = createRunner({ store: createNonDurableMemoryStore() });
const run = { id: vouchDurable('run_no_otel') };
const a = await runner.call(tool, {}, { run });
const b = await runner.call(tool, {}, { run });
let otel = 'resolvable';
try { (await import('node:module')).createRequire(import.meta.url)('@opentelemetry/api'); } catch { otel = 'missing'; }
console.log(JSON.stringify({ effects, first: a.replayed, second: b.replayed, otel }));`,
      );
      const child = spawnSync(process.execPath, ['--require', block, '--import', join(here, 'helpers/ts-loader.mjs'), script], { encoding: 'utf8', timeout: 60_000 });
      expect(child.stderr).not.toMatch(/Error/);
      expect(JSON.parse(child.stdout.trim())).toEqual({ effects: 1, first: false, second: true, otel: 'missing' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
