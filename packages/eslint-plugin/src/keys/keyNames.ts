import type { TSESLint } from '@typescript-eslint/utils';

import { createWordsTest, importsSpecPackage } from '../ast/index.js';
import { DURABLE_ENGINE_WORDS } from './durableEngines.js';

// The names a deduplication key goes by, and the cheap tests built from them: a matcher for a
// property or header name, and a text pattern that tells whether a file can hold a key at all.

/**
 * Names whose value is a deduplication key, matched in any letter case as an object key, a class
 * field, an assigned member (`headers['webhook-id'] = ...`) or a header set by a call
 * (`headers.set('Idempotency-Key', ...)`). Each was picked because the receiving side dedupes on it:
 *
 * - idempotency keys: `idempotencyKey` / `idempotency_key` (Stripe, most payment SDKs),
 *   `Idempotency-Key` (IETF httpapi draft) and `X-Idempotency-Key`, `Idempotency-Token`,
 *   `idempotencyToken`, AWS's `ClientToken` / `ClientRequestToken`;
 * - dedup keys: `dedupeKey`, `dedupKey`, `dedup_key` (PagerDuty Events), `deduplicationKey`,
 *   `deduplicationId`, `MessageDeduplicationId` (SQS FIFO), `Upstash-Deduplication-Id` (QStash);
 * - delivery ids receivers dedupe on: `webhook-id` (Standard Webhooks), `svix-id`, `X-Delivery-Id`.
 *
 * Beyond the list, a name of the key family is a key wherever it appears ({@link isKeyFamilyName}):
 * a vendor's own spelling of the same header (`X-Acme-Idempotency-Key`, `X-Acme-Delivery-Id`) or a
 * field that says what it is (`paymentIdempotencyKey`, `eventDedupId`).
 *
 * Not keys: trace and request ids (`X-Request-Id`, `traceId`, `requestId`), timestamps, file names.
 * Left out on purpose, add them with the `keyNames` option where they are keys: BullMQ's `jobId`
 * (also used for ids that must be unique per call) and a plain `deliveryId` field.
 */
export const DEFAULT_KEY_NAMES: readonly string[] = [
  'idempotencyKey',
  'idempotency_key',
  'Idempotency-Key',
  'X-Idempotency-Key',
  'Idempotency-Token',
  'idempotencyToken',
  'clientToken',
  'clientRequestToken',
  'dedupeKey',
  'dedupKey',
  'dedup_key',
  'deduplicationKey',
  'deduplicationId',
  'MessageDeduplicationId',
  'Upstash-Deduplication-Id',
  'webhook-id',
  'svix-id',
  'X-Delivery-Id',
];

/**
 * The key family: names that end in an idempotency key, token or id, or a dedup(e|lication) key or
 * id, whatever comes first (`X-Acme-Idempotency-Key`, `stripeIdempotencyKey`, `order_dedup_key`),
 * and vendor delivery-id headers (`X-GitHub-Delivery-Id`, `X-Acme-Delivery-Id`: an `X-` header whose
 * last words are `Delivery-Id`; a plain `deliveryId` field stays out, see {@link DEFAULT_KEY_NAMES}).
 * Receivers dedupe on each of these by name. Trace, request and correlation ids match none.
 */
export function isKeyFamilyName(name: string): boolean {
  if (!KEY_FAMILY_HINT.test(name)) return false;
  if (FLAG_PREFIX.test(name)) return false;
  const squashed = name.toLowerCase().replace(/[-_\s]/g, '');
  return KEY_FAMILY_END.test(squashed) || VENDOR_DELIVERY_HEADER.test(name);
}

/** Flags and settings about a key, not keys: `hasIdempotencyKey`, `throwOnNoIdempotencyKey` (Powertools), `requireDedupKey`. */
const FLAG_PREFIX = /^(has|is|should|throwOn|requires?|use|enable|disable|skip|allow|no|missing|validate|check)[A-Z_-]/;

/** A cheap first test: what every family name contains, in any letter case. */
const KEY_FAMILY_HINT = /dempoten|dedup|delivery.id/i;
const KEY_FAMILY_END = /(idempotency(key|token|id)|dedup(e|lication)?(key|id))$/;
const VENDOR_DELIVERY_HEADER = /^x-[a-z0-9]+(-[a-z0-9]+)*-delivery-id$/i;

/** Answers whether a property or header name is a key name; returns its configured spelling. */
export type KeyNameMatcher = (name: string) => string | undefined;

/**
 * Builds the matcher for {@link DEFAULT_KEY_NAMES} plus `extraKeyNames` (the `keyNames` option).
 * Names compare case-insensitively: HTTP header names are, and `IdempotencyKey` (AWS) is the same field.
 */
export function createKeyNameMatcher(extraKeyNames: readonly string[] = []): KeyNameMatcher {
  // Rules build a matcher per file from the same option: build each distinct one once.
  const cacheKey = extraKeyNames.join('\n');
  let matcher = matchersByKeyNames.get(cacheKey);
  if (!matcher) matchersByKeyNames.set(cacheKey, (matcher = buildKeyNameMatcher(extraKeyNames)));
  return matcher;
}

const matchersByKeyNames = new Map<string, KeyNameMatcher>();

function buildKeyNameMatcher(extraKeyNames: readonly string[]): KeyNameMatcher {
  const byLowerCase = new Map<string, string>();
  for (const name of [...DEFAULT_KEY_NAMES, ...extraKeyNames]) byLowerCase.set(name.toLowerCase(), name);
  // Asked of every property and member name in every file: a name whose length no key name has is
  // answered without lower-casing it (bench/lint.mjs).
  const lengths = new Set([...byLowerCase.keys()].map((name) => name.length));
  return (name) => (lengths.has(name.length) ? byLowerCase.get(name.toLowerCase()) : undefined) ?? (isKeyFamilyName(name) ? name : undefined);
}

/**
 * A test of whether a text spells any key name (the defaults and `extraKeyNames`) or any of
 * `alsoWords`, in any letter case: a cheap test of whether a file can hold a key position at all,
 * before anything in it is looked at. The text is lower-cased once and searched for the lower-cased
 * words in one scan (`createWordsTest`: the answer of `String#includes` for each word, without a
 * scan per absent word; a case-insensitive regular expression of the same words cost about twenty
 * times as much on real code, docs/performance.md). Lower-casing can only find more than that
 * expression did (a few non-ASCII letters lower-case to ASCII), never less, and the test only
 * decides whether a file is looked at. The answer for the last text is kept: every rule of a file
 * that shares the test asks about the same text.
 */
export function createKeyTextTest(extraKeyNames: readonly string[] = [], alsoWords: readonly string[] = []): (text: string) => boolean {
  const test = createWordsTest([...DEFAULT_KEY_NAMES, ...KEY_TEXT_WORDS, ...extraKeyNames, ...alsoWords].map((word) => word.toLowerCase()));
  return (text) => test(lowerCased(text));
}

/** The last text lower-cased: every rule of a file asks about the same text. */
let lastText: string | undefined;
let lastLower = '';
function lowerCased(text: string): string {
  if (text !== lastText) {
    lastText = text;
    lastLower = text.toLowerCase();
  }
  return lastLower;
}

/**
 * What else a file with a key position spells: the key family ({@link isKeyFamilyName}), an event or
 * message envelope's id field, a fallback to a fresh id (`id ?? randomUUID()`), and the durable
 * engines' key positions (keys/durableEngines.ts).
 */
const KEY_TEXT_WORDS = [...DURABLE_ENGINE_WORDS, 'idempotenc', 'dedup', 'delivery-id', 'eventId', 'event_id', 'messageId', 'message_id', '?? randomUUID', '|| randomUUID', '?? crypto.randomUUID', '|| crypto.randomUUID', '?? nanoid', '|| nanoid', '?? uuid', '|| uuid'];

const keyTextTests = new Map<string, (text: string) => boolean>();

/**
 * False when the file can hold no key position: it neither imports `@retrysafe/spec` nor spells
 * any key name (default or `extraKeyNames`) in any letter case, as a property, member, header
 * string or constant. A rule that only judges key positions then returns no listeners for the
 * file, which is most files of a large code base (docs/performance.md).
 */
export function mayHaveKeyPositions(sourceCode: Readonly<TSESLint.SourceCode>, extraKeyNames: readonly string[] = []): boolean {
  if (importsSpecPackage(sourceCode)) return true;
  const cacheKey = extraKeyNames.join('\n');
  let test = keyTextTests.get(cacheKey);
  if (!test) keyTextTests.set(cacheKey, (test = createKeyTextTest(extraKeyNames)));
  return test(sourceCode.text);
}
