/**
 * Retry policy as data.
 *
 * The seed: "Retry policy shouldn't live in someone's head" and "A retry policy expressed as data is
 * enforceable; one expressed as a convention is a bug waiting for a busy afternoon." A
 * {@link ToolPolicy} is that data, in the seed's own shape (`side_effects`, `idempotent`, `retry`,
 * `max_attempts`), plain and JSON-serialisable so the loop, a log line or a dashboard can read it.
 *
 * @packageDocumentation
 */
import { CONTRADICTIONS, type PolicyContradictions } from './contradictions.js';
import { RetrysafeError } from './errors.js';

/**
 * What a tool changes outside its own return value.
 * - `'none'`: nothing; reads and pure computations (`search_orders`, `get_order`).
 * - `'internal_write'`: writes to your own systems (`set_status`, `create_ticket`).
 * - `'external_write'`: writes to a third party's system (`create_github_issue`).
 * - `'money_out'`: moves money (`issue_refund`, `charge_card`); a duplicate costs money.
 * - `'message_out'`: reaches a person (`send_email`, `send_sms`); a duplicate cannot be unsent.
 */
export type SideEffects = 'none' | 'internal_write' | 'external_write' | 'money_out' | 'message_out';

/**
 * The idempotency class; the seed's three categories, and every tool belongs to one.
 * - `true`: naturally idempotent. Reads, and writes that set an absolute value; calling twice
 *   produces the same end state.
 * - `'with_key'`: idempotent with a key. Creates or accumulates, made safe by a deterministic key:
 *   the second call with the same key returns the first call's result.
 * - `false`: not safely repeatable. Relative operations (`increment_balance`, `append_note`) and
 *   external effects that cannot be deduplicated. Never retried automatically.
 */
export type Idempotency = true | 'with_key' | false;

/**
 * What the loop may do after a failed or lost call.
 * - `'safe'`: retry as it is (naturally idempotent tools).
 * - `'safe_with_same_key'`: retry with the same key, so the dedup record replays a completed call
 *   (with_key tools).
 * - `'never'`: do not retry automatically; escalate instead.
 */
export type Retry = 'safe' | 'safe_with_same_key' | 'never';

// Fields every policy has; the union below narrows them per idempotency class.
interface PolicyFields {
  readonly side_effects: SideEffects;
  /** Attempts allowed in all, the first included; for with_key tools, counted per key. */
  readonly max_attempts: number;
}

/** Policy of a naturally idempotent tool (`idempotent: true`). */
export interface NaturallyIdempotentPolicy extends PolicyFields {
  readonly idempotent: true;
  readonly retry: 'safe' | 'never';
}

/** Policy of a tool that is idempotent with a key (`idempotent: 'with_key'`). */
export interface KeyedToolPolicy extends PolicyFields {
  readonly idempotent: 'with_key';
  readonly retry: 'safe_with_same_key' | 'never';
}

/** Policy of a tool that is not safely repeatable (`idempotent: false`). */
export interface NotRepeatablePolicy extends PolicyFields {
  readonly side_effects: Exclude<SideEffects, 'none'>;
  readonly idempotent: false;
  readonly retry: 'never';
  readonly max_attempts: 1;
}

/**
 * A tool's retry policy as plain data in the seed's shape, for example
 * `{ side_effects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', max_attempts: 1 }`.
 * Only consistent combinations are members of this union; `defineTool` and `declarePolicy` build
 * one and freeze it.
 */
export type ToolPolicy = NaturallyIdempotentPolicy | KeyedToolPolicy | NotRepeatablePolicy;

/** Any policy-shaped record, consistent or not; the constraint of `Tool`'s policy parameter. */
export interface PolicyShape {
  readonly side_effects: SideEffects;
  readonly idempotent: Idempotency;
  readonly retry: Retry;
  readonly max_attempts: number;
}

/**
 * `max_attempts` when none is declared: 3 for `retry: 'safe'` and `'safe_with_same_key'` (the first
 * attempt and two retries; for a with_key tool, per key), 1 for `retry: 'never'`.
 */
export const DEFAULT_MAX_ATTEMPTS = { safe: 3, safe_with_same_key: 3, never: 1 } as const satisfies Record<
  Retry,
  number
>;

/** Thrown when a declared policy contradicts itself or uses a value outside the vocabulary. */
export class ToolPolicyError extends RetrysafeError {
  override readonly name = 'ToolPolicyError';
  readonly code = 'tool_policy';
  /** The tool the policy was declared for, by name where known. */
  readonly tool: string;

  constructor(tool: string, message: string) {
    super(`Retry policy of ${tool}: ${message}`);
    this.tool = tool;
  }
}

/** @internal A policy as declared, before validation. */
export interface PolicyInput {
  readonly side_effects: unknown;
  readonly idempotent: unknown;
  readonly retry: unknown;
  readonly max_attempts?: unknown;
}

/**
 * @internal Validates a declared policy and returns it frozen, with `max_attempts` defaulted.
 * `hasKey` is `undefined` where a key function is not part of the declaration (framework tools).
 * @throws {@link ToolPolicyError}
 */
export function toToolPolicy(input: PolicyInput, tool: string, hasKey?: boolean): ToolPolicy {
  const { side_effects, idempotent, retry } = input;
  const fail = (message: string): never => {
    throw new ToolPolicyError(tool, message);
  };
  if (!SIDE_EFFECTS.includes(side_effects as SideEffects)) {
    fail(`side effects must be one of ${list(SIDE_EFFECTS)}; got ${show(side_effects)}.`);
  }
  if (!IDEMPOTENCY.includes(idempotent as Idempotency)) {
    fail(`idempotent must be one of ${list(IDEMPOTENCY)}; got ${show(idempotent)}.`);
  }
  if (!RETRY.includes(retry as Retry)) {
    fail(`retry must be one of ${list(RETRY)}; got ${show(retry)}.`);
  }
  const maxAttempts = input.max_attempts ?? DEFAULT_MAX_ATTEMPTS[retry as Retry];
  if (typeof maxAttempts !== 'number' || !Number.isInteger(maxAttempts) || maxAttempts < 1) {
    fail(`${CONTRADICTIONS.maxAttemptsNotPositiveInteger}; got ${show(maxAttempts)}.`);
  }
  const contradiction = findContradiction(
    side_effects as SideEffects,
    idempotent as Idempotency,
    retry as Retry,
    maxAttempts as number,
    hasKey,
  );
  if (contradiction !== undefined) fail(`${contradiction}.`);
  return Object.freeze({ side_effects, idempotent, retry, max_attempts: maxAttempts }) as ToolPolicy;
}

// The runtime twin of `PolicyContradictions` in tool.ts: same rules, same messages.
function findContradiction(
  sideEffects: SideEffects,
  idempotent: Idempotency,
  retry: Retry,
  maxAttempts: number,
  hasKey: boolean | undefined,
): string | undefined {
  if (idempotent === 'with_key' && hasKey === false) return CONTRADICTIONS.keyRequired;
  if (idempotent === false && sideEffects === 'none') return CONTRADICTIONS.noSideEffectsNotRepeatable;
  if (idempotent === false && retry !== 'never') return CONTRADICTIONS.notRepeatableRetried;
  if (idempotent === 'with_key' && retry === 'safe') return CONTRADICTIONS.keyedRetrySafe;
  if (idempotent !== 'with_key' && retry === 'safe_with_same_key') return CONTRADICTIONS.sameKeyWithoutKey;
  if (idempotent === true && hasKey === true) return CONTRADICTIONS.keyOnNaturallyIdempotent;
  if (idempotent === false && hasKey === true) return CONTRADICTIONS.keyOnNotRepeatable;
  if (retry === 'never' && maxAttempts !== 1) return CONTRADICTIONS.neverRetriedMaxAttempts;
  return undefined;
}

const SIDE_EFFECTS: readonly SideEffects[] = ['none', 'internal_write', 'external_write', 'money_out', 'message_out'];
const IDEMPOTENCY: readonly Idempotency[] = [true, 'with_key', false];
const RETRY: readonly Retry[] = ['safe', 'safe_with_same_key', 'never'];

const list = (values: readonly unknown[]): string => values.map(show).join(', ');
const show = (value: unknown): string =>
  typeof value === 'string' ? `'${value}'` : value === undefined ? 'undefined' : JSON.stringify(value) ?? String(value);

/**
 * A policy as `declarePolicy` takes it: the seed's shape, `max_attempts` optional (see
 * {@link DEFAULT_MAX_ATTEMPTS}).
 */
export interface PolicyDeclaration<
  SE extends SideEffects = SideEffects,
  I extends Idempotency = Idempotency,
  R extends Retry = Retry,
  M extends number = number,
> {
  readonly side_effects: SE;
  readonly idempotent: I;
  readonly retry: R;
  readonly max_attempts?: M;
}

// The contradiction rules renamed to the seed's snake_case fields (framework tools bring their own
// key, so the key rules do not apply).
type PolicyDeclarationContradictions<SE, I, R, M> = {
  readonly [F in 'idempotent' | 'retry' | 'maxAttempts' as F extends 'maxAttempts'
    ? 'max_attempts'
    : F]?: PolicyContradictions<SE, I, R, M, 'unknown'>[F];
};

// `Symbol.for` so that two copies of this package in one process read each other's declarations.
const POLICY = Symbol.for('retrysafe.policy');
// For objects that cannot take a property (frozen, sealed, or a proxy that refuses it).
const policies = new WeakMap<object, ToolPolicy>();

/**
 * Attaches a retry policy to a framework-native tool (AI SDK `tool()`, OpenAI Agents `tool()`,
 * LangChain tools, MCP tool objects) and returns the same object, typed as before. The
 * `require-retry-policy` lint rule accepts a tool wrapped in `declarePolicy`, and the runner reads
 * the policy back with {@link policyOf}.
 *
 * ```ts
 * export const sendEmail = declarePolicy(
 *   tool({ description: 'Send an email', inputSchema, execute }),
 *   { side_effects: 'message_out', idempotent: false, retry: 'never' },
 * );
 * ```
 *
 * The policy is checked as `defineTool` checks a declaration: at compile time, a contradiction is a
 * `Contradiction<"...">` error; at runtime (plain JavaScript), a {@link ToolPolicyError}. The
 * policy is stored under a non-enumerable property, so the framework's own serialisation of the
 * tool is unchanged.
 *
 * @param frameworkTool - the tool object; it is not copied.
 * @param policy - the policy in the seed's shape; `max_attempts` defaults per
 *   {@link DEFAULT_MAX_ATTEMPTS}.
 * @returns `frameworkTool` itself.
 * @throws {@link ToolPolicyError} if the policy contradicts itself, or if the tool already carries
 *   a different policy.
 * @throws TypeError if `frameworkTool` is not an object.
 */
export function declarePolicy<
  T extends object,
  SE extends SideEffects,
  I extends Idempotency,
  R extends Retry,
  const M extends number = never,
>(frameworkTool: T, policy: PolicyDeclaration<SE, I, R, M> & PolicyDeclarationContradictions<SE, I, R, M>): T {
  if ((typeof frameworkTool !== 'object' && typeof frameworkTool !== 'function') || frameworkTool === null) {
    throw new TypeError('declarePolicy() takes a tool object as its first argument.');
  }
  const normalized = toToolPolicy(policy, describeTool(frameworkTool));
  const existing = policyOf(frameworkTool);
  if (existing !== undefined) {
    if (JSON.stringify(existing) === JSON.stringify(normalized)) return frameworkTool;
    throw new ToolPolicyError(
      describeTool(frameworkTool),
      `it already declares ${JSON.stringify(existing)}; declare one policy per tool.`,
    );
  }
  attachPolicy(frameworkTool, normalized);
  return frameworkTool;
}

/**
 * Reads a tool's retry policy: the one `defineTool` built, the one `declarePolicy` attached, or a
 * LangChain tool's `metadata.retrysafe`.
 *
 * @returns the policy, or `undefined` if the tool declares none (the runner then refuses to
 *   auto-retry it).
 * @throws {@link ToolPolicyError} if a LangChain `metadata.retrysafe` policy contradicts itself.
 */
export function policyOf<T extends { readonly policy: PolicyShape }>(tool: T): T['policy'];
export function policyOf(tool: unknown): ToolPolicy | undefined;
export function policyOf(tool: unknown): ToolPolicy | undefined {
  if ((typeof tool !== 'object' && typeof tool !== 'function') || tool === null) return undefined;
  const attached = (tool as { [POLICY]?: ToolPolicy })[POLICY] ?? policies.get(tool);
  if (attached !== undefined) return attached;
  const metadata = (tool as { metadata?: { retrysafe?: unknown } }).metadata;
  const declared = metadata?.retrysafe;
  if (typeof declared === 'object' && declared !== null) {
    return toToolPolicy(declared as PolicyInput, describeTool(tool));
  }
  return undefined;
}

/** @internal Stores `policy` on `target` for {@link policyOf}; used by `defineTool` too. */
export function attachPolicy(target: object, policy: ToolPolicy): void {
  try {
    Object.defineProperty(target, POLICY, { value: policy, enumerable: false });
  } catch {
    policies.set(target, policy);
  }
}

function describeTool(tool: object): string {
  const name = (tool as { name?: unknown }).name;
  return typeof name === 'string' && name !== '' ? `tool "${name}"` : 'a tool';
}

