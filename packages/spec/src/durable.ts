/**
 * Durable values: the only parts an idempotency key may be built from.
 *
 * The seed: "the key must be deterministic from the work, not random" and "derived from durable
 * state, not from anything regenerated at resume time". A {@link Durable} value is one that is the
 * same on every attempt of the same work: the run id that `openRun` stored, a field of the validated
 * tool input (a retry carries the same arguments), or a value the caller vouches for with
 * {@link vouchDurable}.
 *
 * @packageDocumentation
 */

// Module-private brand key (Effect `Brand`, type-fest `Tagged`): no other module can name it, so the
// only ways to obtain a `Durable<T>` are the run context, a tool's validated input and
// `vouchDurable`. An `as` cast can still forge one; the `no-key-cast` lint rule forbids that.
declare const durableBrand: unique symbol;

/** The primitive types a {@link Durable} value can have. */
export type DurablePrimitive = string | number | bigint;

/**
 * A primitive that survives a retry or a resume unchanged: a run id, a validated input field, or a
 * value vouched for with {@link vouchDurable}. At runtime it is the plain primitive; the brand exists
 * only for the type checker, so that the `key` tagged template can refuse anything else.
 *
 * @typeParam T - the underlying primitive, `string | number` (or `bigint`), literal types kept.
 */
export type Durable<T extends DurablePrimitive> = T & { readonly [durableBrand]: 'Durable' };

/**
 * Declares `value` durable: the same on every attempt and after every resume of the same work.
 *
 * This is the one explicit escape hatch. Use it where a value is *read back from durable storage*,
 * typically a database row id: `vouchDurable(row.id)`. It is a named function rather than a cast so
 * that it is easy to grep for and so that the `no-random-key` lint rule can check its argument like
 * any other key position.
 *
 * Gotchas:
 * - Vouching does not make a value durable. `vouchDurable(randomUUID())`, `vouchDurable(Date.now())`
 *   or a counter held in memory still produce a new value on a retry, and the key that uses it no
 *   longer deduplicates anything (the seed's "❌ key = uuid4()").
 * - Vouch where the value is read, not where it is created: an id generated in this attempt and
 *   written to the database is only durable once a retry would read the same id back.
 * - Values derived from durable ones are not durable by type: `input.email.toLowerCase()` is a plain
 *   `string`. Vouch for the derived value if the derivation is deterministic.
 *
 * @param value - a string, number or bigint (numbers must be finite).
 * @returns the same value, typed {@link Durable}.
 * @throws TypeError if `value` is not a string, a finite number or a bigint (for plain JavaScript
 *   callers; TypeScript rejects such calls already).
 */
export function vouchDurable<T extends DurablePrimitive>(value: T): Durable<T> {
  if (!isDurablePrimitive(value)) {
    throw new TypeError(
      `vouchDurable() takes a string, a finite number or a bigint; got ${describe(value)}.`,
    );
  }
  return value as Durable<T>;
}

/**
 * The type of a tool's validated input as its `key` function sees it: every string, number and
 * bigint leaf becomes {@link Durable}, recursively through objects, arrays and tuples, and everything
 * is read-only. The input is durable because a retry carries the same arguments (and the runner
 * fingerprints them to be sure).
 *
 * Other leaves (booleans, `null`, `Date`, `Map`, functions ...) are kept as they are; a key cannot
 * contain them directly. Convert them deterministically and vouch for the result if needed.
 */
export type DurableInput<I> = I extends DurablePrimitive
  ? Durable<I>
  : I extends NotMapped
    ? I
    : { readonly [K in keyof I]: DurableInput<I[K]> };

// Leaves that are kept as they are rather than mapped property by property.
type NotMapped =
  | boolean
  | symbol
  | null
  | undefined
  | Date
  | RegExp
  | Error
  | Promise<unknown>
  | ReadonlyMap<unknown, unknown>
  | ReadonlySet<unknown>
  | ArrayBufferView
  | ArrayBufferLike
  | ((...args: never[]) => unknown);

/** @internal Whether `value` can be a {@link Durable} at runtime. */
export function isDurablePrimitive(value: unknown): value is DurablePrimitive {
  return (
    typeof value === 'string' ||
    typeof value === 'bigint' ||
    (typeof value === 'number' && Number.isFinite(value))
  );
}

/** @internal A short description of a value for error messages. */
export function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value === 'number') return `the number ${String(value)}`;
  if (typeof value === 'object') return `an object (${Object.prototype.toString.call(value)})`;
  return `a ${typeof value}`;
}
