// Stand-ins for the systems the tools talk to, each failing in the way real ones do.

/** A refund as the payment provider records it. */
export interface Refund {
  readonly refundId: string;
  readonly orderId: string;
  readonly amountCents: number;
}

/**
 * A payment provider that dedupes by idempotency key (as Stripe does) and answers 503 to its
 * first `outages` calls: the request may fail before or after the provider acts.
 */
export class PaymentProvider {
  readonly refunds: Refund[] = [];
  readonly callsWithKey: string[] = [];
  readonly #byKey = new Map<string, Refund>();
  #outages: number;

  constructor(outages = 0) {
    this.#outages = outages;
  }

  async refund(orderId: string, amountCents: number, options: { idempotencyKey: string }): Promise<Refund> {
    this.callsWithKey.push(options.idempotencyKey);
    if (this.#outages > 0) {
      this.#outages -= 1;
      throw new Error('payment provider answered 503 Service Unavailable');
    }
    const earlier = this.#byKey.get(options.idempotencyKey);
    if (earlier) return earlier;
    const refund = { refundId: `re_${this.refunds.length + 1}`, orderId, amountCents };
    this.refunds.push(refund);
    this.#byKey.set(options.idempotencyKey, refund);
    return refund;
  }
}

/** The shop's orders; the search times out on its first `timeouts` calls. */
export class OrderSearch {
  #timeouts: number;

  constructor(timeouts = 0) {
    this.#timeouts = timeouts;
  }

  async byCustomer(customerEmail: string): Promise<{ orderId: string; totalCents: number }[]> {
    if (this.#timeouts > 0) {
      this.#timeouts -= 1;
      throw new Error('order search timed out after 2 s');
    }
    return customerEmail === 'ada@example.test' ? [{ orderId: 'ord_1001', totalCents: 4_200 }] : [];
  }
}

/** A loyalty ledger that adds points (a relative write) and then may lose the connection. */
export class LoyaltyLedger {
  readonly points = new Map<string, number>();
  readonly #failAfterWrite: boolean;

  constructor(failAfterWrite = false) {
    this.#failAfterWrite = failAfterWrite;
  }

  async add(customerEmail: string, points: number): Promise<{ balance: number }> {
    const balance = (this.points.get(customerEmail) ?? 0) + points;
    this.points.set(customerEmail, balance);
    if (this.#failAfterWrite) throw new Error('connection reset after the ledger accepted the write');
    return { balance };
  }
}

/** Everything the tools need. */
export interface Services {
  readonly payments: PaymentProvider;
  readonly orders: OrderSearch;
  readonly loyalty: LoyaltyLedger;
}
