// Wrong shapes of the runner's and the stores' arguments throw TypeError where the call is
// written (docs/runtime.md), before anything runs or connects; found by a new-user trial, where
// each of these was accepted and failed later with "Cannot read properties of undefined", a
// StoreUnavailableError naming PostgreSQL, or records written to the default file.
import { describe, expect, it } from 'vitest';
import { createRunner } from '../src/runner.js';
import { createNonDurableMemoryStore } from '../src/stores/memory.js';
import { createPostgresStore } from '../src/stores/postgres.js';
import { createRedisStore } from '../src/stores/redis.js';
import { createSqliteStore } from '../src/stores/sqlite.js';
import { memoryProvider } from './helpers/provider.js';
import { freshRun, refundTool } from './helpers/tools.js';

describe('createRunner', () => {
  it.each([
    ['no options', undefined],
    ['no store', {}],
    ['an object that is not a store', { store: {} }],
    ['a store factory instead of a store', { store: createSqliteStore }],
  ])('refuses %s with a TypeError naming the store factories', (_, options) => {
    expect(() => createRunner(options as never)).toThrow(/createRunner needs \{ store \}: a dedup store from createSqliteStore/);
  });

  it("names the memory store's import path, which no other store shares (new-user trial 5)", () => {
    expect(() => createRunner({} as never)).toThrow('or createNonDurableMemoryStore (@retrysafe/spec/stores/memory) for tests');
  });

  it('refuses a namespace that is not a string', () => {
    expect(() => createRunner({ store: createNonDurableMemoryStore(), namespace: 42 as never })).toThrow(TypeError);
  });

  it('refuses call and tryCall without a run, before the effect runs', async () => {
    const provider = memoryProvider({ dedupeByKey: false });
    const runner = createRunner({ store: createNonDurableMemoryStore() });
    const tool = refundTool(provider);
    const input = { orderId: 'o_1', amountCents: 100 };
    await expect(runner.call(tool, input, undefined as never)).rejects.toThrow(/runner\.call\(issue_refund, input, \{ run \}\) needs the call's run/);
    await expect(runner.tryCall(tool, input, {} as never)).rejects.toThrow(TypeError);
    await expect(runner.call(tool, input, { run: 'run_1' } as never)).rejects.toThrow(TypeError);
    expect(provider.effects()).toBe(0);
    // The right shape runs it.
    await expect(runner.call(tool, input, { run: freshRun() })).resolves.toMatchObject({ replayed: false });
    expect(provider.effects()).toBe(1);
  });
});

describe('the store factories', () => {
  it('createSqliteStore refuses a path given as a bare string, or a path that is not a string', () => {
    expect(() => createSqliteStore('mystring.db' as never)).toThrow(/takes an options object/);
    expect(() => createSqliteStore({ path: 42 as never })).toThrow(/path must be a file path string/);
  });

  it('createPostgresStore refuses a connectionString that is not a string', () => {
    expect(() => createPostgresStore({ connectionString: 42 as never })).toThrow(/connectionString must be a string/);
  });

  it('createRedisStore refuses a url that is not a string', () => {
    expect(() => createRedisStore({ url: 6379 as never })).toThrow(/url must be a string/);
  });
});
