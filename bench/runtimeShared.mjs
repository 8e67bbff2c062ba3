// What the runtime benches share (bench/runtime.mjs, bench/runner-instructions.mjs): the tool, a
// with_key refund whose effect is the caller's, so every microsecond measured around it is the
// layer's (built from another build of @retrysafe/spec too, hence the factory), and Powertools'
// setup over ioredis.

/**
 * A hand-written Standard Schema check, so the figures are the runner's and the store's, not a
 * validation library's (zod or valibot add their own, identical for every store).
 */
export const refundInput = {
  '~standard': {
    version: 1,
    vendor: 'retrysafe-bench',
    validate(value) {
      const ok =
        typeof value === 'object' && value !== null && typeof value.orderId === 'string' && Number.isInteger(value.amountCents);
      return ok ? { value: { orderId: value.orderId, amountCents: value.amountCents } } : { issues: [{ message: 'expected { orderId, amountCents }' }] };
    },
  },
};

/** What the refund's effect returns for an input. */
export const refundOf = (input) => ({ refundId: `re_${input.orderId}`, amountCents: input.amountCents, status: 'succeeded' });

/**
 * The `issue_refund` tool, built with `spec`'s `defineTool` and `key` (this checkout's
 * `@retrysafe/spec` or another build of it); `execute` is the effect.
 */
export function refundTool(spec, execute) {
  return spec.defineTool({
    name: 'issue_refund',
    description: 'Refund part of an order (benchmark: the effect is a no-op)',
    sideEffects: 'money_out',
    idempotent: 'with_key',
    retry: 'safe_with_same_key',
    maxAttempts: 1,
    input: refundInput,
    key: ({ run, input }) => spec.key`${run.id}:${input.orderId}:refund`,
    execute: (input) => execute(input),
  });
}

/**
 * Outside Lambda there is no context to say how long an invocation may still run. Without one,
 * powertools writes no in-progress expiry (and warns on every call), so a second call on a key that
 * is still in progress is taken for an orphan and runs the effect again. The measured setup stands
 * in Lambda's context with 30 s left, like retrysafe's 30 s lock; the duplicate check also runs the
 * default setup (`lambdaContext: false`).
 */
export const LAMBDA_CONTEXT = { getRemainingTimeInMillis: () => 30_000 };

/** The CacheClient interface powertools needs (get, set with EX/NX, del), over ioredis. */
export function ioredisCacheClient(client) {
  return {
    get: (k) => client.get(k),
    set: (k, value, options = {}) => {
      const args = [k, value];
      if (options.EX !== undefined) args.push('EX', options.EX);
      if (options.NX) args.push('NX');
      return client.set(...args);
    },
    del: (keys) => client.del(...keys),
  };
}

/** Deletes the keys matching `pattern` (SCAN, then DEL of each batch): a bench's own keys, at its end. */
export async function deleteKeys(client, pattern) {
  let cursor = '0';
  do {
    const [next, keys] = await client.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    cursor = next;
    if (keys.length > 0) await client.del(...keys);
  } while (cursor !== '0');
}
