import { Linter } from 'eslint';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

import { hasMember, matchOperation } from '../../src/effects/index.js';
import { type EffectLibrary, effectLibrariesSchema } from '../../src/effects/index.js';
import { BUILT_IN_LIBRARIES } from '../../src/effects/index.js';
import plugin from '../../src/index.js';

const library = (name: string): EffectLibrary => {
  const found = BUILT_IN_LIBRARIES.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no library ${name}`);
  return found;
};

describe('the built-in catalogue', () => {
  it('is valid input for the `libraries` option (what users write has the same shape)', () => {
    const linter = new Linter({ configType: 'flat' });
    const rule = { meta: { schema: [{ type: 'object', properties: { libraries: effectLibrariesSchema }, additionalProperties: false }] }, create: () => ({}) };
    const config = {
      plugins: { test: { rules: { catalogue: rule } } },
      rules: { 'test/catalogue': ['error', { libraries: BUILT_IN_LIBRARIES }] },
    } as unknown as Linter.Config;
    expect(linter.verify('x;', config)).toEqual([]);
    const bad = { ...config, rules: { 'test/catalogue': ['error', { libraries: [{ name: 'x', modules: ['x'], clients: [], operations: [{ call: 'a', kind: 'sideways' }] }] }] } };
    expect(() => linter.verify('x;', bad as unknown as Linter.Config)).toThrow(/should be equal to one of the allowed values/);
  });

  // The schema's key slots and kind sources are `$ref`s to its own definitions, resolved against the
  // schema's `id`; the rules check `libraries` against it themselves (rules/utils/deepOptions.ts),
  // compiled once per process for all of them. Each rule that takes `libraries`, with the others
  // enabled in the same process, rejects a bad value behind every reference and accepts the built-in catalogue.
  it.each(['no-contradicted-policy', 'require-retry-policy', 'no-misleading-idempotent-hint'])('is checked behind its references by %s', (ruleName) => {
    const linter = new Linter({ configType: 'flat' });
    const withLibraries = (libraries: unknown) =>
      ({
        plugins: { '@retrysafe': plugin },
        rules: {
          '@retrysafe/no-contradicted-policy': 'error',
          '@retrysafe/require-retry-policy': 'error',
          '@retrysafe/no-misleading-idempotent-hint': 'error',
          [`@retrysafe/${ruleName}`]: ['error', { libraries }],
        },
      }) as unknown as Linter.Config;
    expect(linter.verify('x;', withLibraries(BUILT_IN_LIBRARIES))).toEqual([]);
    const operation = (op: object) => [{ name: 'x', modules: ['x'], clients: [], operations: [{ call: 'a', ...op }] }];
    const bad: [unknown, RegExp][] = [
      [operation({ from: { from: 'update', argument: 0, style: 'sideways' } }), /Value "sideways" should be equal to one of the allowed values/],
      [operation({ from: { from: 'sql', argument: -1 } }), /Value -1 should be >= 0/],
      [operation({ key: { header: 'Idempotency-Key', argument: 'one' } }), /Value "one" should be integer/],
      [operation({ chain: { merge: { from: 'http', method: '' } } }), /Value "" should NOT be shorter than 1 characters/],
      [[{ name: 'x', modules: ['x'], clients: [], operations: [{ call: 'a' }], commands: [{ name: 'C', kind: 'create', key: { property: [] } }] }], /Value \[\] should NOT have fewer than 1 items/],
    ];
    for (const [libraries, message] of bad) expect(() => linter.verify('x;', withLibraries(libraries))).toThrow(message);
  });

  it('names each module in one library only, so an import decides the library', () => {
    const seen = new Map<string, string>();
    for (const entry of BUILT_IN_LIBRARIES) {
      for (const module of entry.modules) {
        expect(seen.get(module), `${module} in ${entry.name} and ${seen.get(module)}`).toBeUndefined();
        seen.set(module, entry.name);
      }
    }
  });

  it('is documented: docs/effects.md names every library and module', () => {
    const doc = readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), '../../../../docs/effects.md'), 'utf8');
    for (const entry of BUILT_IN_LIBRARIES) {
      for (const module of entry.modules.filter((candidate) => candidate !== '<global>')) {
        const shown = module.replace(/\/\*$/, '');
        expect(doc.includes(shown), `${entry.name}: ${module} in docs/effects.md`).toBe(true);
      }
    }
  });

  it('says what every create does, for messages', () => {
    for (const entry of BUILT_IN_LIBRARIES) {
      for (const operation of [...entry.operations, ...(entry.commands ?? [])]) {
        if (operation.kind === 'create') expect(operation.does, `${entry.name} ${JSON.stringify(operation)}`).toBeTruthy();
      }
    }
  });
});

describe('matchOperation', () => {
  // [library, member path below the client, expected kind, members the operation takes]
  const rows: [string, string, string | undefined, number?][] = [
    ['Stripe', 'paymentIntents.create', 'create'],
    ['Stripe', 'treasury.outboundPayments.create', 'create'],
    ['Stripe', 'refunds.create.then', 'create', 2],
    ['Stripe', 'customers.update', 'absolute'],
    ['Stripe', 'customers.retrieve', 'read'],
    ['Stripe', 'paymentIntents.capture', 'write'],
    ['Stripe', 'subscriptions.cancel', 'absolute'],
    ['Stripe', 'customers.del', 'absolute'],
    ['Prisma', 'customer.update', 'write'],
    ['Prisma', 'customer.findUnique', 'read'],
    ['Prisma', '$executeRaw', 'unknown'],
    ['Drizzle', 'insert.values.onConflictDoUpdate', 'create', 1],
    ['Drizzle', 'query.users.findMany', 'read', 3],
    ['Knex', 'where.update.returning', 'write', 2],
    ['Knex', 'where.increment', 'relative', 2],
    ['ioredis', 'hincrby', 'relative'],
    ['redis', 'hIncrBy', 'relative'],
    ['redis', 'HSET', 'absolute'],
    ['fs', 'promises.appendFile', 'relative'],
    ['fs', 'writeFileSync', 'absolute'],
    ['fs', 'readFile', 'read'],
    ['fs', 'mkdtemp', 'create'],
    ['Octokit', 'rest.issues.create', 'create'],
    ['Octokit', 'rest.repos.createOrUpdateFileContents', 'absolute'],
    ['Octokit', 'rest.pulls.list', 'read'],
    ['Slack', 'chat.postMessage', 'create'],
    ['Twilio', 'messages.create', 'create'],
    ['Mongoose', 'new.save', 'create'],
    ['Mongoose', 'findById.save', 'read', 1],
    ['Notion', 'blocks.children.append', 'relative'],
    ['Stripe', 'paymentIntents.frobnicate', undefined],
    ['postgres', '', 'unknown', 0],
    ['postgres', 'unsafe', 'unknown', 1],
  ];
  for (const [name, path, kind, length] of rows) {
    it(`${name}: ${path || '(the client itself)'} → ${kind ?? 'no operation'}`, () => {
      const match = matchOperation(library(name), path === '' ? [] : path.split('.'));
      expect(match?.operation.kind).toBe(kind);
      if (length !== undefined) expect(match?.length).toBe(length);
    });
  }

  it('compares members without regard to case only for libraries that say so', () => {
    expect(hasMember(library('redis'), ['multi'], 'MULTI')).toBe(true);
    expect(hasMember(library('pg'), ['connect'], 'Connect')).toBe(false);
  });
});
