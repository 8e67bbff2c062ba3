import type { TSESLint, TSESTree } from '@typescript-eslint/utils';

import { codeSpan } from '../../ast/index.js';
import type { HandlerEffects } from '../../effects/index.js';
import type { FoundEffect } from '../../effects/index.js';
import type { ToolDefinition } from '../../tools/index.js';
import { type Claim, type Claims, quoteClaim } from './declarations.js';

// Which declaration the effects a handler reaches contradict, and the report that says so: one
// report per tool, the most serious first. A read-only tool that writes (clients auto-approve it);
// a naturally idempotent tool whose handler creates without a key or changes state relatively (a
// retry repeats the effect); a with_key framework tool whose create takes no key while nothing in
// its handler looks one up (a retry with the same key repeats it all the same).

type SourceCode = Readonly<TSESLint.SourceCode>;

export type ContradictionId = 'keyNotUsed' | 'notIdempotent' | 'notReadOnly';

/** A contradiction, ready for `context.report`. */
export interface Contradiction {
  readonly messageId: ContradictionId;
  readonly node: TSESTree.Node;
  readonly data: Record<string, string>;
  readonly effect: FoundEffect;
}

const WRITES = new Set(['absolute', 'create', 'relative', 'write']);
/** Which write to name when there are several: the one a reader will least expect of the declaration. */
const SEVERITY: Readonly<Record<string, number>> = { create: 0, relative: 1, write: 2, absolute: 3 };

/** The frameworks whose tools a runner of ours does not wrap: their with_key claim rests on the handler. */
const UNGUARDED_FRAMEWORKS = new Set(['ai-sdk', 'langchain', 'inngest-agent-kit', 'mastra', 'mcp', 'mcp-low-level', 'openai-agents']);

/** How a file other than the linted one is named in a message (`db.ts`, `../lib/db.ts`). */
export type FileLabel = (fileName: string) => string;

/**
 * The contradiction between `claims` and the handler's `effects`, the most serious first; an effect
 * found in another file (the type-aware twin) is named with `fileLabel`.
 */
export function findContradiction(
  sourceCode: SourceCode,
  tool: ToolDefinition,
  claims: Claims,
  effects: HandlerEffects,
  fileLabel: FileLabel = (fileName) => fileName,
): Contradiction | undefined {
  const report = (messageId: ContradictionId, claim: Claim, effect: FoundEffect, fix: string): Contradiction =>
    reportOf(sourceCode, messageId, tool, claim, effect, fix, fileLabel);
  if (claims.readOnly) {
    const write = mostSerious(effects.effects.filter((effect) => WRITES.has(effect.kind)));
    if (write) return report('notReadOnly', claims.readOnly, write, readOnlyFix(claims.readOnly));
  }
  // A handler that consults a deduplication key may be deduplicating what follows, in code the
  // analysis does not read: say nothing rather than guess.
  if (effects.keyLookup) return undefined;
  if (claims.naturallyIdempotent) {
    const repeated = mostSerious(effects.effects.filter((effect) => effect.kind === 'relative' || (effect.kind === 'create' && effect.keyPassed === 'no')));
    if (repeated) return report('notIdempotent', claims.naturallyIdempotent, repeated, idempotentFix(claims.naturallyIdempotent));
  }
  if (claims.withKey && UNGUARDED_FRAMEWORKS.has(tool.framework)) {
    // A create in the handler's own body from a provider that takes a key is require-key-passthrough's
    // to report, at the call, with a suggestion that passes the key.
    const unkeyed = effects.effects.find(
      (effect) => effect.kind === 'create' && effect.keyPassed === 'no' && !(effect.keySlot !== 'none' && effect.through.length === 0),
    );
    if (unkeyed) return report('keyNotUsed', claims.withKey, unkeyed, keyFix(unkeyed));
  }
  return undefined;
}

function mostSerious(effects: readonly FoundEffect[]): FoundEffect | undefined {
  return [...effects].sort((a, b) => (SEVERITY[a.kind] ?? 9) - (SEVERITY[b.kind] ?? 9))[0];
}

function reportOf(
  sourceCode: SourceCode,
  messageId: ContradictionId,
  tool: ToolDefinition,
  claim: Claim,
  effect: FoundEffect,
  fix: string,
  fileLabel: FileLabel,
): Contradiction {
  return {
    messageId,
    node: claim.node,
    effect,
    data: {
      tool: tool.name === undefined ? 'This tool' : codeSpan(tool.name),
      claim: quoteClaim(claim, fileLabel),
      ...operationAndDoes(messageId, describeOperation(sourceCode, effect, fileLabel), effect),
      consequence: consequence(effect),
      fix,
    },
  };
}

/**
 * `` `UPDATE customers SET points = points + $1` (line 17) ``, with the helper it was reached through;
 * `(db.ts line 17, through …)` when the operation is in another file.
 */
function describeOperation(sourceCode: SourceCode, effect: FoundEffect, fileLabel: FileLabel): DescribedOperation {
  const detail = effect.detail && !effect.detail.startsWith('(') ? ` ${effect.detail}` : '';
  const [first] = effect.through;
  const via = first ? `, through ${codeSpan(`${sourceCode.getText(calleeOf(first)).replace(/\s+/g, '')}(…)`)} at line ${first.loc.start.line}` : '';
  const where = effect.fileName === undefined ? `line ${effect.line}` : `${fileLabel(effect.fileName)} line ${effect.line}`;
  return { text: `${codeSpan(effect.text)}${detail} (${where}${via})`, key: keyClause(effect) };
}

/** A described operation: its text, and what it says of the key a create passes. */
interface DescribedOperation {
  readonly text: string;
  /** `which`: the library takes no key at all; `with`: it takes one, and the call passes none. */
  readonly key: { readonly which: string } | { readonly with: string } | undefined;
}

function keyClause(effect: FoundEffect): DescribedOperation['key'] {
  if (effect.kind !== 'create' || effect.keyPassed !== 'no') return undefined;
  return effect.keySlot === 'none' ? { which: 'takes no deduplication key' } : { with: 'with no deduplication key' };
}

/**
 * The `operation` and `does` of a message. The read-only message says what the operation does in a
 * `which` clause of its own, so a `which` about the key joins it (`which inserts into \`notes\` and
 * takes no deduplication key`) instead of making two in a row; the others end `operation` with it.
 */
function operationAndDoes(messageId: ContradictionId, operation: DescribedOperation, effect: FoundEffect): { operation: string; does: string } {
  const what = does(effect);
  const { key } = operation;
  if (!key) return { operation: operation.text, does: what };
  if ('with' in key) return { operation: `${operation.text} ${key.with}`, does: what };
  return messageId === 'notReadOnly'
    ? { operation: operation.text, does: `${what} and ${key.which}` }
    : { operation: `${operation.text}, which ${key.which}`, does: what };
}

function calleeOf(node: TSESTree.Node): TSESTree.Node {
  return 'callee' in node ? node.callee : node;
}

/** What a second call does: "a second call adds to `points` again". */
function consequence(effect: FoundEffect): string {
  // Without a name for what it creates (a `fetch` POST to an unknown API), the first call's result
  // is the thing (new-user trial 8 read 'creates another one again' as: another what?).
  if (effect.kind === 'create') return effect.does === undefined ? 'a second call creates a second copy of what the first one created' : `a second call ${effect.does} again`;
  const column = effect.change?.column;
  const target = column === undefined ? 'it' : codeSpan(column);
  switch (effect.change?.operator) {
    case '+':
    case 'increment':
      return column === undefined ? 'a second call adds again' : `a second call adds to ${target} again`;
    case '-':
      return column === undefined ? 'a second call subtracts again' : `a second call subtracts from ${target} again`;
    case 'push':
    case 'array_append':
    case 'array_prepend':
    case 'concat':
    case 'list_append':
      return `a second call appends to ${target} again`;
    default:
      return column === undefined ? 'a second call applies the change again' : `a second call changes ${target} again`;
  }
}

/** What the operation does, for the read-only message. */
function does(effect: FoundEffect): string {
  if (effect.kind === 'create') return effect.does ?? 'creates something';
  if (effect.kind === 'relative') return 'changes stored state';
  return 'writes';
}

function readOnlyFix(claim: Claim): string {
  if (claim.via === 'annotations') return 'Set `readOnlyHint: false` and state `destructiveHint` and `idempotentHint` for what it does.';
  const field = claim.via === 'defineTool' ? 'sideEffects' : 'side_effects';
  return `Declare the side effects it has (\`${field}: 'internal_write'\`, \`'external_write'\`, \`'money_out'\` or \`'message_out'\`) and whether a retry is safe.`;
}

function idempotentFix(claim: Claim): string {
  if (claim.via === 'annotations') return 'Set `idempotentHint: false`, or make it idempotent with a key the caller passes.';
  const key = claim.via === 'defineTool' ? "`idempotent: 'with_key'` and a `key`" : "`idempotent: 'with_key'`";
  return `Declare it \`idempotent: false, retry: 'never'\`, or make it idempotent with a key (${key}).`;
}

function keyFix(effect: FoundEffect): string {
  const where =
    effect.keySlot === undefined || effect.keySlot === 'none' ? ''
    : 'header' in effect.keySlot ? ` (the ${codeSpan(effect.keySlot.header)} header)`
    : ` (${(typeof effect.keySlot.property === 'string' ? [effect.keySlot.property] : effect.keySlot.property).map(codeSpan).join(' or ')})`;
  const pass = effect.keySlot === 'none' || effect.keySlot === undefined ? '' : `pass the key to it${where}, `;
  return `Make the key do its work: ${pass}look up a dedup record by the key before the call and return its result, or define the tool with \`defineTool\` and run it through the runner, which keeps that record.`;
}
