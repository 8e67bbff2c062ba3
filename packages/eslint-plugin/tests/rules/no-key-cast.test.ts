import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RuleTester } from '@typescript-eslint/rule-tester';

import rule from '../../src/rules/no-key-cast.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures');

const ruleTester = new RuleTester();

const importKey = `import type { DeterministicKey } from '@retrysafe/spec';`;
const importBrands = `import type { DeterministicKey, Durable } from '@retrysafe/spec';`;

ruleTester.run('no-key-cast', rule, {
  valid: [
    // --- not casts: nothing is forged ---
    {
      name: 'a key built with the key template from durable parts',
      code: `
import { key, type DeterministicKey } from '@retrysafe/spec';
const refundKey: DeterministicKey = key\`\${run.id}:\${input.orderId}:refund\`;
`,
    },
    {
      name: '`satisfies` checks the type and cannot forge a brand',
      code: `
${importKey}
const k = built satisfies DeterministicKey;
`,
    },
    {
      name: 'a definite assignment assertion is not a cast',
      code: `
${importKey}
let k!: DeterministicKey;
`,
    },
    {
      name: 'a non-null assertion on a key is not a cast',
      code: `
${importKey}
declare const maybeKey: DeterministicKey | undefined;
const k = maybeKey!;
`,
    },
    {
      name: 'a brand used as a type argument outside a cast',
      code: `
${importKey}
const byOrder = new Map<string, DeterministicKey>();
`,
    },

    // --- casts that do not name a brand ---
    {
      name: 'widening a key to string',
      code: `
${importKey}
declare const k: DeterministicKey;
const text = k as string;
`,
    },
    { name: '`as const`', code: `const parts = ['run', 'refund'] as const;` },
    { name: '`as unknown` alone', code: `const value = JSON.parse(raw) as unknown;` },
    {
      name: 'a cast to a type of @retrysafe/spec that is not a brand',
      code: `
import type { ToolPolicy } from '@retrysafe/spec';
const policy = JSON.parse(raw) as ToolPolicy;
`,
    },
    {
      // B18: `JSON.parse(saved) as Attempt` restores a record of the user's own.
      name: 'B18: JSON.parse cast to a record type of the user',
      code: `
type Attempt = { key: string; at: number };
const a = JSON.parse(saved) as Attempt;
`,
    },

    // --- a `DeterministicKey` that is not the brand ---
    {
      name: 'a type of the user that is also called DeterministicKey',
      code: `
type DeterministicKey = string & { readonly __brand: 'mine' };
const k = raw as DeterministicKey;
`,
    },
    {
      name: 'a DeterministicKey imported from another module',
      code: `
import type { DeterministicKey } from './keys.js';
const k = raw as DeterministicKey;
`,
    },
    {
      name: 'a Durable imported from another package',
      code: `
import type { Durable } from 'some-queue';
const job = raw as Durable<string>;
`,
    },
    {
      name: 'a type parameter shadows the imported brand',
      code: `
${importKey}
function parse<DeterministicKey>(raw: unknown) {
  return raw as DeterministicKey;
}
`,
    },
    {
      name: 'type aliases that refer to each other in a cycle end the search',
      code: `
type A = B;
type B = A;
const k = raw as A;
`,
    },

    // --- inside @retrysafe/spec ---
    {
      name: 'the package constructs its own brand',
      code: `
import type { DeterministicKey } from '@retrysafe/spec';
export function assertValidKey(value: string): DeterministicKey {
  return value as DeterministicKey;
}
`,
      filename: path.join(fixtures, 'retrysafe-spec/src/key.ts'),
    },
  ],
  invalid: [
    // --- the cast forms of the issue ---
    {
      name: '`as DeterministicKey`',
      code: `
${importKey}
const k = raw as DeterministicKey;
`,
      errors: [{ messageId: 'forgedKey', line: 3, column: 11, data: { target: '`DeterministicKey`' } }],
    },
    {
      // New-user trial: a target with a template literal type was quoted as `DeterministicKey & `order-${string}``.
      name: 'a target holding backticks (a template literal type) is quoted as a longer code span',
      code: `
${importKey}
const k = raw as DeterministicKey & \`order-\${string}\`;
`,
      errors: [{ messageId: 'forgedKey', line: 3, column: 11, data: { target: '`` DeterministicKey & `order-${string}` ``' } }],
    },
    {
      name: 'angle-bracket `<DeterministicKey>x`',
      code: `
${importKey}
const k = <DeterministicKey>raw;
`,
      errors: [{ messageId: 'forgedKey', line: 3, column: 11 }],
    },
    {
      name: '`as Durable<string>`',
      code: `
${importBrands}
const orderId = raw as Durable<string>;
`,
      errors: [{ messageId: 'forgedDurable', line: 3, column: 17, data: { target: '`Durable<string>`' } }],
    },
    {
      name: '`as unknown as DeterministicKey` is reported once, on the outer cast',
      code: `
${importKey}
const k = raw as unknown as DeterministicKey;
`,
      errors: [{ messageId: 'forgedKey', line: 3, column: 11 }],
    },
    {
      name: '`JSON.parse(...) as DeterministicKey`',
      code: `
${importKey}
const k = JSON.parse(saved) as DeterministicKey;
`,
      errors: [{ messageId: 'forgedKey', line: 3, column: 11 }],
    },
    {
      name: 'a random key cast to the brand',
      code: `
import { randomUUID } from 'node:crypto';
${importKey}
const k = randomUUID() as DeterministicKey;
`,
      errors: [{ messageId: 'forgedKey', line: 4, column: 11 }],
    },

    // --- how the brand is imported ---
    {
      name: 'an import alias: `import { DeterministicKey as K }`',
      code: `
import { type DeterministicKey as K } from '@retrysafe/spec';
const k = raw as K;
`,
      errors: [{ messageId: 'forgedKey', line: 3, column: 11, data: { target: '`K`' } }],
    },
    {
      name: 'a namespace import: `rs.DeterministicKey`',
      code: `
import * as rs from '@retrysafe/spec';
const k = raw as rs.DeterministicKey;
`,
      errors: [{ messageId: 'forgedKey', line: 3, column: 11 }],
    },
    {
      name: '`import rs = require(...)`',
      code: `
import rs = require('@retrysafe/spec');
const k = raw as rs.Durable<number>;
`,
      errors: [{ messageId: 'forgedDurable', line: 3, column: 11 }],
    },
    {
      name: "an import type: `import('@retrysafe/spec').DeterministicKey`",
      code: `const k = raw as import('@retrysafe/spec').DeterministicKey;`,
      errors: [{ messageId: 'forgedKey', line: 1, column: 11 }],
    },
    {
      name: 'a subpath of @retrysafe/spec',
      code: `
import type { DeterministicKey } from '@retrysafe/spec/key';
const k = raw as DeterministicKey;
`,
      errors: [{ messageId: 'forgedKey', line: 3, column: 11 }],
    },

    // --- types declared in the same file ---
    {
      name: 'a local type alias: `type K = DeterministicKey`',
      code: `
${importKey}
type K = DeterministicKey;
const k = raw as K;
`,
      errors: [{ messageId: 'forgedKey', line: 4, column: 11 }],
    },
    {
      name: 'an alias of an alias',
      code: `
${importBrands}
type OrderId = Durable<string>;
type RefundOrderId = OrderId;
const id = raw as RefundOrderId;
`,
      errors: [{ messageId: 'forgedDurable', line: 5, column: 12 }],
    },
    {
      name: 'a local interface with a key field',
      code: `
${importKey}
interface RefundRequest {
  orderId: string;
  idempotencyKey: DeterministicKey;
}
const request = body as RefundRequest;
`,
      errors: [{ messageId: 'forgedKey', line: 7, column: 17 }],
    },
    {
      name: 'a local interface that extends one with a key field',
      code: `
${importKey}
interface Keyed {
  idempotencyKey: DeterministicKey;
}
interface RefundRequest extends Keyed {
  orderId: string;
}
const request = body as RefundRequest;
`,
      errors: [{ messageId: 'forgedKey', line: 9, column: 17 }],
    },
    {
      name: 'a local generic alias given the brand as its argument',
      code: `
${importKey}
type Box<T> = { value: T };
const boxed = raw as Box<DeterministicKey>;
`,
      errors: [{ messageId: 'forgedKey', line: 4, column: 15 }],
    },

    // --- the brand inside a composite ---
    {
      name: 'an object type: `as { key: DeterministicKey }`',
      code: `
${importKey}
const row = JSON.parse(saved) as { key: DeterministicKey; attempts: number };
`,
      errors: [{ messageId: 'forgedKey', line: 3, column: 13, data: { target: '`{ key: DeterministicKey; attempts: number }`' } }],
    },
    {
      name: 'an array: `as DeterministicKey[]`',
      code: `
${importKey}
const keys = ids as DeterministicKey[];
`,
      errors: [{ messageId: 'forgedKey', line: 3, column: 14 }],
    },
    {
      name: 'a tuple',
      code: `
${importBrands}
const pair = raw as [Durable<string>, number];
`,
      errors: [{ messageId: 'forgedDurable', line: 3, column: 14 }],
    },
    {
      name: 'a utility type: `as Partial<{ key: DeterministicKey }>`',
      code: `
${importKey}
const patch = raw as Partial<{ key: DeterministicKey }>;
`,
      errors: [{ messageId: 'forgedKey', line: 3, column: 15 }],
    },
    {
      name: 'a union with undefined',
      code: `
${importKey}
const k = cached as DeterministicKey | undefined;
`,
      errors: [{ messageId: 'forgedKey', line: 3, column: 11 }],
    },
    {
      name: 'an intersection',
      code: `
${importKey}
const k = raw as DeterministicKey & { readonly scope: 'refund' };
`,
      errors: [{ messageId: 'forgedKey', line: 3, column: 11 }],
    },
    {
      name: 'a Promise of a key',
      code: `
${importKey}
const pending = fetchKey() as Promise<DeterministicKey>;
`,
      errors: [{ messageId: 'forgedKey', line: 3, column: 17 }],
    },
    {
      name: 'a function that returns a key',
      code: `
${importKey}
const makeKey = randomKey as () => DeterministicKey;
`,
      errors: [{ messageId: 'forgedKey', line: 3, column: 17 }],
    },
    {
      name: 'the target text is shortened to one line of at most 60 characters',
      code: `
${importKey}
const row = raw as {
  key: DeterministicKey;
  attemptsSoFar: number;
  firstAttemptAt: string;
};
`,
      errors: [
        {
          messageId: 'forgedKey',
          line: 3,
          column: 13,
          data: { target: '`{ key: DeterministicKey; attemptsSoFar: number; firstAttemp…`' },
        },
      ],
    },

    // --- where the cast sits ---
    {
      name: "in a tool's key function",
      code: `
import { defineTool, type DeterministicKey } from '@retrysafe/spec';
export const issueRefund = defineTool({
  name: 'issue_refund',
  key: ({ input }) => \`\${input.orderId}:\${Date.now()}\` as DeterministicKey,
});
`,
      errors: [{ messageId: 'forgedKey', line: 5, column: 23 }],
    },
    {
      name: 'in a default parameter',
      code: `
${importKey}
function refund(orderId: string, idempotencyKey = crypto.randomUUID() as DeterministicKey) {}
`,
      errors: [{ messageId: 'forgedKey', line: 3, column: 51 }],
    },
    {
      name: 'in a class field',
      code: `
${importKey}
class Refunder {
  private readonly key = String(Math.random()) as DeterministicKey;
}
`,
      errors: [{ messageId: 'forgedKey', line: 4, column: 26 }],
    },
    {
      name: 'two casts, two reports',
      code: `
${importBrands}
const a = raw as DeterministicKey, b = raw as Durable<number>;
`,
      errors: [
        { messageId: 'forgedKey', line: 3, column: 11 },
        { messageId: 'forgedDurable', line: 3, column: 40 },
      ],
    },
  ],
});
