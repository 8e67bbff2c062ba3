/**
 * Fake payment providers for the tests. `count` is what landed (the effect); `calls` is how often
 * the provider was asked. The deduping ones remember keys as Stripe does, so a second call with
 * the same key returns the first refund instead of making another.
 */
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';

export interface Refund {
  readonly refundId: string;
  readonly orderId: string;
  readonly amountCents: number;
}

export interface FakeProvider {
  refund(orderId: string, amountCents: number, idempotencyKey?: string): Promise<Refund>;
  /** Effects that landed. */
  effects(): number;
  /** Calls received, with the key each carried. */
  calls(): string[];
}

/** In memory; dedupes by key when `dedupeByKey` (default true). */
export function memoryProvider(options: { dedupeByKey?: boolean } = {}): FakeProvider & {
  failNext(times: number, message?: string): void;
  hold(): { release(): void; started: Promise<void> };
} {
  const byKey = new Map<string, Refund>();
  const received: string[] = [];
  let landed = 0;
  let failures: { left: number; message: string } = { left: 0, message: '' };
  let gate: { wait: Promise<void>; started: () => void } | undefined;
  return {
    async refund(orderId, amountCents, idempotencyKey) {
      received.push(idempotencyKey ?? '');
      if (gate) {
        const current = gate;
        gate = undefined;
        current.started();
        await current.wait;
      }
      await new Promise((resolve) => setImmediate(resolve));
      if (failures.left > 0) {
        failures = { ...failures, left: failures.left - 1 };
        throw new Error(failures.message);
      }
      const existing = options.dedupeByKey !== false && idempotencyKey ? byKey.get(idempotencyKey) : undefined;
      if (existing) return existing;
      landed += 1;
      const refund = { refundId: `re_${landed}`, orderId, amountCents };
      if (idempotencyKey) byKey.set(idempotencyKey, refund);
      return refund;
    },
    effects: () => landed,
    calls: () => [...received],
    failNext(times, message = 'provider returned 503') {
      failures = { left: times, message };
    },
    // The next refund call waits until released: an effect "in progress".
    hold() {
      let release!: () => void;
      let started!: () => void;
      const startedPromise = new Promise<void>((resolve) => (started = resolve));
      gate = { wait: new Promise<void>((resolve) => (release = resolve)), started };
      return { release, started: startedPromise };
    },
  };
}

/** On disk, shared by processes (the crash test); always dedupes by key, atomically (O_EXCL). */
export function fileProvider(dir: string): FakeProvider {
  mkdirSync(join(dir, 'refunds'), { recursive: true });
  const callsFile = join(dir, 'calls.log');
  return {
    async refund(orderId, amountCents, idempotencyKey = '') {
      appendFileSync(callsFile, `${idempotencyKey}\n`);
      const file = join(dir, 'refunds', `${createHash('sha256').update(idempotencyKey).digest('hex')}.json`);
      const refund = { refundId: `re_${createHash('sha256').update(`${idempotencyKey}:${Date.now()}`).digest('hex').slice(0, 8)}`, orderId, amountCents };
      try {
        writeFileSync(file, JSON.stringify(refund), { flag: 'wx' });
        return refund;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        return JSON.parse(readFileSync(file, 'utf8')) as Refund;
      }
    },
    effects: () => readdirSync(join(dir, 'refunds')).length,
    calls: () => (existsSync(callsFile) ? readFileSync(callsFile, 'utf8').split('\n').filter(Boolean) : []),
  };
}
