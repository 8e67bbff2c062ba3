import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import { GLOBAL_SOURCE, normalizeModuleName, type ResolvedReference } from '../ast/index.js';
import type { AllowedSource, SourceContext } from './sourceTypes.js';

// Sources that look random or clock-based but return the same value on a replay: Temporal's
// workflow APIs and sandboxed globals, and whatever the user lists in `allowedSources`.

/**
 * Replay-stable ids that look like random ones: Temporal's workflow `uuid4()` is recorded in the
 * workflow history and returns the same value on replay. (Restate's `ctx.rand` is never matched
 * because it is a member of the handler's context, not an import.)
 */
export const REPLAY_STABLE_SOURCES: readonly AllowedSource[] = [{ from: '@temporalio/workflow', name: 'uuid4' }];

/** Globals that Temporal's workflow sandbox makes deterministic (seeded, replayed from history). */
const TEMPORAL_DETERMINISTIC_GLOBALS = new Set(['Date', 'Date.now', 'Math.random']);
const GLOBAL_OBJECTS = new Set(['globalThis', 'window', 'self', 'global']);

/**
 * Is the import or global that `callee` reads on the allow list (the user's `allowedSources` or
 * {@link REPLAY_STABLE_SOURCES})? `undefined` callees (locals) are never allowed.
 */
export function isAllowedSource(reference: ResolvedReference | undefined, allowedSources: readonly AllowedSource[]): boolean {
  if (!reference) return false;
  const name = reference.path.join('.');
  return [...REPLAY_STABLE_SOURCES, ...allowedSources].some(
    (allowed) => normalizeAllowedModule(allowed.from) === reference.source && allowed.name === name,
  );
}

/** Is `reference` replay-stable here: allowed, or a global that Temporal's workflow sandbox replays? */
export function isReplayStable(reference: ResolvedReference, context: SourceContext): boolean {
  const normalized = normalizeGlobal(reference);
  if (isAllowedSource(normalized, context.allowedSources)) return true;
  return (
    normalized.source === GLOBAL_SOURCE &&
    TEMPORAL_DETERMINISTIC_GLOBALS.has(normalized.path.join('.')) &&
    isTemporalWorkflowFile(context.sourceCode)
  );
}

/** `globalThis.crypto.randomUUID` and `window.crypto.randomUUID` read the same global as `crypto.randomUUID`. */
export function normalizeGlobal(reference: ResolvedReference): ResolvedReference {
  if (reference.source !== GLOBAL_SOURCE) return reference;
  const [first, ...rest] = reference.path;
  const isGlobalObject = first !== undefined && GLOBAL_OBJECTS.has(first);
  return isGlobalObject && rest.length > 0 ? { source: GLOBAL_SOURCE, path: rest } : reference;
}

function normalizeAllowedModule(from: string): string {
  return from === 'globalThis' ? GLOBAL_SOURCE : normalizeModuleName(from);
}

const temporalWorkflowFiles = new WeakMap<TSESTree.Program, boolean>();

/** Temporal workflow code runs in a sandbox where `Date` and `Math.random` replay deterministically. */
function isTemporalWorkflowFile(sourceCode: Readonly<TSESLint.SourceCode>): boolean {
  const program = sourceCode.ast;
  let result = temporalWorkflowFiles.get(program);
  if (result === undefined) {
    result = program.body.some(
      (statement) =>
        statement.type === AST_NODE_TYPES.ImportDeclaration &&
        statement.importKind !== 'type' &&
        statement.source.value === '@temporalio/workflow',
    );
    temporalWorkflowFiles.set(program, result);
  }
  return result;
}
