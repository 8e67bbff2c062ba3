// The remedies several frameworks share: what require-retry-policy tells a tool with no policy to add.

/** For frameworks whose tools declare a policy only from outside (AI SDK, OpenAI Agents, ...). */
export const DECLARE_POLICY = 'Wrap it in `declarePolicy(...)` from `@retrysafe/spec` with side effects, idempotency and retry';

/** For MCP tools, whose annotations are the protocol's own declaration. */
export const MCP_HINTS =
  'Add `annotations` with `readOnlyHint: true`, or with both `destructiveHint` and `idempotentHint`; ' +
  'or declare a full policy in `_meta: { retrysafe: {...} }`.';
