// Stand-ins for the systems the tools talk to. The payment provider and the mailer dedupe by
// idempotency key, as Stripe and most mail APIs do, so the example can show the key passed downstream.

/** A refund as the payment provider records it. */
export interface Refund {
  readonly refundId: string;
  readonly orderId: string;
  readonly amountCents: number;
}

/** A payment provider that accepts an idempotency key on every write (like Stripe). */
export class PaymentProvider {
  readonly refunds: Refund[] = [];
  readonly #byKey = new Map<string, Refund>();

  async refund(orderId: string, amountCents: number, options: { idempotencyKey: string }): Promise<Refund> {
    const earlier = this.#byKey.get(options.idempotencyKey);
    if (earlier) return earlier;
    const refund = { refundId: `re_${this.refunds.length + 1}`, orderId, amountCents };
    this.refunds.push(refund);
    this.#byKey.set(options.idempotencyKey, refund);
    return refund;
  }
}

/** An email as the mailer sent it. */
export interface SentEmail {
  readonly messageId: string;
  readonly to: string;
  readonly subject: string;
}

/** A mailer that dedupes sends by the `Idempotency-Key` header. */
export class Mailer {
  readonly sent: SentEmail[] = [];
  readonly #byKey = new Map<string, SentEmail>();

  async send(to: string, subject: string, body: string, headers: Record<string, string>): Promise<SentEmail> {
    const idempotencyKey = headers['Idempotency-Key'];
    const earlier = idempotencyKey === undefined ? undefined : this.#byKey.get(idempotencyKey);
    if (earlier) return earlier;
    const email = { messageId: `<${this.sent.length + 1}.${body.length}@mail.example.test>`, to, subject };
    this.sent.push(email);
    if (idempotencyKey !== undefined) this.#byKey.set(idempotencyKey, email);
    return email;
  }
}

/** An order in the shop's own database. */
export interface Order {
  readonly orderId: string;
  readonly customerEmail: string;
  readonly totalCents: number;
  status: 'placed' | 'shipped' | 'refunded' | 'cancelled';
  notes: string[];
}

/** The shop's order table. */
export class OrderDatabase {
  readonly #orders = new Map<string, Order>();

  constructor(orders: Order[] = []) {
    for (const order of orders) this.#orders.set(order.orderId, order);
  }

  get(orderId: string): Order | undefined {
    return this.#orders.get(orderId);
  }

  search(customerEmail: string): Order[] {
    return [...this.#orders.values()].filter((order) => order.customerEmail === customerEmail);
  }

  setStatus(orderId: string, status: Order['status']): Order {
    const order = this.#orders.get(orderId);
    if (!order) throw new Error(`No order ${orderId}`);
    order.status = status;
    return order;
  }
}

/** The services one agent deployment uses. */
export interface Services {
  readonly payments: PaymentProvider;
  readonly mailer: Mailer;
  readonly orders: OrderDatabase;
}

/** Fresh services with two orders, for the demo and the tests. */
export function createServices(): Services {
  return {
    payments: new PaymentProvider(),
    mailer: new Mailer(),
    orders: new OrderDatabase([
      { orderId: 'ord_1001', customerEmail: 'ada@example.test', totalCents: 4200, status: 'placed', notes: [] },
      { orderId: 'ord_1002', customerEmail: 'ada@example.test', totalCents: 1300, status: 'shipped', notes: [] },
    ]),
  };
}
