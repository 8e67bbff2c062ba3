import type { CalledTwiceFact, FactoryCallFact, FileFacts, PolicyLayer, RunnerFact, ToolFact, UseFact } from '../collect/facts.js';
import { type FactRef, ProjectIndex, type StoreAt, type UnseenStore } from '../link.js';

// Every link between a tool and the rest of the scanned code, worked out once for the whole tree:
// the runners that run it, the tests that call it twice, the tests that merely import it.

/** A runner construction and the file it is in. */
export interface RunnerAt {
  readonly file: string;
  readonly runner: RunnerFact;
  /** The file its store is made in, when that is another file than the runner's (an imported store). */
  readonly storeFile?: string;
  /**
   * Every store its `store` can be, when it can be more than one: a function with several returns
   * (`if (test) return createNonDurableMemoryStore(); return createSqliteStore(...)`), a conditional
   * (`flag ? createSqliteStore(...) : createNonDurableMemoryStore()`, `??`, `||`). Judged each, the
   * weakest answers.
   */
  readonly storeChoices?: readonly StoreAt[];
  /** The branches of such a conditional whose store is not visible (a parameter, a package's export). */
  readonly unseenStores?: readonly UnseenStore[];
}

/** A called-twice test and the file it is in. */
export interface TestAt {
  readonly file: string;
  readonly test: CalledTwiceFact;
}

/** What the rest of the scanned code does with one tool. */
export interface ToolLinks {
  /** Runner calls and adapters in source (not test) files that hand this tool to a runner. */
  readonly uses: readonly { readonly file: string; readonly use: UseFact; readonly runners: readonly RunnerAt[] }[];
  /**
   * Runner calls and adapters that hand this tool to a runner in files the audit reads as tests
   * (named like a test, or importing a test runner or `@retrysafe/spec/testing`): their runners are
   * not the deployed one, so they answer no question, but they are named where nothing else runs it.
   */
  readonly testUses: readonly { readonly file: string; readonly use: UseFact }[];
  readonly calledTwice: readonly TestAt[];
  /** Test files that import something that leads to this tool. */
  readonly referencedBy: readonly string[];
  /** Calls in source (not test) files of a function that makes this tool (`makeRefundTool(run)`): they say what its parameters are. */
  readonly factoryCalls: readonly { readonly file: string; readonly call: FactoryCallFact }[];
}

/** A tool with its file. */
export interface ToolAt {
  readonly file: string;
  readonly index: number;
  readonly tool: ToolFact;
}

/** The links of every tool, and what the audit needs to know about the tree as a whole. */
export interface ProjectLinks {
  readonly tools: readonly ToolAt[];
  linksOf(tool: ToolAt): ToolLinks;
  /** Called-twice tests whose target could not be followed to any tool. */
  readonly unresolvedTests: readonly TestAt[];
  readonly testFiles: number;
}

/** Links the facts of every scanned file. */
export function linkProject(files: ReadonlyMap<string, FileFacts>): ProjectLinks {
  const index = new ProjectIndex(files);
  const links = new Map<string, { uses: ToolLinks['uses'][number][]; testUses: ToolLinks['testUses'][number][]; calledTwice: TestAt[]; referencedBy: Set<string>; factoryCalls: ToolLinks['factoryCalls'][number][] }>();
  const tools: ToolAt[] = [];
  // A wrapper's own definition (`server.registerTool(name, …)` inside an exported `addTool`) is the
  // tools its calls in other files make: those are listed, at each call, instead of it.
  const wrapped = new Set<string>();
  for (const facts of index.all()) for (const tool of facts.tools) if (tool.wrappedAt) wrapped.add(siteId(tool.wrappedAt));
  const setKeys = keysInToolSets(index);
  for (const facts of index.all()) {
    facts.tools.forEach((tool, i) => {
      if (wrapped.has(siteId({ file: facts.file, line: tool.line, column: tool.column }))) return;
      tools.push({ file: facts.file, index: i, tool: withSetKey(withPolicyFollowed(tool, facts.file, index), setKeys.get(refId({ file: facts.file, index: i }))) });
      links.set(refId({ file: facts.file, index: i }), { uses: [], testUses: [], calledTwice: [], referencedBy: new Set(), factoryCalls: [] });
    });
  }
  const linkOf = (ref: FactRef) => links.get(refId(ref));
  const runnerAt = (ref: FactRef): RunnerAt | undefined => {
    const runner = index.facts(ref.file)?.runners[ref.index];
    if (!runner) return undefined;
    if (runner.store || !runner.storeValue) return { file: ref.file, runner };
    // A store from another file (or a factory's result, or a conditional's branch). Where it can be
    // several (a function with several returns, a conditional), each is kept, and question 4 judges
    // the weakest: no guess between them. A branch whose store is not visible is one of them.
    const { stores, unseen } = index.resolveStores(runner.storeValue, ref.file);
    const [store] = stores;
    if (!store) return { file: ref.file, runner };
    if (stores.length + unseen.length > 1) return { file: ref.file, runner, storeChoices: stores, unseenStores: unseen };
    const { file: storeFile, ...made } = store;
    return { file: ref.file, runner: { ...runner, store: made }, storeFile };
  };
  const factories = indexFactories(tools, index);
  const unresolvedTests: TestAt[] = [];
  let testFiles = 0;
  for (const facts of index.all()) {
    if (facts.isTest) testFiles += 1;
    else linkUses(facts, index, linkOf, runnerAt);
    if (!facts.isTest) {
      for (const call of facts.factoryCalls) {
        const targets = new Map<string, FactRef>();
        for (const target of index.resolve(call.value, facts.file, { members: true }).tools) targets.set(refId(target), target);
        for (const target of factories.madeBy(call, facts.file)) targets.set(refId(target), target);
        for (const target of targets.values()) linkOf(target)?.factoryCalls.push({ file: facts.file, call });
      }
    }
    if (!facts.isTest) continue;
    for (const use of facts.uses) {
      for (const target of index.resolve(use.tool, facts.file, { members: use.collection }).tools) linkOf(target)?.testUses.push({ file: facts.file, use });
    }
    for (const test of facts.calledTwice) {
      const targets = test.toolName !== null ? toolsNamed(tools, test.toolName) : index.resolve(test.target, facts.file).tools;
      if (targets.length === 0) unresolvedTests.push({ file: facts.file, test });
      for (const target of targets) linkOf(target)?.calledTwice.push({ file: facts.file, test });
    }
    for (const reference of facts.references) {
      for (const target of index.resolve(reference, facts.file).tools) linkOf(target)?.referencedBy.add(facts.file);
    }
  }
  return {
    tools,
    unresolvedTests,
    testFiles,
    linksOf: (tool) => {
      const found = linkOf(tool);
      return { uses: found?.uses ?? [], testUses: found?.testUses ?? [], calledTwice: found?.calledTwice ?? [], referencedBy: [...(found?.referencedBy ?? [])], factoryCalls: found?.factoryCalls ?? [] };
    },
  };
}

function linkUses(
  facts: FileFacts,
  index: ProjectIndex,
  linkOf: (ref: FactRef) => { uses: ToolLinks['uses'][number][] } | undefined,
  runnerAt: (ref: FactRef) => RunnerAt | undefined,
): void {
  for (const use of facts.uses) {
    const runners = use.runner ? index.resolve(use.runner, facts.file).runners : [];
    const at = runners.map(runnerAt).filter((runner) => runner !== undefined);
    for (const target of index.resolve(use.tool, facts.file, { members: use.collection }).tools) linkOf(target)?.uses.push({ file: facts.file, use, runners: at });
  }
}

/**
 * The keys each tool is held under in a tool set (a guard's, or the `tools` of an AI SDK call) in a
 * source (not test) file, by the tool, through imports and `const`s as every link is followed.
 */
function keysInToolSets(index: ProjectIndex): Map<string, Set<string>> {
  const keys = new Map<string, Set<string>>();
  for (const facts of index.all()) {
    // A test's tool set is scaffolding: the deployed code's sets name the tool.
    if (facts.isTest) continue;
    for (const set of facts.toolSets) {
      for (const { key, value } of set.members) {
        for (const target of index.resolve(value, facts.file).tools) {
          const id = refId(target);
          const found = keys.get(id);
          if (found) found.add(key);
          else keys.set(id, new Set([key]));
        }
      }
    }
  }
  return keys;
}

/**
 * An AI SDK tool named by its key in the tool set that holds it: `tool({...})` has no name of its
 * own, and the model sees that key (not the variable, `refundTool`, that the recogniser names it by
 * where it has nothing else). Held under two different keys, it keeps the name it has: no guess.
 */
function withSetKey(tool: ToolFact, keys: ReadonlySet<string> | undefined): ToolFact {
  if (tool.framework !== 'ai-sdk' || !keys || keys.size !== 1) return tool;
  const [key] = keys;
  if (key === undefined || key === tool.name) return tool;
  return { ...tool, name: key, aliases: tool.name === null || tool.aliases.includes(tool.name) ? tool.aliases : [...tool.aliases, tool.name] };
}

/**
 * The tools a function makes whose key reads its parameters, by the function: its file and line, and
 * its file and name (for a call through an import, matched by the imported name).
 */
function indexFactories(tools: readonly ToolAt[], index: ProjectIndex): { madeBy(call: FactoryCallFact, file: string): FactRef[] } {
  const byPlace = new Map<string, FactRef[]>();
  const add = (id: string, ref: FactRef): void => {
    const list = byPlace.get(id);
    if (list) list.push(ref);
    else byPlace.set(id, [ref]);
  };
  for (const { file, index: i, tool } of tools) {
    const seen = new Set<number>();
    for (const part of tool.key.parts) {
      for (const origin of part.origins) {
        if (origin.kind !== 'factoryParameter' || seen.has(origin.factoryLine)) continue;
        seen.add(origin.factoryLine);
        add(`${file}#${origin.factoryLine}`, { file, index: i });
        if (origin.factory) add(`${file}:${origin.factory}`, { file, index: i });
      }
    }
  }
  return {
    madeBy(call, file) {
      const target = call.target;
      if (!target) return [];
      if (target.k === 'local') return byPlace.get(`${file}#${target.line}`) ?? [];
      const module = index.resolveModule(file, target.from);
      return module ? (byPlace.get(`${module}:${target.name}`) ?? []) : [];
    },
  };
}

/**
 * The tool with its policy read through the `const`s it is written with (`{ ...WRITE_WITH_KEY }`,
 * an imported `READ_ONLY`, `annotations: { ...READ_ONLY_HINTS }`), layer by layer, the later winning.
 * A field a layer that is not followed may set stays `null` (not known).
 */
function withPolicyFollowed(tool: ToolFact, file: string, index: ProjectIndex): ToolFact {
  if (tool.policy && tool.policyLayers) {
    const fields = merge(index.resolvePolicyLayers(tool.policyLayers, file));
    const text = (name: string): string | null => (typeof fields[name] === 'string' ? (fields[name] as string) : null);
    const idempotent = fields.idempotent === true || fields.idempotent === false || fields.idempotent === 'with_key' ? fields.idempotent : null;
    const attempts = fields.max_attempts;
    return {
      ...tool,
      policy: {
        ...tool.policy,
        side_effects: text('side_effects'),
        idempotent,
        retry: text('retry'),
        max_attempts: typeof attempts === 'number' && Number.isInteger(attempts) && attempts > 0 ? attempts : null,
        // A layer that states it, or one not followed that may: only a policy no layer sets it in gets the default.
        statesMaxAttempts: 'max_attempts' in fields,
      },
    };
  }
  if (tool.annotationLayers) {
    const merged = merge(index.resolvePolicyLayers(tool.annotationLayers, file));
    const hints: Record<string, boolean | null> = {};
    for (const name of HINT_NAMES) if (name in merged) hints[name] = typeof merged[name] === 'boolean' ? (merged[name] as boolean) : null;
    const withHints = Object.keys(hints).length > 0 ? { ...tool, hints } : tool;
    if (tool.policy) return withHints;
    const line = tool.line;
    const site = { line, endLine: line, text: 'annotations' };
    // As the plugin's readPolicyData reads hints: readOnlyHint true states no side effects, idempotentHint
    // the class; neither states a retry policy. A hint not known statically may be either.
    const readOnly = hints.readOnlyHint === true;
    if ((readOnly || typeof hints.idempotentHint === 'boolean') && hints.readOnlyHint !== null) {
      const idempotent = typeof hints.idempotentHint === 'boolean' ? hints.idempotentHint : null;
      return { ...withHints, policy: { ...site, side_effects: readOnly ? 'none' : null, idempotent, retry: null, max_attempts: null, statesMaxAttempts: false, via: 'annotations' } };
    }
    return withHints;
  }
  return tool;
}

const HINT_NAMES = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;

/** Folds layers into fields: a later layer wins; a field an opaque layer may set becomes `null`. */
function merge(layers: readonly PolicyLayer[]): Record<string, string | number | boolean | null> {
  const fields: Record<string, string | number | boolean | null> = {};
  for (const layer of layers) {
    if (layer.k === 'fields') Object.assign(fields, layer.fields);
    else if (layer.k === 'opaque' && layer.field) fields[layer.field] = null;
    else if (layer.k === 'opaque') for (const name of ['side_effects', 'idempotent', 'retry', 'max_attempts', ...HINT_NAMES]) fields[name] = null;
  }
  return fields;
}

function toolsNamed(tools: readonly ToolAt[], name: string): FactRef[] {
  return tools.filter((candidate) => candidate.tool.name === name).map(({ file, index }) => ({ file, index }));
}

function siteId(site: { readonly file: string; readonly line: number; readonly column: number }): string {
  return `${site.file}:${site.line}:${site.column}`;
}

function refId(ref: FactRef): string {
  return `${ref.file}#${ref.index}`;
}
