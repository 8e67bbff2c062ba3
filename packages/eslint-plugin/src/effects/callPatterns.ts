import type { EffectLibrary, EffectOperation } from './libraries/index.js';

// Matching a call's member path (`['refunds', 'create']`, `['where', 'update', 'returning']`)
// against the catalogue's `call` patterns. Patterns are compiled once per library list and shared
// by every file, since the catalogue does not change while a lint run goes on.

/** One compiled pattern segment. */
type Segment =
  | { readonly kind: 'any' }
  | { readonly kind: 'anyNumber' }
  | { readonly kind: 'exact'; readonly name: string }
  | { readonly kind: 'prefix'; readonly prefix: string };

interface CompiledOperation {
  readonly operation: EffectOperation;
  readonly segments: readonly Segment[];
}

/** A matched operation, and how many members of the path it took (the rest are chain modifiers). */
export interface OperationMatch {
  readonly operation: EffectOperation;
  /** Members of the path up to and including the operation's method. */
  readonly length: number;
}

const compiledByLibrary = new WeakMap<EffectLibrary, readonly CompiledOperation[]>();

function compile(pattern: string, caseInsensitive: boolean): Segment[] {
  if (pattern === '') return [];
  return pattern.split('.').map((part): Segment => {
    if (part === '*') return { kind: 'any' };
    if (part === '**') return { kind: 'anyNumber' };
    const text = caseInsensitive ? part.toLowerCase() : part;
    return text.endsWith('*') ? { kind: 'prefix', prefix: text.slice(0, -1) } : { kind: 'exact', name: text };
  });
}

function compiledOperations(library: EffectLibrary): readonly CompiledOperation[] {
  let compiled = compiledByLibrary.get(library);
  if (!compiled) {
    const caseInsensitive = library.caseInsensitive === true;
    compiled = library.operations.map((operation) => ({ operation, segments: compile(operation.call, caseInsensitive) }));
    compiledByLibrary.set(library, compiled);
  }
  return compiled;
}

/** Whether `segments` match exactly the first `length` members of `path`. */
function matchesPrefix(segments: readonly Segment[], path: readonly string[], length: number): boolean {
  const visit = (s: number, p: number): boolean => {
    if (s === segments.length) return p === length;
    const segment = segments[s] as Segment;
    if (segment.kind === 'anyNumber') {
      for (let next = p; next <= length; next++) if (visit(s + 1, next)) return true;
      return false;
    }
    if (p === length) return false;
    const member = path[p] as string;
    const ok =
      segment.kind === 'any' ||
      (segment.kind === 'exact' && member === segment.name) ||
      (segment.kind === 'prefix' && member.startsWith(segment.prefix));
    return ok && visit(s + 1, p + 1);
  };
  return visit(0, 0);
}

/**
 * The operation a member path names: the shortest prefix of `path` that some operation's pattern
 * matches (operations tried in order for each length), so that what follows the operation's
 * method is left to its `chain` (`db.insert(t).values(v).onConflictDoUpdate(...)` is `insert`).
 */
export function matchOperation(library: EffectLibrary, path: readonly string[]): OperationMatch | undefined {
  const members = library.caseInsensitive ? path.map((member) => member.toLowerCase()) : path;
  const operations = compiledOperations(library);
  for (let length = 0; length <= members.length; length++) {
    for (const { operation, segments } of operations) {
      // The client itself (`sql\`...\``, `knex(config)`) is an operation only when nothing follows it.
      if (segments.length === 0 && members.length > 0) continue;
      if (matchesPrefix(segments, members, length)) return { operation, length };
    }
  }
  return undefined;
}

/** Whether `name` is one of `names`, in the library's letter case rule. */
export function hasMember(library: EffectLibrary, names: readonly string[] | undefined, name: string): boolean {
  if (!names) return false;
  if (!library.caseInsensitive) return names.includes(name);
  const lower = name.toLowerCase();
  return names.some((candidate) => candidate.toLowerCase() === lower);
}
