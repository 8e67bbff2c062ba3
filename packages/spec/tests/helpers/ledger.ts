/**
 * A provider stand-in on 127.0.0.1 with an independent ledger: every refund it is asked for lands
 * (it does not dedupe, so a second effect cannot hide), and the ledger counts them. Processes
 * reach it over HTTP, so a killed agent process cannot lose its count.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LedgerEntry {
  readonly orderId: string;
  readonly amountCents: number;
  /** The `Idempotency-Key` header the caller sent. */
  readonly key: string | undefined;
}

export interface ProviderStandIn {
  readonly url: string;
  /** Refunds that landed, in order. */
  effects(): readonly LedgerEntry[];
  /** Resolves once `count` refunds have landed and been answered. */
  landed(count: number): Promise<void>;
  close(): Promise<void>;
}

/** Start the stand-in; `delayMs` is how long each refund takes before it lands and is answered. */
export async function startProviderStandIn(options: { readonly delayMs?: number } = {}): Promise<ProviderStandIn> {
  const ledger: LedgerEntry[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const server = createServer((request, response) => {
    void body(request).then(async (text) => {
      const { orderId, amountCents } = JSON.parse(text) as { orderId: string; amountCents: number };
      await new Promise((resolve) => setTimeout(resolve, options.delayMs ?? 0));
      const header = request.headers['idempotency-key'];
      ledger.push({ orderId, amountCents, key: typeof header === 'string' ? header : undefined });
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ refundId: `re_${ledger.length}`, orderId, amountCents }));
      for (const waiter of waiters.filter((w) => ledger.length >= w.count)) waiter.resolve();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/refunds`,
    effects: () => [...ledger],
    landed: (count) => (ledger.length >= count ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ count, resolve }))),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The client side, as a tool calls its provider: one POST, the key passed as `Idempotency-Key`. */
export async function refundAt(url: string, orderId: string, amountCents: number, key: string | undefined): Promise<{ refundId: string; orderId: string; amountCents: number }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key !== undefined ? { 'idempotency-key': key } : {}) },
    body: JSON.stringify({ orderId, amountCents }),
  });
  if (!response.ok) throw new Error(`provider answered ${response.status}`);
  return (await response.json()) as { refundId: string; orderId: string; amountCents: number };
}

function body(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => resolve(text));
    request.on('error', reject);
  });
}
