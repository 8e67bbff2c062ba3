import type { TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import { getPerAttemptMemberSource } from './perAttemptSources.js';
import { getCallSource, getNewDateSource } from './randomAndClockSources.js';
import type { NondeterministicSource, SourceContext } from './sourceTypes.js';

// What makes a value differ between two attempts of the same work. The tables and checks live in:
// - randomAndClockSources.ts: random ids and the clock, recognised by their import;
// - perAttemptSources.ts: per-attempt and per-tool-call ids, retry-loop counters, in-memory counters;
// - replayStableSources.ts: what only looks random (Temporal) and the user's `allowedSources`.

/**
 * Is `node` itself a non-deterministic value? Looks at this node only (a call, a `new`, a property
 * read); following a value back through variables and helpers is {@link createValueTracer}'s job.
 * Imports decide: `v4` from `uuid` is random, `uuid4` from `@temporalio/workflow` is not, and a
 * source listed in `context.allowedSources` is never one.
 */
export function getNondeterministicSource(node: TSESTree.Node, context: SourceContext): NondeterministicSource | undefined {
  switch (node.type) {
    case AST_NODE_TYPES.CallExpression:
      return getCallSource(node, context);
    case AST_NODE_TYPES.NewExpression:
      return getNewDateSource(node, context);
    case AST_NODE_TYPES.MemberExpression:
      return getPerAttemptMemberSource(node, context.sourceCode);
    default:
      return undefined;
  }
}
