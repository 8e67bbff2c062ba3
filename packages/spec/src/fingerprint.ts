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
  const problem = findNonJson(input, { allowDates: true });
  if (problem !== undefined) throw new TypeError(problem);
  const text = canonicalize(input ?? null) ?? 'null';
  // One-shot hash (Node >= 20.12): no Hash object per call, on every keyed call's path.
  return hash('sha256', text, 'hex');
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
  const problem = findNonJson(input, { allowDates: true });
  if (problem !== undefined) throw new TypeError(problem);
  const text = canonicalize([scope.namespace, scope.tool, input ?? null]) ?? 'null';
  return hash('sha256', text, 'hex');
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
