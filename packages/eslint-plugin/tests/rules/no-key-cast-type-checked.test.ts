import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RuleTester } from '@typescript-eslint/rule-tester';

import rule from '../../src/rules/no-key-cast-type-checked.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures');

// tests/fixtures/tsconfig.json includes file.ts (and every *.ts there), so the project service finds
// it; `allowDefaultProject: ['*.ts*']` would then be refused ("also was found in the project service").
const ruleTester = new RuleTester({
  languageOptions: {
    parserOptions: {
      projectService: true,
      tsconfigRootDir: fixtures,
    },
  },
});

// Five lines: a test's own code starts on line 6. The aliases live in
// tests/fixtures/no-key-cast-aliases.ts; `@retrysafe/spec` maps to tests/fixtures/retrysafe-spec.
const prelude = `
import type { DeterministicKey, Durable, RunContext } from '@retrysafe/spec';
import type { DurableOrderId, Keyed, OrderKey, ReexportedKey, RefundRequest, Scoped } from './no-key-cast-aliases.js';
declare const raw: string;
declare const orderKey: OrderKey;
`;

ruleTester.run('no-key-cast-type-checked', rule, {
  valid: [
    // --- left to no-key-cast, which reports a brand the cast spells ---
    { name: '`as DeterministicKey` (no-key-cast reports it)', code: `${prelude}const k = raw as DeterministicKey;` },
    { name: '`as Durable<string>` (no-key-cast reports it)', code: `${prelude}const id = raw as Durable<string>;` },
    {
      name: '`as { key: DeterministicKey }` (no-key-cast reports it)',
      code: `${prelude}const row = JSON.parse(raw) as { key: DeterministicKey };`,
    },

    // --- no-op casts: the value already carries the brand ---
    { name: 'a DeterministicKey cast to an alias of it', code: `${prelude}const k = orderKey as ReexportedKey;` },
    {
      name: 'a key that may be undefined cast to the key',
      code: `${prelude}declare const cached: OrderKey | undefined;\nconst k = cached as OrderKey;`,
    },
    {
      name: 'an object whose key field already is a key',
      code: `${prelude}declare const row: { key: DeterministicKey; note: string };\nconst r = row as { key: OrderKey; note: string };`,
    },
    {
      name: 'a request cast to a partial of itself',
      code: `${prelude}declare const request: RefundRequest;\nconst patch = request as Partial<RefundRequest>;`,
    },
    { name: 'keys cast to a readonly array of keys', code: `${prelude}declare const keys: OrderKey[];\nconst r = keys as readonly OrderKey[];` },

    {
      name: 'an object that may be undefined, whose key field already is a key',
      code: `${prelude}declare const row: { key: DeterministicKey } | undefined;\nconst r = row as { key: OrderKey } | undefined;`,
    },

    // --- nothing supplied where the target allows nothing ---
    { name: 'an empty array cast to an array of keys', code: `${prelude}const keys = [] as OrderKey[];` },
    { name: 'an empty object cast to a record of keys', code: `${prelude}const byOrder = {} as Record<string, OrderKey>;` },
    { name: 'an empty object cast to a partial request', code: `${prelude}const patch = {} as Partial<RefundRequest>;` },

    // --- casts that carry no brand ---
    { name: 'widening a key to string', code: `${prelude}const text = orderKey as string;` },
    { name: '`as const`', code: `${prelude}const parts = ['run', 'refund'] as const;` },
    { name: 'a DOM type', code: `${prelude}declare const node: Element;\nconst el = node as HTMLElement;` },
    {
      name: 'a brand of the user that is built and named like retrysafe’s',
      code: `${prelude}import type { DeterministicKey as OwnKey } from './no-key-cast-own-brand.js';\nconst k = raw as OwnKey;`,
    },
    { name: '`as any` where no brand is expected', code: `${prelude}const text: string = JSON.parse(raw) as any;` },
    {
      name: '`satisfies` after `as any` gives an any, not a key',
      code: `${prelude}const value = (raw as any) satisfies OrderKey;`,
    },

    // --- inside @retrysafe/spec ---
    {
      name: 'the package constructs its own brand through an alias',
      code: `
import type { DeterministicKey } from './key.js';
type Key = DeterministicKey;
export function assertValidKey(value: string): Key {
  return value as Key;
}
`,
      // A file of the stand-in package, whose package.json is named @retrysafe/spec.
      filename: path.join(fixtures, 'retrysafe-spec/src/assert.ts'),
    },
  ],
  invalid: [
    // --- aliases in another module, whatever their names ---
    {
      name: '`type OrderKey = DeterministicKey` in another module',
      code: `${prelude}const k = raw as OrderKey;`,
      errors: [{ messageId: 'forgedKey', line: 6, column: 11, data: { target: '`OrderKey`' } }],
    },
    {
      name: 'a re-export under another name',
      code: `${prelude}const k = raw as ReexportedKey;`,
      errors: [{ messageId: 'forgedKey', line: 6, column: 11 }],
    },
    {
      name: 'a Durable alias in another module',
      code: `${prelude}const id = raw as DurableOrderId;`,
      errors: [{ messageId: 'forgedDurable', line: 6, column: 12, data: { target: '`DurableOrderId`' } }],
    },
    {
      name: '`as unknown as OrderKey` is reported once, on the outer cast',
      code: `${prelude}const k = raw as unknown as OrderKey;`,
      errors: [{ messageId: 'forgedKey', line: 6, column: 11 }],
    },
    {
      name: '`JSON.parse(...) as OrderKey`',
      code: `${prelude}const k = JSON.parse(raw) as OrderKey;`,
      errors: [{ messageId: 'forgedKey', line: 6, column: 11 }],
    },
    {
      name: 'angle-bracket `<OrderKey>x`',
      code: `${prelude}const k = <OrderKey>raw;`,
      errors: [{ messageId: 'forgedKey', line: 6, column: 11 }],
    },

    {
      name: '`as never as OrderKey` is reported on the outer cast',
      code: `${prelude}const k = raw as never as OrderKey;`,
      errors: [{ messageId: 'forgedKey', line: 6, column: 11 }],
    },

    // --- generics, intersections and composites ---
    {
      name: 'a generic alias with the key as a field',
      code: `${prelude}const entry = JSON.parse(raw) as Keyed<number>;`,
      errors: [{ messageId: 'forgedKey', line: 6, column: 15 }],
    },
    {
      name: 'an intersection built by a generic',
      code: `${prelude}const k = raw as Scoped<OrderKey, 'refund'>;`,
      errors: [{ messageId: 'forgedKey', line: 6, column: 11 }],
    },
    {
      name: 'an interface from another module whose field is a key',
      code: `${prelude}declare const body: { orderId: string; idempotencyKey: string };\nconst request = body as RefundRequest;`,
      errors: [{ messageId: 'forgedKey', line: 7, column: 17 }],
    },
    {
      name: 'an object without the required key field cast to a request',
      code: `${prelude}const request = { orderId: 'o-1' } as RefundRequest;`,
      errors: [{ messageId: 'forgedKey', line: 6, column: 17 }],
    },
    {
      name: "a type of @retrysafe/spec with a durable field: `as RunContext`",
      code: `${prelude}const run = { id: raw } as RunContext;`,
      errors: [{ messageId: 'forgedDurable', line: 6, column: 13, data: { target: '`RunContext`' } }],
    },
    {
      name: 'an array of an alias',
      code: `${prelude}declare const ids: string[];\nconst orderIds = ids as DurableOrderId[];`,
      errors: [{ messageId: 'forgedDurable', line: 7, column: 18 }],
    },
    {
      name: 'a Promise of an alias',
      code: `${prelude}declare const pending: Promise<string>;\nconst k = pending as Promise<OrderKey>;`,
      errors: [{ messageId: 'forgedKey', line: 7, column: 11 }],
    },
    {
      name: 'a record of an alias',
      code: `${prelude}const byOrder = { 'o-1': raw } as Record<string, OrderKey>;`,
      errors: [{ messageId: 'forgedKey', line: 6, column: 17 }],
    },
    {
      name: 'a partial of an interface whose field is a key',
      code: `${prelude}const patch = { idempotencyKey: raw } as Partial<RefundRequest>;`,
      errors: [{ messageId: 'forgedKey', line: 6, column: 15 }],
    },
    {
      name: 'a function returning an alias',
      code: `${prelude}const makeKey = (() => raw) as () => OrderKey;`,
      errors: [{ messageId: 'forgedKey', line: 6, column: 17 }],
    },
    {
      name: 'a string that is only partly a key',
      code: `${prelude}declare const either: string | OrderKey;\nconst k = either as OrderKey;`,
      errors: [{ messageId: 'forgedKey', line: 7, column: 11 }],
    },

    // --- brands the syntax cannot see ---
    {
      name: '`as typeof` an existing key',
      code: `${prelude}const k = raw as typeof orderKey;`,
      errors: [{ messageId: 'forgedKey', line: 6, column: 11, data: { target: '`typeof orderKey`' } }],
    },
    {
      name: 'a type parameter constrained to a key',
      code: `${prelude}function make<K extends OrderKey>(value: string): K {\n  return value as K;\n}`,
      errors: [{ messageId: 'forgedKey', line: 7, column: 10 }],
    },
    {
      name: 'an indexed access type',
      code: `${prelude}const k = raw as RefundRequest['idempotencyKey'];`,
      errors: [{ messageId: 'forgedKey', line: 6, column: 11 }],
    },

    // --- `any` and `never` where a brand is expected ---
    {
      name: '`as any` assigned to a DeterministicKey',
      code: `${prelude}const k: DeterministicKey = raw as any;`,
      errors: [{ messageId: 'forgedKey', line: 6, column: 29, data: { target: '`any`' } }],
    },
    {
      name: '`as never` passed where a key is expected',
      code: `${prelude}declare function refund(orderId: string, idempotencyKey: OrderKey): void;\nrefund('o-1', raw as never);`,
      errors: [{ messageId: 'forgedKey', line: 7, column: 15 }],
    },
    {
      name: '`as any` returned from a function that returns a Durable',
      code: `${prelude}function orderIdOf(): Durable<string> {\n  return raw as any;\n}`,
      errors: [{ messageId: 'forgedDurable', line: 7, column: 10 }],
    },
    {
      name: '`as any` in an object literal typed as a request',
      code: `${prelude}const request: RefundRequest = { orderId: 'o-1', idempotencyKey: raw as any };`,
      errors: [{ messageId: 'forgedKey', line: 6, column: 66 }],
    },
  ],
});
