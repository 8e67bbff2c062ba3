import path from 'node:path';

import type { FileFacts, PolicyConst, PolicyLayer, StoreFact, Value } from './collect/facts.js';

// Links the facts of one file to another's: follows a symbolic value through relative imports,
// re-exports, calls of functions that return it and property reads, to the tools and runners it
// can be. Only what the scanned files show is followed: a package import is where a trail ends.

/** A tool or a runner construction: its file and its index in that file's facts. */
export interface FactRef {
  readonly file: string;
  readonly index: number;
}

/** What a value can be, as far as the scanned files show. */
export interface Resolution {
  readonly tools: readonly FactRef[];
  readonly runners: readonly FactRef[];
  /** The runners of adapters the value went through (`toAiSdkTool(tool, { runner })`). */
  readonly adapterRunners: readonly FactRef[];
}

/** A store construction a value can be (`createSqliteStore(...)`), and the file it is made in. */
export interface StoreAt extends StoreFact {
  readonly file: string;
  /** The conditional (`flag ? a : b`, `??`, `||`) that chooses it, when one does: its file, line and code. */
  readonly chosenBy?: ChoiceSite;
}

/** Where a conditional that chooses a value is. */
export interface ChoiceSite {
  readonly file: string;
  readonly line: number;
  readonly text: string;
}

/**
 * A branch of a conditional that chooses a store (`flag ? createSqliteStore(…) : given`), or a
 * return of a function that returns one, whose value the scanned files do not show: a parameter, a
 * package's export. Its line and code, and the conditional, when a conditional chooses it.
 */
export interface UnseenStore extends ChoiceSite {
  readonly chosenBy?: ChoiceSite;
}

/** The stores a value can be, and the branches of the conditionals on the way whose value is not visible. */
export interface StoreResolution {
  readonly stores: readonly StoreAt[];
  readonly unseen: readonly UnseenStore[];
}

type Resolved =
  | { readonly k: 'tool' | 'runner'; readonly ref: FactRef }
  | { readonly k: 'adapted'; readonly tools: readonly Resolved[]; readonly runners: readonly Resolved[] }
  | { readonly k: 'object'; readonly props: Readonly<Record<string, Value>>; readonly file: string }
  | { readonly k: 'fn'; readonly returns: readonly Value[]; readonly returnSites?: readonly { readonly line: number; readonly text: string }[]; readonly file: string }
  | { readonly k: 'namespace'; readonly file: string }
  | { readonly k: 'store'; readonly store: StoreAt }
  | { readonly k: 'unseen'; readonly branch: UnseenStore };

const EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
const JS_TO_TS: Readonly<Record<string, readonly string[]>> = { '.js': ['.ts', '.tsx'], '.jsx': ['.tsx'], '.mjs': ['.mts'], '.cjs': ['.cts'] };
const MAX_DEPTH = 24;
/**
 * A branch or return that is no store at all: `createRunner` throws a `TypeError` without one, so a
 * runner that runs has one of the other choices.
 */
const NO_STORE = new Set(['undefined', 'null', 'void 0']);

/** The scanned files' facts, and the links between them. */
export class ProjectIndex {
  constructor(private readonly files: ReadonlyMap<string, FileFacts>) {}

  /** Facts of a file, if it was scanned. */
  facts(file: string): FileFacts | undefined {
    return this.files.get(file);
  }

  /** Every scanned file's facts. */
  all(): Iterable<FileFacts> {
    return this.files.values();
  }

  /**
   * The tools and runners `value`, read in `file`, can be. With `members`, an object it resolves to
   * stands for every value in it (a guard's set of tools: `{ charge, refund }`, `[charge, refund]`).
   */
  resolve(value: Value, file: string, { members = false } = {}): Resolution {
    const tools: FactRef[] = [];
    const runners: FactRef[] = [];
    const adapterRunners: FactRef[] = [];
    const collect = (found: readonly Resolved[], adapter: boolean): void => {
      for (const item of found) {
        if (item.k === 'tool') tools.push(item.ref);
        else if (item.k === 'runner') (adapter ? adapterRunners : runners).push(item.ref);
        else if (item.k === 'adapted') {
          collect(item.tools, false);
          collect(item.runners, true);
        }
      }
    };
    const found = this.evaluate(value, file, 0);
    collect(found, false);
    if (members) {
      for (const item of found) {
        if (item.k === 'object') for (const member of Object.values(item.props)) collect(this.evaluate(member, item.file, 1), false);
      }
    }
    return { tools: unique(tools), runners: unique(runners), adapterRunners: unique(adapterRunners) };
  }

  /**
   * The store constructions `value`, read in `file`, can be: an imported `export const store =
   * createSqliteStore(...)`, what a store factory function returns (`makeStore()`), each branch of a
   * conditional (`flag ? a : b`, `??`, `||`), followed the way {@link resolve} follows tools. A
   * conditional's branch that leads to no store is kept as unseen: the store it gives is not known.
   */
  resolveStores(value: Value, file: string): StoreResolution {
    const seen = new Set<string>();
    const stores: StoreAt[] = [];
    const unseen: UnseenStore[] = [];
    for (const item of this.evaluate(value, file, 0)) {
      const site = item.k === 'store' ? item.store : item.k === 'unseen' ? item.branch : undefined;
      const id = site && `${item.k}#${site.file}#${site.line}#${site.text}`;
      if (!site || !id || seen.has(id)) continue;
      seen.add(id);
      if (item.k === 'store') stores.push(item.store);
      else if (item.k === 'unseen') unseen.push(item.branch);
    }
    return { stores, unseen };
  }

  /**
   * A policy's layers with every import followed to the exported `const` it names (through
   * re-exports), and to the member of it that a member read names (`policies.moneyOut`); an import
   * that leads to no such `const` or member becomes an opaque layer: its fields are not known.
   */
  resolvePolicyLayers(layers: readonly PolicyLayer[], file: string, depth = 0): PolicyLayer[] {
    return layers.flatMap((layer): PolicyLayer[] => {
      if (layer.k !== 'import') return [layer];
      const found = depth < MAX_DEPTH ? this.policyConstOf(this.resolveModule(file, layer.from), layer.name, layer.members ?? [], depth + 1, new Set()) : undefined;
      return found ?? [{ k: 'opaque' }];
    });
  }

  private policyConstOf(file: string | undefined, name: string, members: readonly string[], depth: number, visited: Set<string>): PolicyLayer[] | undefined {
    const facts = file ? this.files.get(file) : undefined;
    if (!file || !facts || visited.has(file) || depth >= MAX_DEPTH) return undefined;
    visited.add(file);
    const own = Object.hasOwn(facts.policyConsts, name) ? facts.policyConsts[name] : undefined;
    if (own) return this.policyMemberOf(own, members, file, depth);
    const exported = Object.hasOwn(facts.exports, name) ? facts.exports[name] : undefined;
    if (exported?.k === 'import') return this.policyConstOf(this.resolveModule(file, exported.from), exported.name, members, depth + 1, visited);
    for (const specifier of facts.reexports) {
      const found = this.policyConstOf(this.resolveModule(file, specifier), name, members, depth + 1, new Set(visited));
      if (found) return found;
    }
    return undefined;
  }

  /** The layers of `members` below an exported `const`, read in `file`; a member that is itself an import is followed. */
  private policyMemberOf(found: PolicyConst, members: readonly string[], file: string, depth: number): PolicyLayer[] | undefined {
    let current = found;
    for (const [index, member] of members.entries()) {
      const next = current.members && Object.hasOwn(current.members, member) ? current.members[member] : undefined;
      if (!next) return undefined;
      const [layer] = next.layers;
      // `{ moneyOut: MONEY_OUT }` with `MONEY_OUT` imported: the rest of the path is read there.
      if (layer?.k === 'import' && next.layers.length === 1 && !next.members) {
        const rest = [...(layer.members ?? []), ...members.slice(index + 1)];
        return this.policyConstOf(this.resolveModule(file, layer.from), layer.name, rest, depth + 1, new Set());
      }
      current = next;
    }
    return current.layers.length > 0 ? this.resolvePolicyLayers(current.layers, file, depth + 1) : [{ k: 'fields', fields: {} }];
  }

  /** The scanned file a relative specifier names (`./tools/index.js` may be `./tools/index.ts`). */
  resolveModule(from: string, specifier: string): string | undefined {
    if (!specifier.startsWith('.')) return undefined;
    const base = path.resolve(path.dirname(from), specifier);
    const extension = path.extname(base);
    const stem = base.slice(0, base.length - extension.length);
    const candidates = [
      base,
      ...(JS_TO_TS[extension] ?? []).map((replacement) => stem + replacement),
      ...EXTENSIONS.map((added) => base + added),
      ...EXTENSIONS.map((added) => path.join(base, `index${added}`)),
    ];
    return candidates.find((candidate) => this.files.has(candidate));
  }

  private evaluate(value: Value, file: string, depth: number): Resolved[] {
    if (depth > MAX_DEPTH) return [];
    const next = (inner: Value, inFile = file): Resolved[] => this.evaluate(inner, inFile, depth + 1);
    switch (value.k) {
      case 'tool':
      case 'runner':
        return [{ k: value.k, ref: { file, index: value.index } }];
      case 'adapted':
        return [{ k: 'adapted', tools: next(value.tool), runners: value.runner ? next(value.runner) : [] }];
      case 'object':
        return [{ k: 'object', props: value.props, file }];
      case 'fn':
        return [{ k: 'fn', returns: value.returns, ...(value.returnSites ? { returnSites: value.returnSites } : {}), file }];
      case 'import':
        return this.importOf(file, value.from, value.name, depth);
      case 'call':
        return next(value.callee).flatMap((callee) => (callee.k === 'fn' ? this.returnsOf(callee, depth) : []));
      case 'member':
        return next(value.of).flatMap((object) => this.memberOf(object, value.name, depth));
      case 'store':
        return [{ k: 'store', store: { file, kind: value.kind, durable: value.durable, ...(value.allowVolatile ? { allowVolatile: value.allowVolatile } : {}), ...(value.allowVolatileAt ? { allowVolatileAt: value.allowVolatileAt } : {}), line: value.line, text: value.text } }];
      case 'either':
        return this.choicesOf(value, file, depth);
      case 'opaque':
        return [];
    }
  }

  /**
   * What each return of a called function can be. Of a function with several returns, one that
   * leads to no store is kept as unseen (`if (db) return createSqliteStore({ database: db }); return
   * given`): a store chosen by those returns is then not known to be durable.
   */
  private returnsOf(callee: Extract<Resolved, { k: 'fn' }>, depth: number): Resolved[] {
    return callee.returns.flatMap((returned, index): Resolved[] => {
      const found = this.evaluate(returned, callee.file, depth + 1);
      const site = callee.returnSites?.[index];
      if (!site || NO_STORE.has(site.text) || found.some((item) => item.k === 'store' || item.k === 'unseen')) return found;
      return [...found, { k: 'unseen', branch: { file: callee.file, line: site.line, text: site.text } }];
    });
  }

  /**
   * The stores each branch of a conditional can be, each marked as chosen by it (the innermost
   * conditional names it); a branch that leads to no store is unseen. Tools and runners are not
   * followed through a conditional: which of them a call or a test reaches is not known.
   */
  private choicesOf(value: Extract<Value, { k: 'either' }>, file: string, depth: number): Resolved[] {
    const chosenBy = { file, line: value.line, text: value.text };
    return value.branches.flatMap((branch): Resolved[] => {
      const found = this.evaluate(branch.value, file, depth + 1).flatMap((item): Resolved[] => {
        if (item.k === 'store') return [{ k: 'store', store: item.store.chosenBy ? item.store : { ...item.store, chosenBy } }];
        return item.k === 'unseen' ? [item] : [];
      });
      if (found.length > 0 || NO_STORE.has(branch.text)) return found;
      return [{ k: 'unseen', branch: { file, line: branch.line, text: branch.text, chosenBy } }];
    });
  }

  private memberOf(object: Resolved, name: string, depth: number): Resolved[] {
    if (object.k === 'object') {
      const property = object.props[name];
      return property ? this.evaluate(property, object.file, depth + 1) : [];
    }
    return object.k === 'namespace' ? this.exportOf(object.file, name, depth + 1, new Set()) : [];
  }

  private importOf(file: string, specifier: string, name: string, depth: number): Resolved[] {
    const target = this.resolveModule(file, specifier);
    if (!target) return [];
    return name === '*' ? [{ k: 'namespace', file: target }] : this.exportOf(target, name, depth + 1, new Set());
  }

  private exportOf(file: string, name: string, depth: number, visited: Set<string>): Resolved[] {
    const facts = this.files.get(file);
    if (!facts || visited.has(file)) return [];
    visited.add(file);
    const exported = facts.exports[name];
    if (exported) return this.evaluate(exported, file, depth + 1);
    if (name === 'default') return [];
    for (const specifier of facts.reexports) {
      const target = this.resolveModule(file, specifier);
      const found = target ? this.exportOf(target, name, depth + 1, visited) : [];
      if (found.length > 0) return found;
    }
    return [];
  }
}

function unique(refs: readonly FactRef[]): FactRef[] {
  const seen = new Set<string>();
  return refs.filter((ref) => {
    const id = `${ref.file}#${ref.index}`;
    return !seen.has(id) && seen.add(id) !== undefined;
  });
}
