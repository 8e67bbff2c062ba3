// The remedies several frameworks share: what require-retry-policy tells a tool with no policy to add.

/**
 * The `_meta` key an MCP tool's policy is published under: reverse-DNS, as MCP's rules for `_meta`
 * keys ask, and what `@retrysafe/spec/adapters/mcp` writes and reads (docs/mcp.md). The bare
 * {@link BARE_POLICY_KEY} of earlier releases is still read, and never suggested.
 */
export const MCP_POLICY_KEY = 'io.github.retrysafe/policy';

/** The bare key earlier releases used in `_meta` (and LangChain uses in `metadata`). */
export const BARE_POLICY_KEY = 'retrysafe';

/** For frameworks whose tools declare a policy only from outside (AI SDK, OpenAI Agents, ...). */
export const DECLARE_POLICY = 'Wrap it in `declarePolicy(...)` from `@retrysafe/spec` with side effects, idempotency and retry';

/** For MCP tools, whose annotations are the protocol's own declaration. */
export const MCP_HINTS =
  'Add `annotations` with `readOnlyHint: true`, or with both `destructiveHint` and `idempotentHint`; ' +
  `or declare a full policy in \`_meta: { '${MCP_POLICY_KEY}': {...} }\`.`;
