import type { ToolDefinition } from './toolDefinition.js';

// What a tool's name and description say it does, read word by word: the heuristic behind
// no-misleading-idempotent-hint. It guesses, which is why that rule warns rather than errs.

/** Verbs whose repetition makes a new effect (a resource, a message, a payment, a line). */
export const CREATE_VERBS: ReadonlySet<string> = new Set([
  'add', 'append', 'book', 'charge', 'comment', 'create', 'email', 'enqueue', 'increment', 'insert', 'invite',
  'new', 'notify', 'pay', 'post', 'publish', 'push', 'refund', 'reply', 'schedule', 'send', 'submit', 'transfer',
]);
/** Verbs that name an absolute or keyed operation; `create_or_update_file` is an upsert. */
export const KEYED_VERBS: ReadonlySet<string> = new Set([
  'cancel', 'delete', 'ensure', 'fetch', 'find', 'get', 'list', 'overwrite', 'put', 'read', 'remove', 'replace', 'search', 'set',
  'sync', 'update', 'upsert',
]);

/** Where a tool says it creates, and the verb it uses. */
export interface CreateClaim {
  readonly where: 'description' | 'name';
  readonly verb: string;
}

/**
 * The create-like verb in a tool's name, or else at the start of the first clause of its
 * description; none when either also names a keyed operation (`create_or_update_file`).
 * `extraCreateVerbs` adds to {@link CREATE_VERBS}.
 */
export function findCreateClaim(
  tool: Pick<ToolDefinition, 'description' | 'name'>,
  extraCreateVerbs: readonly string[] = [],
): CreateClaim | undefined {
  const createVerbs = new Set([...CREATE_VERBS, ...extraCreateVerbs.map((verb) => verb.toLowerCase())]);
  const nameWords = splitWords(tool.name ?? '');
  if (nameWords.some((word) => KEYED_VERBS.has(word))) return undefined;
  const inName = nameWords.find((word) => createVerbs.has(word));
  if (inName) return { where: 'name', verb: inName };
  const clause = splitWords((tool.description ?? '').split(/[.;:\n]/)[0] ?? '').map((word) => stem(word, createVerbs));
  if (clause.some((word) => KEYED_VERBS.has(word))) return undefined;
  const first = clause[0];
  return first && createVerbs.has(first) ? { where: 'description', verb: first } : undefined;
}

/**
 * Whether an input field could mark two calls as the same work: `id`, `orderId`, `automation_id`,
 * `idempotencyKey`, `dedupeKey`, `clientToken`, `uuid`, or one of `extraNames` (any letter case).
 */
export function isKeyLikeFieldName(name: string, extraNames: readonly string[] = []): boolean {
  return (
    /^(?:id|key|uuid|token)$/i.test(name) ||
    /[_-](?:id|key|uuid|token)$/i.test(name) ||
    /[a-z0-9](?:Id|ID|Key|KEY|Uuid|UUID|Token)$/.test(name) ||
    /idempoten|dedup/i.test(name) ||
    extraNames.some((extra) => extra.toLowerCase() === name.toLowerCase())
  );
}

/** `create_automation`, `createAutomation`, `Create an automation` → lower-case words. */
export function splitWords(text: string): string[] {
  return text
    .split(/[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])/)
    .filter(Boolean)
    .map((word) => word.toLowerCase());
}

/** `creates` → `create`, `sends` → `send`, `pushes` → `push`: descriptions speak in the third person. */
function stem(word: string, createVerbs: ReadonlySet<string>): string {
  const isVerb = (candidate: string): boolean => createVerbs.has(candidate) || KEYED_VERBS.has(candidate);
  if (isVerb(word)) return word;
  for (const suffix of ['es', 's']) {
    const base = word.slice(0, -suffix.length);
    if (word.endsWith(suffix) && isVerb(base)) return base;
  }
  return word.endsWith('ies') ? `${word.slice(0, -3)}y` : word;
}
