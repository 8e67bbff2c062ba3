import { expect, it } from 'vitest';

import { auditedTool } from './support.js';

// A project's own module exports a client spelled `stripe` (tests/fixtures/local-client): the name
// is no evidence that it is Stripe's SDK, so Q4 does not claim Stripe's key record for it.
it("Q4 does not claim Stripe's key record for a local client named stripe", async () => {
  const { questions } = await auditedTool('local-client', 'refundLocal');
  expect(questions.q4.verdict).not.toBe('yes');
  expect(questions.q4.reason).not.toContain('Stripe keeps keys');
});
