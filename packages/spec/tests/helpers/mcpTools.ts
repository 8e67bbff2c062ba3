/**
 * The tools the MCP wire tests register: each reaches the provider stand-in (./ledger.ts) over
 * HTTP, so every effect is counted outside the server.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { POLICY_META } from '../../src/adapters/mcp/wire.js';
import { currentCall } from '../../src/loop/guard.js';
import { key } from '../../src/key.js';
import type { PolicyDeclaration } from '../../src/policy.js';
import { defineTool } from '../../src/tool.js';
import { refundAt } from './ledger.js';

/** `issue_refund` as a `defineTool` tool: with_key, its key passed to the provider. */
export function ledgerRefundTool(ledgerUrl: string, options: { readonly maxAttempts?: 1 | 3; readonly afterEffect?: () => void } = {}) {
  return defineTool({
    name: 'issue_refund',
    description: 'Refund part of an order',
    sideEffects: 'money_out',
    idempotent: 'with_key',
    retry: 'safe_with_same_key',
    maxAttempts: options.maxAttempts ?? 1,
    input: z.object({ orderId: z.string(), amountCents: z.number().int().positive() }),
    key: ({ run, input }) => key`${run.id}:${input.orderId}:refund`,
    execute: async ({ orderId, amountCents }, { key: idempotencyKey }) => {
      const refund = await refundAt(ledgerUrl, orderId, amountCents, idempotencyKey);
      options.afterEffect?.();
      return refund;
    },
  });
}

export const REFUND_POLICY = { side_effects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', max_attempts: 1 } as const satisfies PolicyDeclaration;

/**
 * `create_refund` registered the plain way (`server.registerTool`), its policy published in its
 * config's `_meta`; it passes the guarded call's key to the provider (`currentCall()?.key`).
 */
export function registerPlainRefund(server: McpServer, ledgerUrl: string, options: { readonly policy?: PolicyDeclaration | null; readonly gate?: Promise<void> | undefined } = {}) {
  const policy = options.policy === undefined ? REFUND_POLICY : options.policy;
  return server.registerTool(
    'create_refund',
    {
      description: 'Refund part of an order',
      inputSchema: { orderId: z.string(), amountCents: z.number().int().positive() },
      ...(policy === null ? {} : { _meta: { [POLICY_META]: policy } }),
    },
    async ({ orderId, amountCents }) => {
      await options.gate;
      const refund = await refundAt(ledgerUrl, orderId, amountCents, currentCall()?.key);
      return { content: [{ type: 'text', text: JSON.stringify(refund) }] };
    },
  );
}

/** `get_order`, a read registered the plain way with `readOnlyHint`. */
export function registerPlainRead(server: McpServer, reads: { count: number }) {
  return server.registerTool(
    'get_order',
    { description: 'Read an order', inputSchema: { orderId: z.string() }, annotations: { readOnlyHint: true } },
    async ({ orderId }) => {
      reads.count += 1;
      return { content: [{ type: 'text', text: JSON.stringify({ orderId, status: 'paid' }) }] };
    },
  );
}

/** A gate a tool waits on, so a test can hold a call in progress. */
export function gate(): { readonly wait: Promise<void>; open(): void } {
  let open!: () => void;
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { wait, open };
}
