/**
 * A provider stand-in on 127.0.0.1 with an independent ledger: every refund it is asked for lands
 * (by default it does not dedupe, so a second effect cannot hide), and the ledger counts them.
 * Processes reach it over HTTP, so a killed agent or server process cannot lose its count. With
 * `dedupeByKey` it behaves as Stripe does: a repeated `Idempotency-Key` gets the first refund back
 * and lands nothing.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LedgerEntry {
  readonly orderId: string;
  readonly amountCents: number;
  /** The `Idempotency-Key` header the caller sent. */
  readonly key: string | undefined;
}

export interface ProviderStandInOptions {
  /** How long each refund takes before it lands and is answered, ms. */
  readonly delayMs?: number;
  /** Answer a repeated `Idempotency-Key` with the first refund, landing nothing (default false). */
  readonly dedupeByKey?: boolean;
  /** Runs when a request arrives, before anything lands (a test kills the caller here). */
  readonly onRequest?: () => void;
}

export interface ProviderStandIn {
  readonly url: string;
  /** Refunds that landed, in order. */
  effects(): readonly LedgerEntry[];
  /** The `Idempotency-Key` of every request received, landed or not, in order. */
  requests(): readonly (string | undefined)[];
  /** Resolves once `count` refunds have landed and been answered. */
  landed(count: number): Promise<void>;
  /** Answer the next `count` requests with a 503, landing nothing. */
  failNext(count: number): void;
  close(): Promise<void>;
}

type Refund = { refundId: string; orderId: string; amountCents: number };

/** Start the stand-in; see {@link ProviderStandInOptions}. */
export async function startProviderStandIn(options: ProviderStandInOptions = {}): Promise<ProviderStandIn> {
  const ledger: LedgerEntry[] = [];
  const received: (string | undefined)[] = [];
  const byKey = new Map<string, Refund>();
  const waiters: { count: number; resolve: () => void }[] = [];
  let failures = 0;
  const server = createServer((request, response) => {
    void body(request).then(async (text) => {
      const { orderId, amountCents } = JSON.parse(text) as { orderId: string; amountCents: number };
      const header = request.headers['idempotency-key'];
      const key = typeof header === 'string' ? header : undefined;
      received.push(key);
      options.onRequest?.();
      if (failures > 0) {
        failures -= 1;
        return void response.writeHead(503).end();
      }
      await new Promise((resolve) => setTimeout(resolve, options.delayMs ?? 0));
      let refund = options.dedupeByKey === true && key !== undefined ? byKey.get(key) : undefined;
      if (refund === undefined) {
        ledger.push({ orderId, amountCents, key });
        refund = { refundId: `re_${ledger.length}`, orderId, amountCents };
        if (key !== undefined) byKey.set(key, refund);
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(refund));
      for (const waiter of waiters.filter((w) => ledger.length >= w.count)) waiter.resolve();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/refunds`,
    effects: () => [...ledger],
    requests: () => [...received],
    landed: (count) => (ledger.length >= count ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ count, resolve }))),
    failNext: (count) => void (failures += count),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The client side, as a tool calls its provider: one POST, the key passed as `Idempotency-Key`. */
export async function refundAt(url: string, orderId: string, amountCents: number, key: string | undefined): Promise<Refund> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key !== undefined ? { 'idempotency-key': key } : {}) },
    body: JSON.stringify({ orderId, amountCents }),
  });
  if (!response.ok) throw new Error(`provider answered ${response.status}`);
  return (await response.json()) as Refund;
}

function body(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => resolve(text));
    request.on('error', reject);
  });
}
