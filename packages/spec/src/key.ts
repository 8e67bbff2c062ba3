/**
 * Deterministic idempotency keys.
 *
 * The seed: "A random key generated per call is a new key on the retry, which defeats the entire
 * mechanism". ✅ `key = f"{run_id}:{item_id}:refund"`, ❌ `key = uuid4()`. The `key` tagged template
 * makes the ✅ form the only one that type-checks.
 *
 * The IETF Idempotency-Key draft (draft-ietf-httpapi-idempotency-key-header) describes the key as a
 * unique value the client generates and sends again so that the server recognises retries of the
 * same request. Agents have no single client process that lives through a resume or a queue
 * redelivery, so here the key is derived from the work instead of generated and remembered: every
 * attempt computes the same key. Keys are limited to 255 characters, Stripe's limit, so that they
 * can be passed through to a payment provider unchanged.
 *
 * @packageDocumentation
 */
import { describe, isDurablePrimitive, type Durable } from './durable.js';
import { InvalidIdentifierError, RetrysafeError, type IdentifierField } from './errors.js';

// Module-private brand key: only `key` (and an `as` cast, which `no-key-cast` forbids) makes one.
declare const deterministicKeyBrand: unique symbol;

/**
 * An idempotency key derived from durable state, so that every attempt of the same work carries the
 * same key. A plain `string` at runtime; the brand makes `key` the only way to create one in
 * TypeScript. This is the only type a with_key tool's `key` function may return, and the type of
 * `ctx.key` in its `execute`, ready to pass downstream (for example as Stripe's `idempotencyKey`).
 */
export type DeterministicKey = string & { readonly [deterministicKeyBrand]: 'DeterministicKey' };

/**
 * Longest key `key` accepts, in UTF-16 code units (never fewer than characters): 255, Stripe's limit
 * for the `Idempotency-Key` header ("keys can be up to 255 characters long"), so that a key can be
 * passed through to the payment provider as it is.
 */
export const MAX_KEY_LENGTH = 255;

/** Why a key was rejected; see {@link InvalidKeyError}. */
export type InvalidKeyReason = 'empty' | 'too_long' | 'not_durable_part' | 'invalid_escape';

/**
 * One `${...}` part of a key that `key` refused as too long: one of the parts to shorten.
 */
export interface LongKeyPart {
  /** Which `${...}` of the template, counting from 1. */
  readonly position: number;
  /** Its length in UTF-16 code units. */
  readonly length: number;
  /**
   * Where its value came from, when a with_key tool's key function built the key and the value
   * is exactly one field's: `input.orderId`, `input.items[0].sku`, `run.id` (all such fields,
   * joined with " or ", when several hold the same value). Absent when no field holds it.
   */
  readonly name?: string;
}

/**
 * Thrown by `key` (and by a tool's `deriveKey`) for a key that could not deduplicate anything
 * safely: an empty key, a key longer than {@link MAX_KEY_LENGTH}, or, from plain JavaScript, a part
 * that is not a string or a finite number.
 */
export class InvalidKeyError extends RetrysafeError {
  override readonly name = 'InvalidKeyError';
  readonly code = 'invalid_key';
  /** Which rule the key broke. */
  readonly reason: InvalidKeyReason;
  /** The rejected key, or the text built so far for a rejected part. */
  readonly key: string;
  /**
   * For a key `key\`...\`` refused as too long (`reason: 'too_long'`): the parts to shorten,
   * longest first, as few as together make up the excess (or every part, if the literal text
   * alone is too long). Empty for other reasons and for a key built without the template.
   */
  readonly parts: readonly LongKeyPart[];

  constructor(reason: InvalidKeyReason, key: string, message: string, parts: readonly LongKeyPart[] = []) {
    super(message);
    this.reason = reason;
    this.key = key;
    this.parts = parts;
  }
}

// The text of each part of a too-long key, for namedKeyParts; kept off the error, which may be logged.
const partTexts = new WeakMap<InvalidKeyError, readonly string[]>();

declare const notDurableKeyPartBrand: unique symbol;

/**
 * What `tsc` says about a key part that is not {@link Durable}, so that the error names the problem
 * instead of TypeScript's bare "not assignable to parameter of type 'Durable<string | number>'".
 */
export const NOT_DURABLE_KEY_PART =
  'a key part must be durable: run.id, a field of the validated input, or vouchDurable(value) for a value read back from storage; randomUUID(), Date.now() and other plain strings or numbers can differ on a retry';

/**
 * The type `key` gives a part that is not {@link Durable}. No value has it, so the compiler reports
 * the part, and its error reads: `Argument of type 'number' is not assignable to parameter of type
 * 'NotDurableKeyPart<"a key part must be durable: run.id, a field of the validated input, ...">'`.
 */
export interface NotDurableKeyPart<Message extends string> {
  readonly [notDurableKeyPartBrand]: Message;
}

/** The parameter types of `key`: each part as it is when durable, {@link NotDurableKeyPart} otherwise. */
export type DurableKeyParts<Parts extends readonly unknown[]> = {
  [I in keyof Parts]: Parts[I] extends Durable<string | number> ? Parts[I] : NotDurableKeyPart<typeof NOT_DURABLE_KEY_PART>;
};

/**
 * Builds a {@link DeterministicKey} from literal text and durable parts:
 *
 * ```ts
 * key: ({ run, input }) => key`${run.id}:${input.orderId}:refund`
 * ```
 *
 * Every `${...}` must be a `Durable<string | number>`: `run.id`, a field of the tool's validated
 * input, or a value passed through `vouchDurable`. `tsc` rejects a plain `string` or `number`, a
 * `Date`, `Date.now()` and `randomUUID()`, with an error on the part that names the problem
 * ({@link NotDurableKeyPart}): each of them can differ on the retry, which gets a new key and so a
 * second effect (the seed's "Run resumption — the key must be derived from durable state").
 *
 * Scope the key to the run and the item ("Keys scoped to the run make [queue redelivery]
 * survivable"), and end it with the action, so that two tools never share a key.
 *
 * @returns the concatenated key, unchanged otherwise.
 * @throws {@link InvalidKeyError} if the key is empty or longer than {@link MAX_KEY_LENGTH} (255,
 *   Stripe's limit), or if a part is not a string or a finite number at runtime.
 */
export function key<const Parts extends readonly unknown[]>(
  literals: TemplateStringsArray,
  ...parts: DurableKeyParts<Parts>
): DeterministicKey {
  // A tagged template's cooked text is undefined for an invalid escape such as `\u{`.
  if (literals.includes(undefined as unknown as string)) {
    throw new InvalidKeyError(
      'invalid_escape',
      literals.raw.join(''),
      'Idempotency key contains an invalid escape sequence in its literal text.',
    );
  }
  let text = literals[0] ?? '';
  // Indexed, not `parts.entries()`: this runs on every keyed call (bench/runtime.mjs).
  for (let index = 0; index < parts.length; index += 1) {
    const part = parts[index];
    if (!isDurablePrimitive(part) || typeof part === 'bigint') {
      throw new InvalidKeyError(
        'not_durable_part',
        text,
        `Idempotency key part ${index + 1} is ${describe(part)}; key\`...\` takes strings and ` +
          'finite numbers derived from durable state (the run id, validated input fields).',
      );
    }
    text += String(part) + (literals[index + 1] ?? '');
  }
  if (text.length > MAX_KEY_LENGTH) throw tooLongKey(text, parts.map(String));
  return assertValidKey(text);
}

/** The too-long error for a key built from `texts`, naming the longest parts by position. */
function tooLongKey(text: string, texts: readonly string[], names: readonly (string | undefined)[] = []): InvalidKeyError {
  const order = texts.map((_, index) => index).sort((a, b) => (texts[b] as string).length - (texts[a] as string).length || a - b);
  const parts: LongKeyPart[] = [];
  // Longest first, until the key without them would fit.
  let excess = text.length - MAX_KEY_LENGTH;
  for (const index of order) {
    if (excess <= 0) break;
    const length = (texts[index] as string).length;
    if (length === 0) break;
    const name = names[index];
    parts.push({ position: index + 1, length, ...(name !== undefined && { name }) });
    excess -= length;
  }
  const listed = parts.map((part) => `${part.name ?? `part ${part.position}`} (${part.length} characters)`).join(', ');
  const error = new InvalidKeyError(
    'too_long',
    text,
    `Idempotency key is ${text.length} characters long; the limit is ${MAX_KEY_LENGTH} (Stripe's Idempotency-Key limit). ` +
      (parts.length > 0 ? `Shorten ${listed}: use an id instead of a whole value. ` : 'Use shorter parts, such as ids instead of whole values. ') +
      `Key starts with: ${JSON.stringify(text.slice(0, 40))}`,
    parts,
  );
  partTexts.set(error, texts);
  return error;
}

/**
 * @internal `error` again with its long parts named after the fields of `sources` that hold
 * exactly their text (`{ input, run }` gives `input.orderId`, `run.id`), or `error` itself when it
 * is not a too-long key from `key\`...\`` or no field holds a long part's text. Evidence only: a
 * part is named by a field whose value, as `key` writes it, equals the part.
 */
export function namedKeyParts(error: InvalidKeyError, sources: Readonly<Record<string, unknown>>): InvalidKeyError {
  const texts = partTexts.get(error);
  if (texts === undefined || error.parts.length === 0) return error;
  const wanted = new Set(error.parts.map((part) => texts[part.position - 1] as string));
  const found = new Map<string, string[]>();
  for (const [name, value] of Object.entries(sources)) collectFields(name, value, wanted, found, 0);
  if (found.size === 0) return error;
  const names = texts.map((text, index) => (error.parts.some((part) => part.position === index + 1) ? found.get(text)?.join(' or ') : undefined));
  return tooLongKey(error.key, texts, names);
}

// Enough for the fields a key is built from; a bound, not a search of a whole document.
const MAX_FIELD_DEPTH = 4;

function collectFields(path: string, value: unknown, wanted: ReadonlySet<string>, found: Map<string, string[]>, depth: number): void {
  if (typeof value === 'string' || typeof value === 'number') {
    const text = String(value);
    if (wanted.has(text)) found.set(text, [...(found.get(text) ?? []), path]);
    return;
  }
  if (typeof value !== 'object' || value === null || depth >= MAX_FIELD_DEPTH) return;
  if (Array.isArray(value)) {
    value.forEach((item, index) => collectFields(`${path}[${index}]`, item, wanted, found, depth + 1));
    return;
  }
  for (const [field, item] of Object.entries(value)) {
    const step = /^[A-Za-z_$][\w$]*$/.test(field) ? `.${field}` : `[${JSON.stringify(field)}]`;
    collectFields(path + step, item, wanted, found, depth + 1);
  }
}

/**
 * Checks a key built outside the `key` template (a with_key tool's `key` function in plain
 * JavaScript can return anything) and returns it branded.
 *
 * @throws {@link InvalidKeyError} if `value` is not a non-empty string of at most
 *   {@link MAX_KEY_LENGTH} code units.
 */
export function assertValidKey(value: unknown): DeterministicKey {
  if (typeof value !== 'string') {
    throw new InvalidKeyError(
      'not_durable_part',
      '',
      `Idempotency key must be a string built with key\`...\`; got ${describe(value)}.`,
    );
  }
  if (value.length === 0) {
    throw new InvalidKeyError(
      'empty',
      value,
      'Idempotency key is empty: build it from durable state, such as `${run.id}:${input.orderId}:refund`.',
    );
  }
  if (value.length > MAX_KEY_LENGTH) {
    throw new InvalidKeyError(
      'too_long',
      value,
      `Idempotency key is ${value.length} characters long; the limit is ${MAX_KEY_LENGTH} ` +
        `(Stripe's Idempotency-Key limit). Use shorter parts, such as ids instead of whole values. ` +
        `Key starts with: ${JSON.stringify(value.slice(0, 40))}`,
    );
  }
  return value as DeterministicKey;
}

// `String.prototype.isWellFormed` is ES2024 (Node 20 has it); the project's lib is ES2023.
interface WellFormedText {
  isWellFormed(): boolean;
}

/**
 * Checks that `value` is text every store keeps exactly: well-formed UTF-16 (no unpaired
 * surrogate, which PostgreSQL's driver and Redis turn into U+FFFD and SQLite reads back as three) and no U+0000 (which
 * PostgreSQL's `text` refuses and C APIs end a string at). The runner applies it to the
 * namespace, the tool name and the key of every keyed call, and `openRun` to the namespace and
 * the origin, before anything reaches the store, so all stores accept and reject the same ids.
 *
 * @returns `value`, unchanged.
 * @throws {@link InvalidIdentifierError} (code `invalid_identifier`) naming the field and the
 *   first offending character.
 */
export function assertStorableIdentifier<T extends string>(field: IdentifierField, value: T): T {
  // The common case, answered by two native scans.
  if ((value as unknown as WellFormedText).isWellFormed() && !value.includes('\0')) return value;
  for (let index = 0; index < value.length; index += 1) {
    const unit = value.charCodeAt(index);
    if (unit === 0) throw new InvalidIdentifierError(field, value, `U+0000 (NUL) at index ${index}`);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = value.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        index += 1;
        continue;
      }
    }
    if (unit >= 0xd800 && unit <= 0xdfff) {
      const hex = unit.toString(16).toUpperCase();
      throw new InvalidIdentifierError(field, value, `an unpaired UTF-16 surrogate (U+${hex}) at index ${index}`);
    }
  }
  return value;
}
