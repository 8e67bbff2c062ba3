// B13 (a failure pattern reported publicly; rewritten from scratch)
// Pattern: a tool declared itself non-idempotent (send_email.idempotent = False), the agent even read
// that flag, but both retry loops ignored it; one failed send produced three delivered emails.
// Expressed here with the project's own defineTool (field names are placeholders for the real schema).
// VERDICT: R2 flags the retry line: a tool declared non-idempotent with an external side effect also
//          declares automatic retries and has no key input, so the declaration contradicts itself.
//          Runtime/DSL: the runner must refuse to auto-retry this tool.
//
// With @retrysafe/spec's vocabulary: sideEffects 'external' becomes 'message_out' (an email reaches a
// person), `retry: { maxAttempts: 3, backoffMs: 500 }` becomes `retry: 'safe', maxAttempts: 3`
// (backoff is the runner's business, not the declaration's), and `run` becomes `execute` with its
// input typed by a schema instead of an annotation.
import { describe, expectTypeOf, test } from 'vitest';
import { z } from 'zod';
import { defineTool, key } from '../../src/index.js';

declare function smtpSend(to: string, subject: string, body: string): Promise<void>;

const emailInput = z.object({ to: z.email(), subject: z.string(), body: z.string() });

describe('B13: send_email declared non-idempotent but retried automatically', () => {
  test('the contradictory declaration does not compile (the retry line)', () => {
    defineTool({
      name: 'send_email',
      sideEffects: 'message_out',
      idempotent: false,
      // @ts-expect-error -- Contradiction: notRepeatableRetried
      retry: 'safe',
      maxAttempts: 3,
      input: emailInput,
      async execute({ to, subject, body }) {
        await smtpSend(to, subject, body);
        return { sent: true };
      },
    });
  });

  test('fixed: declared not safely repeatable, never retried automatically', () => {
    const sendEmail = defineTool({
      name: 'send_email',
      sideEffects: 'message_out',
      idempotent: false,
      retry: 'never',
      input: emailInput,
      async execute({ to, subject, body }) {
        await smtpSend(to, subject, body);
        return { sent: true };
      },
    });
    expectTypeOf(sendEmail.policy.retry).toEqualTypeOf<'never'>();
    expectTypeOf(sendEmail.policy.max_attempts).toEqualTypeOf<1>();
  });

  test('or made idempotent with a key, so a retry reuses it', () => {
    const sendEmail = defineTool({
      name: 'send_email',
      sideEffects: 'message_out',
      idempotent: 'with_key',
      retry: 'safe_with_same_key',
      maxAttempts: 3,
      input: emailInput.extend({ messageId: z.string() }),
      key: ({ run, input }) => key`${run.id}:${input.messageId}:email`,
      async execute({ to, subject, body }) {
        await smtpSend(to, subject, body);
        return { sent: true };
      },
    });
    expectTypeOf(sendEmail.policy.retry).toEqualTypeOf<'safe_with_same_key'>();
  });
});
