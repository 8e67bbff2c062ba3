import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import type { KeyNameMatcher } from '../keys/index.js';
import type { EffectChange, EffectKind, KeySlot, SideEffectClass } from './libraries/index.js';
import { readKind, type Reading } from './kindReaders.js';
import { findKeyPassed, findSentKey, type KeyPassed } from './keySlots.js';
import type { Recognised } from './recognise.js';

// A recognised operation turned into the effects the analysis lists: its kind (from its name, its
// reader, and the chain methods after it), what messages show for it, and whether it passes a key.

type SourceCode = Readonly<TSESLint.SourceCode>;

/** One effect operation a handler reaches. */
export interface FoundEffect {
  readonly kind: EffectKind;
  /** The library's name (`Stripe`, `pg`), or `SQL` for statements recognised by their text alone. */
  readonly library: string;
  /** What a write through the library touches (the library's `sideEffects`). */
  readonly sideEffects: SideEffectClass;
  /** What to show for it: the statement (`UPDATE customers SET points = points + $1`) or the callee (`stripe.paymentIntents.create`). */
  readonly text: string;
  /** Said after the text: ``with `points: { increment }` ``, `(POST)`. */
  readonly detail: string | undefined;
  /** What a create does, for messages: `sends an email`. */
  readonly does: string | undefined;
  /** The call, `new` or tagged template that runs it. */
  readonly node: TSESTree.Node;
  readonly line: number;
  /** For a create (or any operation with a key slot): whether it passes a deduplication key. */
  readonly keyPassed: KeyPassed | undefined;
  readonly keySlot: KeySlot | undefined;
  /**
   * For a create through a generic HTTP client (the catalogue's `EffectLibrary.genericHttp`) that passes its
   * key: the header it is sent in, as written (`Idempotency-Key`), and the request's URL as written
   * (a string's value, else its expression, cut to 60 characters; `undefined` where the call shows
   * none). The code shows that the key is sent, not that the server deduplicates by it, unless the
   * URL is written with the host of a provider documented to (`honouredBy`: `Stripe` for
   * `https://api.stripe.com/...`, the catalogue's `KEY_HONOURING_HOSTS`).
   */
  readonly sentKey?: { readonly header: string; readonly url: string | undefined; readonly honouredBy?: string };
  /** For a relative change: the column or field, and how it changes. */
  readonly change: EffectChange | undefined;
  /**
   * The file the operation is in, when it is not the handler's: the type-aware analysis followed an
   * imported helper or client there (`node` and `line` are then in that file).
   */
  readonly fileName?: string | undefined;
  /** The helper calls the handler made to reach it, outermost first. */
  readonly through: readonly TSESTree.Node[];
  /** An absolute write that only adds (`mkdir`, `CREATE TABLE`). */
  readonly additive: boolean;
  /**
   * An absolute write that also changes this column relatively, guarded by its WHERE
   * (`SET status = 'done', completions = completions + 1 WHERE status <> 'done'`): said so in reasons.
   */
  readonly guarded?: string;
}

type Operation = Extract<Recognised, { kind: 'operation' }>;

/**
 * The effects of a recognised operation reached at `site` (the outermost call of its chain). When a
 * chain method after it decides the kind (`findById(id)` … `.save()`), the effect is at `site`.
 */
export function describeEffects(
  sourceCode: SourceCode,
  recognised: Operation,
  site: TSESTree.Node,
  through: readonly TSESTree.Node[],
  matchKeyName: KeyNameMatcher,
): FoundEffect[] {
  const { library, operation, env } = recognised;
  const readings: readonly (Reading | undefined)[] = (operation.from && readKind(sourceCode, operation.from, recognised.node, env, library)) ?? [undefined];
  const modified = chainKind(sourceCode, recognised);
  const node = modified && modified.kind !== operation.kind ? site : recognised.node;
  const callee = calleeText(sourceCode, recognised.node);
  return readings.map((reading) => {
    const kind = modified?.kind ?? reading?.kind ?? operation.kind ?? 'unknown';
    // A statement carries no key of its own: a conflict target is what makes an INSERT repeatable.
    const slot = reading?.key?.slot ?? (operation.from?.from === 'sql' ? 'none' : operation.key);
    const keyNode = reading?.key?.node ?? recognised.node;
    const keyPassed = kind !== 'create' ? undefined : slot === undefined ? 'unknown' : findKeyPassed(sourceCode, slot, keyNode, env, matchKeyName);
    const sentKey = keyPassed === 'yes' && library.genericHttp && slot !== undefined && slot !== 'none' && 'header' in slot ? findSentKey(sourceCode, slot, keyNode, matchKeyName) : undefined;
    const text = reading?.text !== undefined && operation.from?.from === 'sql' ? reading.text : reading?.text !== undefined ? `${callee}(${reading.text})` : callee;
    return {
      kind,
      library: library.name,
      sideEffects: library.sideEffects ?? 'external_write',
      text,
      detail: modified?.detail ?? reading?.detail,
      does: reading?.does ?? operation.does,
      node,
      line: node.loc.start.line,
      keyPassed,
      keySlot: slot,
      ...(sentKey ? { sentKey } : {}),
      change: modified?.change ?? reading?.change,
      through,
      additive: kind === 'absolute' && (reading?.additive ?? operation.additive ?? false),
      ...(kind === 'absolute' && reading?.guarded ? { guarded: reading.guarded } : {}),
    };
  });
}

/** The kind the chain methods after the operation give it (`.onConflictDoUpdate(...)`, `.set(...)`), if any. */
function chainKind(sourceCode: SourceCode, recognised: Operation): Reading | undefined {
  const chain = recognised.operation.chain;
  if (!chain) return undefined;
  let found: Reading | undefined;
  for (const step of recognised.modifiers) {
    const effect = chain[step.name];
    if (effect === undefined) continue;
    if (typeof effect === 'string') found = { kind: effect };
    else if (step.invocation) found = readKind(sourceCode, effect, step.invocation.node, step.invocation.env, recognised.library)?.[0] ?? found;
  }
  return found;
}

/** `stripe.paymentIntents.create`, `db.insert`, as written (whitespace squeezed, long chains cut). */
function calleeText(sourceCode: SourceCode, node: TSESTree.Node): string {
  const callee =
    node.type === AST_NODE_TYPES.CallExpression || node.type === AST_NODE_TYPES.NewExpression ? node.callee
    : node.type === AST_NODE_TYPES.TaggedTemplateExpression ? node.tag
    : node;
  let text = sourceCode.getText(callee).replace(/(?<!\bnew)\s+/g, '');
  // A callee whose object is itself a call chain: keep its last links (`…values(...).returning`).
  text = text.replace(/\((?:[^()]|\([^()]*\))*\)/g, '(…)');
  const prefix = node.type === AST_NODE_TYPES.NewExpression ? 'new ' : '';
  return `${prefix}${text.length > 60 ? `…${text.slice(-57)}` : text}`;
}
