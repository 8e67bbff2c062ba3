import type { TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import { findProperty } from '../ast/index.js';

import { hasMember, matchOperation } from './callPatterns.js';
import type { EffectLibrary, EffectOperation } from './libraries/index.js';
import type { Chain, Link, LibraryLookup } from './chains.js';
import type { Env } from './values.js';

// Which catalogue operation a chain names: find the client (a constructor or factory of the
// library called, or the module itself for libraries whose exports are called directly), step over
// the client methods that give another client (`pool.connect()`, `client.db(name).collection(name)`),
// and match the members that follow against the library's operations.

type Invocation = TSESTree.CallExpression | TSESTree.NewExpression | TSESTree.TaggedTemplateExpression;

/** A member of the path below the client, with the call that invokes it, if any. */
interface Step {
  readonly name: string;
  readonly invocation: { readonly node: Invocation; readonly env: Env } | undefined;
}

/** What a chain names in the catalogue. */
export type Recognised =
  | {
      readonly kind: 'operation';
      readonly library: EffectLibrary;
      readonly operation: EffectOperation;
      /** The call (or tagged template) that invokes the operation. */
      readonly node: Invocation;
      readonly env: Env;
      /** Members called after the operation, for its `chain` modifiers. */
      readonly modifiers: readonly Step[];
    }
  /** A call the library says changes nothing a retry repeats (connection handling, a transaction wrapper). */
  | { readonly kind: 'neutral'; readonly library: EffectLibrary }
  /** A call on a client of the library that its catalogue entry does not list. */
  | { readonly kind: 'unlisted'; readonly library: EffectLibrary };

/** Builds the module lookup for a catalogue: exact modules, and `prefix/*` patterns. */
export function createLibraryLookup(libraries: readonly EffectLibrary[]): LibraryLookup {
  const exact = new Map<string, EffectLibrary>();
  const prefixes: [string, EffectLibrary][] = [];
  for (const library of libraries) {
    for (const module of library.modules) {
      if (module.endsWith('/*')) prefixes.push([module.slice(0, -1), library]);
      else if (!exact.has(module)) exact.set(module, library);
    }
  }
  return (source) => exact.get(source) ?? prefixes.find(([prefix]) => source.startsWith(prefix))?.[1];
}

/** What `chain` names in the catalogue, or `undefined` when its root is no client of a catalogued library. */
export function recogniseChain(chain: Chain, libraryOf: LibraryLookup): Recognised | undefined {
  let fallback: Recognised | undefined;
  // A constructed client first, then the module itself (`payments.charge()` with `clients: ['', '*']`).
  for (const start of findClients(chain, libraryOf)) {
    const recognised = fromClient(start);
    if (recognised?.kind === 'operation') return recognised;
    fallback ??= recognised;
  }
  return fallback;
}

function fromClient(start: ClientStart): Recognised | undefined {
  const { library, links, moduleAsClient } = start;
  if (start.offline) return { kind: 'neutral', library };
  const steps = toSteps(library, links);
  if (steps === undefined) return undefined;
  const path = steps.map((step) => step.name);
  const match = matchOperation(library, path);
  const invocation = match && (match.length === 0 ? clientInvocation(links) : steps[match.length - 1]?.invocation);
  if (match && invocation) {
    return { kind: 'operation', library, operation: match.operation, node: invocation.node, env: invocation.env, modifiers: steps.slice(match.length) };
  }
  const neutral = library.neutral && matchOperation(neutralCalls(library, library.neutral), path);
  if (neutral || (path.length === 0 && !clientInvocation(links))) return { kind: 'neutral', library };
  // A global or a module whose exports are called directly says nothing about an unlisted call.
  return moduleAsClient ? undefined : { kind: 'unlisted', library };
}

const neutralByLibrary = new WeakMap<EffectLibrary, EffectLibrary>();

/**
 * The library with its `neutral` calls as its operations, for matching a path against them: built
 * once per library, so that its patterns are compiled once (callPatterns.ts keeps them per library).
 */
function neutralCalls(library: EffectLibrary, neutral: readonly string[]): EffectLibrary {
  let found = neutralByLibrary.get(library);
  if (!found) neutralByLibrary.set(library, (found = { ...library, operations: neutral.map((call) => ({ call })) }));
  return found;
}

interface ClientStart {
  readonly library: EffectLibrary;
  /** The links below the client. */
  readonly links: readonly Link[];
  readonly moduleAsClient: boolean;
  /** Made with one of the library's `offlineOptions` set: it touches nothing outside the process. */
  readonly offline?: boolean;
}

function findClients(chain: Chain, libraryOf: LibraryLookup): ClientStart[] {
  const { root, links } = chain;
  if (root.kind === 'client') return [{ library: root.library, links, moduleAsClient: false }];
  const library = libraryOf(root.source);
  if (!library) return [];
  const starts: ClientStart[] = [];
  const path = root.path[0] === 'default' ? root.path.slice(1) : root.path;
  // The members read before the first call or `new`: the export path of a constructor or factory.
  const firstInvocation = links.findIndex((link) => link.kind !== 'member');
  const leading = links.slice(0, firstInvocation === -1 ? links.length : firstInvocation).map((link) => (link.kind === 'member' ? link.name : ''));
  const exportPath = [...path, ...leading].join('.');
  for (const client of library.clients) {
    if (client === '') continue;
    const wanted = client === 'default' ? '' : client.replace(/^default\./, '');
    const matches = client === '*' ? exportPath !== '' : wanted === exportPath;
    const construction = firstInvocation === -1 ? undefined : links[firstInvocation];
    if (matches && construction && construction.kind !== 'tag') {
      starts.push({ library, links: links.slice(firstInvocation + 1), moduleAsClient: false, offline: isOffline(library, construction) });
      break;
    }
  }
  if (library.clients.includes('')) {
    starts.push({ library, links: [...path.map((name): Link => ({ kind: 'member', name })), ...links], moduleAsClient: true });
  }
  return starts;
}

/** `createTransport({ streamTransport: true })`: an option of the library's `offlineOptions` set to `true`, in place. */
function isOffline(library: EffectLibrary, construction: Link): boolean {
  if (!library.offlineOptions || construction.kind === 'member' || construction.node.type === AST_NODE_TYPES.TaggedTemplateExpression) return false;
  const [options] = construction.node.arguments;
  if (options?.type !== AST_NODE_TYPES.ObjectExpression) return false;
  return library.offlineOptions.some((name) => {
    const property = findProperty(options, name);
    return property?.value.type === AST_NODE_TYPES.Literal && property.value.value === true;
  });
}

/**
 * The members below the client, each with the call that invokes it, client methods stepped over
 * (`connect()`, `db(name)`, `collection(name)`, `manager`); a `new` of the client reads as `new`
 * (`new User(doc).save()`). `undefined` when the chain leaves the library (a computed member).
 */
function toSteps(library: EffectLibrary, links: readonly Link[]): Step[] | undefined {
  const steps: Step[] = [];
  let index = 0;
  // A call of the client itself starts a query in some libraries (`db('users')` in Knex).
  if (links[0]?.kind === 'call' || links[0]?.kind === 'tag') index = 1;
  for (; index < links.length; index++) {
    const link = links[index] as Link;
    if (link.kind === 'new') {
      steps.push({ name: 'new', invocation: undefined });
      continue;
    }
    if (link.kind !== 'member') continue;
    const next = links[index + 1];
    const invocation = next && next.kind !== 'member' && next.kind !== 'new' ? { node: next.node, env: next.env } : undefined;
    const followedByMore = links.slice(index + (invocation ? 2 : 1)).some((later) => later.kind === 'member');
    if (steps.length === 0 && followedByMore && hasMember(library, library.clientMethods, link.name)) {
      if (invocation) index++;
      continue;
    }
    steps.push({ name: link.name, invocation });
    if (invocation) index++;
  }
  return steps;
}

/** The call or tag of the client itself, when the chain is nothing else: ``sql`…` ``, `neon(url)(…)`. */
function clientInvocation(links: readonly Link[]): { node: Invocation; env: Env } | undefined {
  const [first] = links;
  return links.length === 1 && first && first.kind !== 'member' && first.kind !== 'new' ? { node: first.node, env: first.env } : undefined;
}
