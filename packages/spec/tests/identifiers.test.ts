/**
 * Issue 13, item 3: identifiers a store cannot hold exactly (an unpaired UTF-16 surrogate, U+0000)
 * are refused with InvalidIdentifierError before anything runs, on every store alike, and the
 * record's fingerprint covers the namespace and the tool, so that a store conflating two
 * namespaces answers KeyReuseError instead of replaying one tenant's result to another.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InvalidIdentifierError, KeyReuseError, StoreUnavailableError } from '../src/errors.js';
import { assertStorableIdentifier, key } from '../src/key.js';
import { decideRetry } from '../src/retry.js';
import { createRunner } from '../src/runner.js';
import { openRun } from '../src/runs.js';
import { createNonDurableMemoryStore } from '../src/stores/memory.js';
import type { DedupStore, RecordId } from '../src/stores/types.js';
import { defineTool } from '../src/tool.js';
import { memoryProvider } from './helpers/provider.js';
import { openStoreFor, storesUnderTest } from './helpers/stores.js';
import { freshRun, rawKeyTool, refundTool } from './helpers/tools.js';

// What each store's driver would do with them: PostgreSQL and SQLite encode a lone surrogate as
// U+FFFD; PostgreSQL refuses U+0000 in text; Redis's key encoding throws on a lone surrogate.
const UNSTORABLE: readonly [string, string][] = [
  ['a lone low surrogate', 'acme\uDC00'],
  ['a lone high surrogate', 'acme\uD800'],
  ['a high surrogate at the end', 'acme\uD83D'],
  ['reversed surrogates', 'acme\uDE00\uD83D'],
  ['U+0000', 'acme\u0000'],
];

describe('assertStorableIdentifier', () => {
  it.each(UNSTORABLE)('refuses %s', (_, value) => {
    expect(() => assertStorableIdentifier('namespace', value)).toThrow(InvalidIdentifierError);
  });

  it('accepts well-formed text, astral characters and U+FFFD included', () => {
    for (const value of ['', 'acme', 'acme\uFFFD', 'tenant-😀', 'ünïcödé', 'a:b/c%d']) {
      expect(assertStorableIdentifier('namespace', value)).toBe(value);
    }
  });

  it('names the field and the offending character', () => {
    const error = (() => {
      try {
        assertStorableIdentifier('key', 'run_1:\uDC00');
      } catch (e) {
        return e as InvalidIdentifierError;
      }
      return undefined;
    })();
    expect(error).toMatchObject({ code: 'invalid_identifier', field: 'key', value: 'run_1:\uDC00' });
    expect(error?.reason).toBe('an unpaired UTF-16 surrogate (U+DC00) at index 6');
  });
});

describe.each(storesUnderTest())('identifiers on the $name store', (subject) => {
  let store: DedupStore;
  const openStore = openStoreFor(subject, { beforeAll, afterAll });
  beforeEach(() => {
    store = openStore();
  });

  // The example: on PostgreSQL the second tenant was replayed the first tenant's result.
  it('refuses namespace "acme\\uDC00" after "acme\\uFFFD" completed: a typed error, the second tenant never replayed', async () => {
    const provider = memoryProvider({ dedupeByKey: false });
    const tool = refundTool(provider);
    const run = freshRun();
    const runner = createRunner({ store });
    const first = await runner.call(tool, { orderId: 'o_1', amountCents: 500 }, { run, namespace: 'acme\uFFFD' });
    expect(first.replayed).toBe(false);
    const second = await runner.tryCall(tool, { orderId: 'o_1', amountCents: 500 }, { run, namespace: 'acme\uDC00' });
    expect(second.ok).toBe(false);
    const error = second.ok ? undefined : second.error;
    expect(error).toBeInstanceOf(InvalidIdentifierError);
    expect(error).not.toBeInstanceOf(StoreUnavailableError);
    expect(error).toMatchObject({ code: 'invalid_identifier', field: 'namespace' });
    expect(second.ok ? undefined : decideRetry(tool.policy, second).reason).not.toMatch(/unavailable/);
    expect(provider.effects()).toBe(1);
  });

  it.each(UNSTORABLE)('refuses %s in a namespace, a tool name or a key, before the effect runs', async (_, bad) => {
    const effects = { count: 0 };
    const run = freshRun();
    const runner = createRunner({ store });
    await expect(runner.call(rawKeyTool(effects), { ticketKey: `t_${bad}` }, { run })).rejects.toMatchObject({ code: 'invalid_identifier', field: 'key' });
    await expect(runner.call(rawKeyTool(effects), { ticketKey: 'fine' }, { run, namespace: bad })).rejects.toMatchObject({ code: 'invalid_identifier', field: 'namespace' });
    const badName = defineTool({
      name: `create_ticket_${bad}`,
      sideEffects: 'internal_write',
      idempotent: 'with_key',
      retry: 'safe_with_same_key',
      input: z.object({ ticketKey: z.string() }),
      key: ({ input }) => key`${input.ticketKey}`,
      execute: async () => (effects.count += 1),
    });
    await expect(runner.call(badName, { ticketKey: 'fine' }, { run })).rejects.toMatchObject({ code: 'invalid_identifier', field: 'tool' });
    expect(() => createRunner({ store, namespace: bad })).toThrow(InvalidIdentifierError);
    await expect(openRun(store, { kind: 'job', id: `job_${bad}` })).rejects.toMatchObject({ code: 'invalid_identifier', field: 'origin' });
    await expect(openRun(store, { kind: 'job', id: 'job_1' }, { namespace: bad })).rejects.toMatchObject({ code: 'invalid_identifier', field: 'namespace' });
    expect(effects.count).toBe(0);
  });

  it('refuses before the store is touched: an unreachable store still answers InvalidIdentifierError', async () => {
    const unreachable = subject.unreachable();
    const effects = { count: 0 };
    const runner = createRunner({ store: unreachable });
    await expect(runner.call(rawKeyTool(effects), { ticketKey: 'fine' }, { run: freshRun(), namespace: 'acme\uDC00' })).rejects.toBeInstanceOf(InvalidIdentifierError);
    await unreachable.close();
    expect(effects.count).toBe(0);
  });

  it('keeps an error message with U+0000 or a lone surrogate in the history, alike on every store', async () => {
    const run = freshRun();
    let calls = 0;
    const failing = defineTool({
      name: 'send_note',
      sideEffects: 'message_out',
      idempotent: 'with_key',
      retry: 'safe_with_same_key',
      input: z.object({ noteId: z.string() }),
      key: ({ run: r, input }) => key`${r.id}:${input.noteId}:note`,
      execute: async () => {
        calls += 1;
        if (calls === 1) throw new Error('bad byte \u0000 and \uDC00 here');
        return { sent: true };
      },
    });
    const runner = createRunner({ store });
    await expect(runner.call(failing, { noteId: 'n_1' }, { run })).rejects.toThrow('bad byte');
    const record = await runner.recordFor(failing, { noteId: 'n_1' }, { run });
    expect(record?.errors.at(-1)?.message).toBe('bad byte \uFFFD and \uFFFD here');
    expect(record?.owner).toBeUndefined(); // released, not left locked because the store refused the text
    await expect(runner.call(failing, { noteId: 'n_1' }, { run })).resolves.toMatchObject({ result: { sent: true }, attempt: 2 });
  });
});

describe('the record fingerprint covers the namespace and the tool', () => {
  // A store that conflates namespaces, as a case-insensitive collation would (MySQL's default).
  function caseInsensitiveStore(): DedupStore {
    const inner = createNonDurableMemoryStore();
    const fold = <T extends RecordId>(id: T): T => ({ ...id, namespace: id.namespace.toLowerCase() });
    return { ...inner, claim: (request) => inner.claim(fold(request)), get: (id, now) => inner.get(fold(id), now) };
  }

  it("answers KeyReuseError rather than replaying tenant ACME's result to tenant acme", async () => {
    const provider = memoryProvider({ dedupeByKey: false });
    const tool = refundTool(provider);
    const run = freshRun();
    const runner = createRunner({ store: caseInsensitiveStore() });
    await runner.call(tool, { orderId: 'o_1', amountCents: 500 }, { run, namespace: 'ACME' });
    const other = await runner.tryCall(tool, { orderId: 'o_1', amountCents: 500 }, { run, namespace: 'acme' });
    expect(other).toMatchObject({ ok: false, error: expect.any(KeyReuseError) });
    expect(provider.effects()).toBe(1);
  });

  it('differs between two namespaces and two tools for one input', async () => {
    const { recordFingerprint, fingerprint } = await import('../src/fingerprint.js');
    const input = { orderId: 'o_1' };
    const prints = new Set([
      recordFingerprint({ namespace: 'a', tool: 't' }, input),
      recordFingerprint({ namespace: 'b', tool: 't' }, input),
      recordFingerprint({ namespace: 'a', tool: 'u' }, input),
      fingerprint(input),
    ]);
    expect(prints.size).toBe(4);
    // Canonical: key order and number spelling still do not matter.
    expect(recordFingerprint({ namespace: 'a', tool: 't' }, { b: 2, a: 1.0 })).toBe(recordFingerprint({ namespace: 'a', tool: 't' }, { a: 1, b: 2 }));
  });
});
