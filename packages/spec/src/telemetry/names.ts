/**
 * The names retrysafe's telemetry uses: span attributes and metric instruments, as constants in
 * the style of `@opentelemetry/semantic-conventions` (`ATTR_*`, `METRIC_*`), so that dashboards and
 * alerts can import them instead of copying strings.
 *
 * Where OpenTelemetry's GenAI semantic conventions already name a thing (the tool call span, the
 * tool's name) those names are used; what only retrysafe knows (the idempotency class, the key's
 * hash, the attempt, the replay flag, the outcome) lives under `retrysafe.*`. docs/runtime.md
 * ("Telemetry") lists them with their values.
 *
 * @module
 */

/** GenAI semantic conventions: the operation, always `execute_tool` for a runner call. */
export const ATTR_GEN_AI_OPERATION_NAME = 'gen_ai.operation.name';
/** GenAI semantic conventions: the tool's `name`. */
export const ATTR_GEN_AI_TOOL_NAME = 'gen_ai.tool.name';
/** General semantic conventions: the error's class, on a call that did not succeed (a retrysafe error's `code`, else the error's `name`). */
export const ATTR_ERROR_TYPE = 'error.type';
/** The tool's declared idempotency class, as its policy writes it: `"true"`, `"with_key"` or `"false"`. */
export const ATTR_RETRYSAFE_IDEMPOTENCY_CLASS = 'retrysafe.idempotency.class';
/**
 * SHA-256 of the record's identity (namespace, tool, key), hex, first 32 characters: correlates
 * the calls and retries of one key across processes without exporting the key (with_key tools only).
 */
export const ATTR_RETRYSAFE_IDEMPOTENCY_KEY_HASH = 'retrysafe.idempotency.key_hash';
/** The attempt the call ran or replayed (the record's count for with_key tools, the loop's otherwise). */
export const ATTR_RETRYSAFE_ATTEMPT = 'retrysafe.attempt';
/** True when the stored result was returned and the effect did not run. */
export const ATTR_RETRYSAFE_REPLAYED = 'retrysafe.replayed';
/** How the call ended: one of {@link CallTelemetryOutcome}. */
export const ATTR_RETRYSAFE_OUTCOME = 'retrysafe.outcome';

/**
 * A call's outcome: `executed` (the effect ran and returned), `replayed`, `tool_error` (the
 * effect ran and threw), or the `code` of the retrysafe error that ended it (`concurrent_call`,
 * `key_reuse`, `attempts_exhausted`, `store_unavailable`, `input_validation`, ...).
 */
export type CallTelemetryOutcome = 'executed' | 'replayed' | 'tool_error' | (string & {});

/** Counter, `{call}`: every runner call, by tool, class and outcome. */
export const METRIC_RETRYSAFE_CALLS = 'retrysafe.calls';
/** Counter, `{call}`: calls answered from the dedup record (`retrysafe.outcome` = `replayed`). */
export const METRIC_RETRYSAFE_REPLAYS = 'retrysafe.replays';
/** Counter, `{call}`: calls refused because the key is held (`concurrent_call`, 409) or bound to another input (`key_reuse`, 422). */
export const METRIC_RETRYSAFE_CONFLICTS = 'retrysafe.conflicts';
/** Histogram, `ms`: a call's duration from validation to its answer (effect included), by tool, class and outcome. */
export const METRIC_RETRYSAFE_CALL_DURATION = 'retrysafe.call.duration';

/** The instrumentation scope's name (the tracer's and the meter's). */
export const INSTRUMENTATION_SCOPE = '@retrysafe/spec';
