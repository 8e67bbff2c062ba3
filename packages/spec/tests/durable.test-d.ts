import { describe, expectTypeOf, test } from 'vitest';
import { vouchDurable, type Durable, type DurableInput } from '../src/index.js';

describe('Durable<T>', () => {
  test('is the primitive plus a brand: usable as a string or number', () => {
    const id = vouchDurable('order-1');
    expectTypeOf(id).toEqualTypeOf<Durable<'order-1'>>();
    expectTypeOf(id).toExtend<string>();
    expectTypeOf(vouchDurable(42)).toExtend<number>();
    expectTypeOf(vouchDurable(42n)).toEqualTypeOf<Durable<42n>>();
  });

  test('cannot be made from a plain value without vouchDurable (no as-free forgery)', () => {
    // @ts-expect-error -- a plain string is not durable
    const fromString: Durable<string> = 'order-1';
    // @ts-expect-error -- a plain number is not durable
    const fromNumber: Durable<number> = 7;
    void fromString;
    void fromNumber;
  });

  test('vouchDurable takes only strings, numbers and bigints', () => {
    // @ts-expect-error -- a Date is not a durable primitive
    vouchDurable(new Date());
    // @ts-expect-error -- an object is not a durable primitive
    vouchDurable({ id: 'x' });
    // @ts-expect-error -- booleans are not key material
    vouchDurable(true);
  });
});

describe('DurableInput<I>', () => {
  interface RefundInput {
    orderId: string;
    amountCents: number;
    express: boolean;
    placedAt: Date;
    note?: string | undefined;
    customer: { id: string; tier: 'gold' | 'silver' };
    lines: { sku: string; quantity: number }[];
    pair: [string, number];
    total: bigint;
    nothing: null;
  }
  type Durabled = DurableInput<RefundInput>;

  test('brands string, number and bigint leaves, recursively', () => {
    expectTypeOf<Durabled['orderId']>().toEqualTypeOf<Durable<string>>();
    expectTypeOf<Durabled['amountCents']>().toEqualTypeOf<Durable<number>>();
    expectTypeOf<Durabled['total']>().toEqualTypeOf<Durable<bigint>>();
    expectTypeOf<Durabled['customer']['id']>().toEqualTypeOf<Durable<string>>();
    expectTypeOf<Durabled['customer']['tier']>().toEqualTypeOf<Durable<'gold'> | Durable<'silver'>>();
    expectTypeOf<Durabled['lines']>().toEqualTypeOf<
      readonly { readonly sku: Durable<string>; readonly quantity: Durable<number> }[]
    >();
    expectTypeOf<Durabled['pair']>().toEqualTypeOf<readonly [Durable<string>, Durable<number>]>();
  });

  test('keeps optionality, and leaves other leaves as they are', () => {
    expectTypeOf<Durabled['note']>().toEqualTypeOf<Durable<string> | undefined>();
    expectTypeOf<Durabled['express']>().toEqualTypeOf<boolean>();
    expectTypeOf<Durabled['placedAt']>().toEqualTypeOf<Date>();
    expectTypeOf<Durabled['nothing']>().toEqualTypeOf<null>();
  });

  test('is read-only all the way down', () => {
    const input = {} as Durabled;
    // @ts-expect-error -- the key function cannot change the input
    input.orderId = vouchDurable('other');
    // @ts-expect-error -- nested objects are read-only too
    input.customer.id = vouchDurable('other');
  });
});
