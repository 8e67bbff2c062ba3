/**
 * OpenTelemetry for runner calls: one span per call and four instruments (see `./names.js`).
 *
 * `@opentelemetry/api` is an optional peer dependency, loaded the first time a runner with
 * telemetry on is created, with `require` so the hot path never awaits it; without it installed
 * every call runs exactly as before. The API is only the facade: nothing is recorded until the
 * application registers an SDK (`trace.setGlobalTracerProvider`, `metrics.setGlobalMeterProvider`,
 * or `NodeSDK`) or hands providers to `createRunner({ telemetry })`. With the API's no-op providers a
 * call costs one non-recording span and no hashing (attributes are computed only for a recording
 * span).
 *
 * @module
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type * as OtelApi from '@opentelemetry/api';
import { isRetrysafeError } from '../errors.js';
import type { AnyTool } from '../tool.js';
import {
  ATTR_ERROR_TYPE,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_RETRYSAFE_ATTEMPT,
  ATTR_RETRYSAFE_IDEMPOTENCY_CLASS,
  ATTR_RETRYSAFE_IDEMPOTENCY_KEY_HASH,
  ATTR_RETRYSAFE_OUTCOME,
  ATTR_RETRYSAFE_REPLAYED,
  INSTRUMENTATION_SCOPE,
  METRIC_RETRYSAFE_CALL_DURATION,
  METRIC_RETRYSAFE_CALLS,
  METRIC_RETRYSAFE_CONFLICTS,
  METRIC_RETRYSAFE_REPLAYS,
} from './names.js';

/**
 * Where a runner sends its telemetry (`RunnerOptions.telemetry`). Each provider defaults to the
 * global one that `@opentelemetry/api` holds. Typed structurally, so this package's types do not
 * need `@opentelemetry/api` installed: an SDK's `TracerProvider` and `MeterProvider` fit.
 */
export interface TelemetryOptions {
  /** A `TracerProvider` (for example `new BasicTracerProvider(...)`); default `trace.getTracerProvider()`. */
  readonly tracerProvider?: { getTracer(name: string, version?: string): unknown };
  /** A `MeterProvider` (for example `new MeterProvider(...)`); default `metrics.getMeterProvider()`, read on every call. */
  readonly meterProvider?: { getMeter(name: string, version?: string): unknown };
}

/** What the runner tells the telemetry about a call it ran. */
export interface ObservedCall {
  readonly replayed: boolean;
  readonly attempt: number;
  readonly key?: string | undefined;
}

/** What the runner knows about a failed call: the attempt and key it ended, where known. */
export type FailureFacts = (error: unknown) => { readonly attempt?: number; readonly key?: string } | undefined;

/** A runner's instrumentation; `observe` wraps one call. */
export interface CallTelemetry {
  observe<R extends ObservedCall>(tool: AnyTool, namespace: string, call: () => Promise<R>, failure: FailureFacts): Promise<R>;
}

type Api = typeof OtelApi;
let loaded: Api | null | undefined;
let noopCounter: unknown;

/** `@opentelemetry/api`, or null when it is not installed (loaded once per process). */
function loadApi(): Api | null {
  if (loaded !== undefined) return loaded;
  try {
    loaded = createRequire(import.meta.url)('@opentelemetry/api') as Api;
    // The API's no-op counter class, to tell a meter that records nothing (no SDK registered).
    noopCounter = loaded.createNoopMeter().createCounter('probe').constructor;
  } catch {
    loaded = null;
  }
  return loaded;
}

interface Instruments {
  /** True when the meter is the API's no-op one (no SDK registered): the call records no metric. */
  readonly noop: boolean;
  readonly calls: OtelApi.Counter;
  readonly replays: OtelApi.Counter;
  readonly conflicts: OtelApi.Counter;
  readonly duration: OtelApi.Histogram;
}

/** Bucket bounds for the duration histogram, ms: a replay is ~0.1 ms, an effect up to seconds. */
const DURATION_BUCKETS_MS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000, 30_000];

/**
 * The telemetry of one runner, or undefined when it is off (`telemetry: false`) or
 * `@opentelemetry/api` is not installed.
 */
export function createCallTelemetry(options: TelemetryOptions | false | undefined): CallTelemetry | undefined {
  if (options === false) return undefined;
  const api = loadApi();
  if (api === null) return undefined;
  const tracerProvider = (options?.tracerProvider as OtelApi.TracerProvider | undefined) ?? api.trace.getTracerProvider();
  const tracer = tracerProvider.getTracer(INSTRUMENTATION_SCOPE);
  const unsampled = noSdkTest(api, tracerProvider);
  // The global meter provider is read per call: unlike the tracer, the API hands out no proxy,
  // so a meter taken before the application registers its SDK would stay a no-op for good.
  let meterProvider: OtelApi.MeterProvider | undefined;
  let instruments: Instruments | undefined;
  const instrumentsNow = (): Instruments => {
    const provider = (options?.meterProvider as OtelApi.MeterProvider | undefined) ?? api.metrics.getMeterProvider();
    if (instruments === undefined || provider !== meterProvider) {
      meterProvider = provider;
      instruments = makeInstruments(provider.getMeter(INSTRUMENTATION_SCOPE));
    }
    return instruments;
  };
  const { SpanKind, SpanStatusCode } = api;

  return {
    observe(tool, namespace, call, failure) {
      const meters = instrumentsNow();
      // No SDK registered and no trace to carry: the no-op tracer would hand out an invalid span,
      // so the call runs as without telemetry, without making the span (the same answer as below).
      if (meters.noop && unsampled?.() === true) return call();
      const span = tracer.startSpan(`execute_tool ${tool.name}`, { kind: SpanKind.INTERNAL });
      // Nobody listens (the API's no-op tracer and meter): the call runs as without telemetry.
      if (!api.trace.isSpanContextValid(span.spanContext()) && meters.noop) return call();
      const observed = () => record(span, meters, tool, namespace, call, failure);
      // The span is the active one while the effect runs, so spans of its HTTP or database calls
      // nest under it (a sampled-out span too: it still carries the trace to the provider).
      return api.trace.isSpanContextValid(span.spanContext()) ? api.context.with(api.trace.setSpan(api.context.active(), span), observed) : observed();
    },
  };

  async function record<R extends ObservedCall>(
    span: OtelApi.Span,
    meters: Instruments,
    tool: AnyTool,
    namespace: string,
    call: () => Promise<R>,
    failure: FailureFacts,
  ): Promise<R> {
    const idempotency = String(tool.policy.idempotent);
    const started = performance.now();
    const recording = span.isRecording();
    if (recording) {
      span.setAttribute(ATTR_GEN_AI_OPERATION_NAME, 'execute_tool');
      span.setAttribute(ATTR_GEN_AI_TOOL_NAME, tool.name);
      span.setAttribute(ATTR_RETRYSAFE_IDEMPOTENCY_CLASS, idempotency);
    }
    let outcome = 'tool_error';
    try {
      const result = await call();
      outcome = result.replayed ? 'replayed' : 'executed';
      if (recording) {
        span.setAttribute(ATTR_RETRYSAFE_ATTEMPT, result.attempt);
        span.setAttribute(ATTR_RETRYSAFE_REPLAYED, result.replayed);
        if (result.key !== undefined) span.setAttribute(ATTR_RETRYSAFE_IDEMPOTENCY_KEY_HASH, keyHash(namespace, tool.name, result.key));
      }
      return result;
    } catch (error) {
      outcome = isRetrysafeError(error) ? error.code : 'tool_error';
      if (recording) recordFailure(span, error, failure(error) ?? factsOf(error), (key) => keyHash(namespace, tool.name, key));
      throw error;
    } finally {
      span.setAttribute(ATTR_RETRYSAFE_OUTCOME, outcome);
      span.end();
      if (!meters.noop) {
        const attributes = { [ATTR_GEN_AI_TOOL_NAME]: tool.name, [ATTR_RETRYSAFE_IDEMPOTENCY_CLASS]: idempotency, [ATTR_RETRYSAFE_OUTCOME]: outcome };
        meters.calls.add(1, attributes);
        if (outcome === 'replayed') meters.replays.add(1, attributes);
        if (outcome === 'concurrent_call' || outcome === 'key_reuse') meters.conflicts.add(1, attributes);
        meters.duration.record(performance.now() - started, attributes);
      }
    }
  }

  function recordFailure(span: OtelApi.Span, error: unknown, facts: { attempt?: number; key?: string } | undefined, hash: (key: string) => string) {
    if (facts?.attempt !== undefined) span.setAttribute(ATTR_RETRYSAFE_ATTEMPT, facts.attempt);
    if (facts?.key !== undefined) span.setAttribute(ATTR_RETRYSAFE_IDEMPOTENCY_KEY_HASH, hash(facts.key));
    span.setAttribute(ATTR_RETRYSAFE_REPLAYED, false);
    span.setAttribute(ATTR_ERROR_TYPE, isRetrysafeError(error) ? error.code : errorName(error));
    span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
    if (error instanceof Error) span.recordException(error);
  }
}

/**
 * A test of whether a span started now would be the API's invalid no-op span: the global tracer
 * provider (the API's proxy) has no SDK behind it and the active context carries no span context
 * (the root context; a propagated trace is carried even without an SDK, so it takes the full
 * path). Undefined when the tracer is not the global proxy's (providers passed in): always the
 * full path. The API's no-op provider is what a fresh proxy delegates to.
 */
function noSdkTest(api: Api, provider: OtelApi.TracerProvider): (() => boolean) | undefined {
  const { ProxyTracerProvider } = api;
  if (typeof ProxyTracerProvider !== 'function' || !(provider instanceof ProxyTracerProvider)) return undefined;
  const noopProvider = new ProxyTracerProvider().getDelegate();
  const { context, ROOT_CONTEXT } = api;
  return () => provider.getDelegate() === noopProvider && context.active() === ROOT_CONTEXT;
}

function makeInstruments(meter: OtelApi.Meter): Instruments {
  const calls = meter.createCounter(METRIC_RETRYSAFE_CALLS, { unit: '{call}', description: 'Runner calls, by tool, idempotency class and outcome.' });
  return {
    noop: typeof noopCounter === 'function' && calls instanceof noopCounter,
    calls,
    replays: meter.createCounter(METRIC_RETRYSAFE_REPLAYS, { unit: '{call}', description: 'Calls answered from the dedup record; the effect did not run.' }),
    conflicts: meter.createCounter(METRIC_RETRYSAFE_CONFLICTS, {
      unit: '{call}',
      description: 'Calls refused because the key was held by another call (concurrent_call) or bound to another input (key_reuse).',
    }),
    duration: meter.createHistogram(METRIC_RETRYSAFE_CALL_DURATION, {
      unit: 'ms',
      description: 'Duration of a runner call, effect included.',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS_MS },
    }),
  };
}

/** SHA-256 of the record's identity, hex, first 32 characters (the key itself is never exported). */
export function keyHash(namespace: string, tool: string, key: string): string {
  return createHash('sha256').update(JSON.stringify([namespace, tool, key])).digest('hex').slice(0, 32);
}

/** The attempt and key a retrysafe error names (ConcurrentCallError, AttemptsExhaustedError, ...). */
function factsOf(error: unknown): { attempt?: number; key?: string } | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { attempt, attempts, key } = error as { attempt?: unknown; attempts?: unknown; key?: unknown };
  const n = typeof attempt === 'number' ? attempt : typeof attempts === 'number' ? attempts : undefined;
  return { ...(n !== undefined && { attempt: n }), ...(typeof key === 'string' && { key }) };
}

const errorName = (error: unknown) => (error instanceof Error ? error.name : typeof error);
