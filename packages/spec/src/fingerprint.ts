/**
 * Fingerprints of validated inputs, and the JSON check shared with result storage.
 *
 * A fingerprint is the SHA-256 (hex) of the RFC 8785 (JSON Canonicalization Scheme) text of the
 * validated input, so key order and number formatting do not matter: `{a: 1, b: 2}` and
 * `{b: 2, a: 1.0}` have one fingerprint. It binds a key to the input it was first used with, as
 * Stripe and the IETF Idempotency-Key draft bind a key to its request payload.
 *
 * @module
 */
import { hash } from 'node:crypto';
import canonicalizeModule from 'canonicalize';

// canonicalize is CommonJS (`module.exports = fn`) but its types declare an ES default export, so
// under NodeNext TypeScript sees `{ default: fn }` while Node hands us `fn`. Accept both.
type Canonicalize = (value: unknown) => string | undefined;
const canonicalize: Canonicalize =
  (canonicalizeModule as unknown as { default?: Canonicalize }).default ??
  (canonicalizeModule as unknown as Canonicalize);

/**
 * The fingerprint of a validated input: lowercase hex SHA-256 of its RFC 8785 canonical JSON.
 * `undefined` fingerprints as `null`; object properties that are `undefined` are left out, as
 * JSON leaves them out.
 *
 * @throws TypeError naming the first value that is not JSON data (see `findNonJson`, dates
 *   allowed: they canonicalise to their ISO string).
 */
export function fingerprint(input: unknown): string {
  // One-shot hash (Node >= 20.12): no Hash object per call, on every keyed call's path.
  return hash('sha256', canonicalJson(input ?? null) ?? checkedCanonicalize(input, input ?? null), 'hex');
}

/**
 * The fingerprint a dedup record stores: lowercase hex SHA-256 of the RFC 8785 canonical JSON of
 * `[namespace, tool, input]`. It covers the record's scope as well as the input, so a store that
 * conflates two namespaces or tool names (a case-insensitive or normalising collation, a driver
 * that rewrites text) answers `KeyReuseError` instead of replaying one tenant's result to another.
 *
 * @throws TypeError as {@link fingerprint} does.
 */
export function recordFingerprint(scope: { readonly namespace: string; readonly tool: string }, input: unknown): string {
  // The text canonicalize gives for the array `[namespace, tool, input]`: its items, comma-separated.
  const inputText = canonicalJson(input ?? null);
  const text =
    inputText === undefined
      ? checkedCanonicalize(input, [scope.namespace, scope.tool, input ?? null])
      : `[${JSON.stringify(scope.namespace)},${JSON.stringify(scope.tool)},${inputText}]`;
  return hash('sha256', text, 'hex');
}

/**
 * The path every fingerprint took before {@link canonicalJson}, and still takes for what the fast
 * path leaves to it: the check of `input` (a `TypeError` naming the first value in it that is not
 * JSON data, by its path from the input), then canonicalize's own text of `value`, which holds it.
 */
function checkedCanonicalize(input: unknown, value: unknown): string {
  const problem = findNonJson(input, { allowDates: true });
  if (problem !== undefined) throw new TypeError(problem);
  return canonicalize(value) ?? 'null';
}

/** Deeper than this, the fast path hands over to the checked one (which also finds a cycle). */
const FAST_DEPTH = 64;
const dateToJSON = Date.prototype.toJSON;

/**
 * canonicalize's RFC 8785 text of `value` in one walk that also checks it, or `undefined` when
 * `value` is anything but plain JSON data that canonicalize writes the usual way: then
 * {@link checkedCanonicalize} decides (the same error, or the same text), so a fingerprint is
 * byte for byte what it was. It accepts a subset of what `findNonJson` (dates allowed) accepts
 * and writes what canonicalize writes for it (tests/fingerprint.test.ts compares them on random
 * data): JSON.stringify of strings and finite numbers, booleans, null, arrays item by item,
 * plain objects by `Object.keys(...).sort()` leaving `undefined` properties out, and a valid Date
 * through `Date.prototype.toJSON` as canonicalize calls it. Any other `toJSON` (a class or
 * prototype's own) and any depth past {@link FAST_DEPTH} are left to the checked path.
 * Two walks and canonicalize's `reduce` closures cost about a fifth of a first call's instructions
 * on the memory store (`node --cpu-prof`, bench/runner-instructions.mjs).
 */
function canonicalJson(value: unknown, depth = 0): string | undefined {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      // JSON.stringify of a finite number is ToString of it (-0 gives "0").
      return Number.isFinite(value) ? String(value) : undefined;
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      break;
    default:
      return undefined; // undefined (inside an array), bigint, symbol, function: the checked path
  }
  if (value === null) return 'null';
  if (depth >= FAST_DEPTH) return undefined;
  const object = value as object;
  const toJSON: unknown = (object as { toJSON?: unknown }).toJSON;
  if (toJSON !== undefined) {
    if (toJSON !== dateToJSON || !(object instanceof Date) || Number.isNaN(object.getTime())) return undefined;
    return canonicalJson(dateToJSON.call(object), depth + 1);
  }
  if (Array.isArray(object)) {
    let text = '[';
    for (let i = 0; i < object.length; i += 1) {
      const item = canonicalJson(object[i], depth + 1);
      if (item === undefined) return undefined;
      text += i === 0 ? item : `,${item}`;
    }
    return `${text}]`;
  }
  const proto: unknown = Object.getPrototypeOf(object);
  if (proto !== Object.prototype && proto !== null) return undefined;
  const record = object as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  let text = '';
  for (const key of keys) {
    const item = record[key];
    if (item === undefined) continue;
    const itemText = canonicalJson(item, depth + 1);
    if (itemText === undefined) return undefined;
    text += `${text.length === 0 ? '' : ','}${JSON.stringify(key)}:${itemText}`;
  }
  return `{${text}}`;
}

/**
 * Returns why `value` is not plain JSON data that survives a `JSON.stringify`/`JSON.parse`
 * round trip unchanged (e.g. `$.items[2] is a Map`), or `undefined` when it is. `undefined` is
 * accepted at the top level and as an object property (both read back as `undefined`), not in
 * arrays (it would come back as `null`). With `allowDates`, valid `Date`s are accepted (their ISO
 * string is deterministic, which is enough for a fingerprint but not for a stored result).
 */
export function findNonJson(value: unknown, options: { readonly allowDates: boolean }): string | undefined {
  // Runs on every keyed call (input and result): answer the common case, plain JSON, without
  // building a path string per property; build paths only to describe a problem.
  if (isPlainJson(value, options.allowDates, new Set())) return undefined;
  return walk(value, '$', options.allowDates, new Set());
}

/** What {@link storedCopy} answers for a value that is not plain JSON data (or is nested too deep for its walk). */
export const NOT_PLAIN = Symbol('retrysafe.notPlainJson');

/**
 * What `JSON.parse(JSON.stringify(value))` gives for plain JSON data, built in the one walk that
 * checks it is such data (what {@link findNonJson} accepts without dates), or {@link NOT_PLAIN}
 * when it is not, or is nested past {@link FAST_DEPTH} (a cycle is): then the caller asks
 * `findNonJson` why, and round-trips through JSON itself. `-0` becomes `0`, a property that is
 * `undefined` is left out, a null-prototype object becomes a plain one, and a `__proto__` key stays
 * an own property, as `JSON.parse` makes them. The runner returns this as a first call's result,
 * which every replay then matches (`JSON.parse` of the stored text): the check, the text and the
 * copy used to be three passes, and `JSON.parse` was the costliest part of recording a result
 * (`node --cpu-prof`, bench/runner-instructions.mjs).
 */
export function storedCopy(value: unknown, depth = 0): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value + 0 : NOT_PLAIN; // -0 + 0 is 0, as JSON writes it
    case 'object':
      break;
    default:
      return NOT_PLAIN; // undefined (where JSON would drop or change it), bigint, symbol, function
  }
  if (value === null) return null;
  if (depth >= FAST_DEPTH) return NOT_PLAIN;
  // JSON.stringify writes what a toJSON method returns (an array may carry one as a property).
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return NOT_PLAIN;
  if (Array.isArray(value)) {
    const copy: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i += 1) {
      const item = storedCopy(value[i], depth + 1);
      if (item === NOT_PLAIN) return NOT_PLAIN;
      copy[i] = item;
    }
    return copy;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return NOT_PLAIN; // a Date, Map, class instance...
  const record = value as Record<string, unknown>;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(record)) {
    const item = record[key];
    if (item === undefined) continue;
    const itemCopy = storedCopy(item, depth + 1);
    if (itemCopy === NOT_PLAIN) return NOT_PLAIN;
    if (key === '__proto__') Object.defineProperty(copy, key, { value: itemCopy, writable: true, enumerable: true, configurable: true });
    else copy[key] = itemCopy;
  }
  return copy;
}

/** The yes/no half of {@link walk}: the same checks, no messages. Keep the two in step. */
function isPlainJson(value: unknown, allowDates: boolean, ancestors: Set<object>): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
    case 'undefined':
      return true;
    case 'number':
      return Number.isFinite(value);
    case 'bigint':
    case 'symbol':
    case 'function':
      return false;
  }
  if (value === null) return true;
  const object = value as object;
  if (ancestors.has(object)) return false;
  if (object instanceof Date) return allowDates && !Number.isNaN(object.getTime());
  ancestors.add(object);
  try {
    if (Array.isArray(object)) {
      for (let i = 0; i < object.length; i += 1) {
        const item: unknown = object[i];
        if (item === undefined || !isPlainJson(item, allowDates, ancestors)) return false;
      }
      return true;
    }
    const proto: unknown = Object.getPrototypeOf(object);
    if (proto !== Object.prototype && proto !== null) return false;
    const record = object as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      if (!isPlainJson(record[key], allowDates, ancestors)) return false;
    }
    return true;
  } finally {
    ancestors.delete(object);
  }
}

function walk(value: unknown, path: string, allowDates: boolean, ancestors: Set<object>): string | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
    case 'undefined':
      return undefined;
    case 'number':
      return Number.isFinite(value) ? undefined : `${path} is ${String(value)}`;
    case 'bigint':
      return `${path} is a bigint`;
    case 'symbol':
      return `${path} is a symbol`;
    case 'function':
      return `${path} is a function`;
  }
  if (value === null) return undefined;
  const object = value as object;
  if (ancestors.has(object)) return `${path} refers back to itself (a cycle)`;
  if (object instanceof Date) {
    if (!allowDates) return `${path} is a Date (return date.toISOString())`;
    return Number.isNaN(object.getTime()) ? `${path} is an invalid Date` : undefined;
  }
  ancestors.add(object);
  try {
    if (Array.isArray(object)) {
      for (let i = 0; i < object.length; i += 1) {
        const item: unknown = object[i];
        if (item === undefined) return `${path}[${i}] is undefined in an array (JSON turns it into null)`;
        const problem = walk(item, `${path}[${i}]`, allowDates, ancestors);
        if (problem !== undefined) return problem;
      }
      return undefined;
    }
    const proto: unknown = Object.getPrototypeOf(object);
    if (proto !== Object.prototype && proto !== null) {
      const name = (object as { constructor?: { name?: string } }).constructor?.name;
      return `${path} is ${name ? `a ${name}` : 'not a plain object'}`;
    }
    for (const [key, item] of Object.entries(object)) {
      const problem = walk(item, `${path}${/^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`}`, allowDates, ancestors);
      if (problem !== undefined) return problem;
    }
    return undefined;
  } finally {
    ancestors.delete(object);
  }
}
