// What the collector rule records about one file while ESLint lints it: plain, JSON-serialisable
// data, so that no AST outlives its file (a 20,000-file tree fits in memory) and the audit can link
// facts across files afterwards (a tool defined in one file, its runner in another, its test in a
// third).

import type { PolicyConst, PolicyLayer as PluginPolicyLayer, PolicyUnknownValue, SymbolicValue } from './analysis.js';

/** A value as the linker follows it across files (the plugin's symbolic values). */
export type Value = SymbolicValue;

/** A line of code and what is on it. */
export interface Site {
  readonly line: number;
  readonly text: string;
}

/** MCP hints by name, as the code states them (no MCP default filled in); `null` for one stated with a value not known statically. */
export type McpHintsFact = Readonly<Partial<Record<'readOnlyHint' | 'destructiveHint' | 'idempotentHint' | 'openWorldHint', boolean | null>>>;

/** A tool definition and what its file says about it. */
export interface ToolFact {
  readonly name: string | null;
  readonly line: number;
  readonly column: number;
  readonly framework: string;
  /** Names the tool is bound to in its file (`const issueRefund = defineTool(...)`, `function issueRefundTool()`). */
  readonly aliases: readonly string[];
  readonly policy: PolicyFact | null;
  readonly key: KeyFact;
  readonly replay: ReplayFact;
  readonly providerKeys: readonly ProviderKeyFact[];
  /** What the effects analysis found in the handler; null when the handler is not visible in the file. */
  readonly effects: EffectsFact | null;
  /** The policy's layers when it is written through a spread or a `const` (the linker completes `policy` from them). */
  readonly policyLayers?: readonly PolicyLayer[];
  /** The MCP annotations' layers when they are a spread or a `const` (the linker reads the hints, and the policy they state where the plugin read none, from them). */
  readonly annotationLayers?: readonly PolicyLayer[];
  /** The MCP hints the annotations state as written (`null`: stated, but not statically); completed from `annotationLayers` by the linker. */
  readonly hints?: McpHintsFact;
  /**
   * Set when the tool is made at a call of a wrapper another file exports (`addTool(server,
   * 'refund', handler)`): the definition inside that wrapper, which the linker then does not list as
   * a tool of its own.
   */
  readonly wrappedAt?: WrappedAt;
}

/** Where a wrapper's own tool definition is: its file (absolute), 1-based line and column. */
export interface WrappedAt {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

/**
 * One layer of a policy written through `const`s, in source order (the later wins): the plugin's
 * `readPolicyLayers` reads them; the linker follows an `import` layer to the other module's exported
 * `const` (`policyConsts`).
 */
export type PolicyLayer = PluginPolicyLayer;

/** An exported `const` object as the plugin's `readExportedPolicyConsts` reads it: its layers, and its members that are policies. */
export type { PolicyConst };

/** The handler's effect operations, and the policy they imply when they are evidence enough for one. */
export interface EffectsFact {
  /** `file` (absolute): the operation is in another file, where the type-aware analysis followed an imported helper or client. */
  readonly operations: readonly (Site & {
    readonly column: number;
    readonly kind: string;
    readonly keyPassed: string | null;
    readonly file?: string;
    /** A generic HTTP client's create that sends its key: the header and the URL as written (the plugin's `FoundEffect.sentKey`). */
    readonly sentKey?: { readonly header: string; readonly url: string | null; readonly honouredBy?: string };
  })[];
  /** Every call the handler reaches is known (only then can "it only reads" be said). */
  readonly complete: boolean;
  /** The line of a lookup by a deduplication key in the handler, if any. */
  readonly keyLookupLine: number | null;
  /** The plugin's `inferPolicy`: what the effects imply, with the reason. */
  readonly inferred: {
    readonly idempotent: boolean;
    readonly sideEffects: string;
    readonly reason: string;
    /** The file (absolute) and line of the operation the reason names, when it is in another file (the type-aware analysis). */
    readonly at?: { readonly file: string; readonly line: number };
  } | null;
}

export interface PolicyFact {
  readonly side_effects: string | null;
  readonly idempotent: boolean | 'with_key' | null;
  readonly retry: string | null;
  readonly max_attempts: number | null;
  /** Whether the declaration states `max_attempts` (or `maxAttempts`), or may (a spread, a computed key): if not, the runtime's default applies. */
  readonly statesMaxAttempts: boolean;
  readonly via: 'annotations' | 'declarePolicy' | 'defineTool' | 'langchainMetadata' | 'mcpMeta';
  readonly line: number;
  /** The last line of the declaration (a rule's finding on one of its fields falls between the two). */
  readonly endLine: number;
  /** The declaration, in a few words of code. */
  readonly text: string;
  /** A stated value `@retrysafe/spec` does not know (the plugin's `readPolicyData`): the spec rejects the policy. */
  readonly unknownValue?: PolicyUnknownValue;
}

export interface KeyFact {
  readonly status: 'deterministic' | 'none' | 'nondeterministic' | 'unknown';
  /**
   * Each part, and whether it is one of the spec's `key` template parts or a tool's `key` function
   * result (`inKeyFunction`); `origins`: the leaves of a derived part the tool's code does not
   * settle (a factory's parameter, a run `openRun` opens); `fallback`: a constant the whole key
   * falls back to when its real key is missing; `constant`: a constant the whole key is.
   */
  readonly parts: readonly (Site & {
    readonly derived: boolean;
    readonly inKeyFunction: boolean;
    readonly origins: readonly KeyOriginFact[];
    /** The constant the part falls back to (`''` of `currentCall()?.key ?? ''`), what from, and the whole key it then is; `null`: none. */
    readonly fallback: (Site & { readonly primary: string; readonly key: string | number }) | null;
    /** The string constant the whole key is (`'refund'`, or the one `const KEY` is bound to, where it is written); `null`: not one. */
    readonly constant: (Site & { readonly key: string }) | null;
  })[];
  readonly sources: readonly (Site & { readonly kind: string })[];
}

/** A leaf of a key part that the tool's own code does not settle. */
export type KeyOriginFact =
  | {
      /** A parameter of the function that makes the tool: each call of it says what the key is. */
      readonly kind: 'factoryParameter';
      /** The leaf as written (`run.id`). */
      readonly text: string;
      /** The parameter's index, and the path below the argument the leaf reads (`null`: not readable). */
      readonly index: number;
      readonly path: readonly string[] | null;
      /** The factory, by its name where it has one, and its line. */
      readonly factory: string | null;
      readonly factoryLine: number;
    }
  | (Site & { readonly kind: 'openRun' });

/** What a call passes to a function that makes tools (`makeRefundTool(run)`), as the factory's parameter reads it. */
export type FactoryArgumentFact =
  /** The run `openRun(...)` opens, or its id: the site is the `openRun` call. */
  | (Site & { readonly k: 'run' | 'runId' })
  | { readonly k: 'literal'; readonly text: string }
  | { readonly k: 'object'; readonly props: Readonly<Record<string, FactoryArgumentFact>> }
  /** A random, clock or per-attempt source (the key tracer's). */
  | (Site & { readonly k: 'random' })
  | { readonly k: 'other'; readonly text: string };

/** A call of something that may make tools, with its arguments as a factory's parameters read them. */
export interface FactoryCallFact extends Site {
  /** The call, symbolically: the linker resolves it to the tools it returns. */
  readonly value: Value;
  /**
   * The function it calls, for a factory that registers its tools instead of returning them
   * (`registerTools(server, { runId: run.id })`): a function of this file, by its line, or an
   * import from the project, by its module and name.
   */
  readonly target: { readonly k: 'local'; readonly line: number } | { readonly k: 'import'; readonly from: string; readonly name: string } | null;
  readonly args: readonly FactoryArgumentFact[];
}

export interface ReplayFact {
  readonly kind: 'flag' | 'none' | 'runner' | 'unknown';
  readonly site: Site | null;
}

export interface ProviderKeyFact extends Site {
  readonly passed: 'missing' | 'passed' | 'unknown';
  /**
   * Who is called: Stripe and a provider configured in `providers` dedupe by the key (a record of
   * their own); fetch, axios and undici send it in an `Idempotency-Key` header to a server that may
   * not read it at all.
   */
  readonly provider: 'axios' | 'custom' | 'fetch' | 'stripe' | 'undici';
  /** The key passed, in a few words of code, when it is visibly not the tool's key (require-key-passthrough's `foreignKey`). */
  readonly foreignKey?: string;
}

/** A store construction (`createSqliteStore(...)`). */
export interface StoreFact extends Site {
  readonly kind: string;
  /** False for the memory store and an in-memory SQLite database. */
  readonly durable: boolean;
  /** A Redis store's `allowVolatile: true` (its persistence check is off), or `'unknown'` (not static); absent when off. */
  readonly allowVolatile?: true | 'unknown';
  /** Where `allowVolatile` is given (its value, or the options it is read from), when it is set. */
  readonly allowVolatileAt?: Site;
}

/** `createRunner({ store })` and its store, where visible. */
export interface RunnerFact extends Site {
  readonly store: StoreFact | null;
  /** The `store` option as written, when its construction is not visible. */
  readonly storeText: string | null;
  /** The `store` option, symbolically, when its construction is not in this file (an imported store, a factory's result): the linker follows it. */
  readonly storeValue: Value | null;
}

/** A call that hands a tool to a runner (`runner.call`, an adapter). */
export interface UseFact extends Site {
  readonly via: string;
  readonly tool: Value;
  /** A guard: `tool` is a set of tools (an object or an array), each run through the runner. */
  readonly collection: boolean;
  readonly runner: Value | null;
  /** Options chosen by a conditional whose branches do not name the same runner, in a few words of code (`flag ? {…} : {…}`). */
  readonly runnerConditional?: string;
}

/**
 * A tool set: a guard's (`guardAiSdkTools({ issue_refund: refundTool }, ...)`) or the `tools` of an
 * AI SDK call (`generateText`, `streamText`, an agent), with each member under its static key. An
 * AI SDK tool has no name of its own: the model sees its key here, so the linker names it by it.
 */
export interface ToolSetFact extends Site {
  readonly via: string;
  readonly members: readonly { readonly key: string; readonly value: Value }[];
}

/** A test that calls something twice with identical arguments. */
export interface CalledTwiceFact extends Site {
  readonly shape: 'callTwice' | 'expectSingleEffect' | 'repeatedCall';
  /** What it calls; `{ k: 'opaque' }` with the MCP tool name for `client.callTool({ name })`. */
  readonly target: Value;
  /** An MCP tool called by its registered name. */
  readonly toolName: string | null;
  /** The single-effect assertion's line, if any. */
  readonly assertionLine: number | null;
  /** The single-effect assertion as written (up to 80 characters), if any. */
  readonly assertionText: string | null;
  /**
   * What keeps the test from showing an effect, if anything: it is skipped (`it.skip`, `xit`,
   * `describe.skip`, `it.todo`), runs only under a condition (`it.skipIf(…)`, `it.runIf(…)`, an
   * `if` around it), or a `catch` swallows its assertion's failure; with where that is and its line.
   */
  readonly reach?: Site & { readonly kind: 'conditional' | 'skipped' | 'swallowed' };
  /** `expectSingleEffect` with no `effects` count in its options (visibly): see the plugin's CalledTwiceTest. */
  readonly withoutEffects?: true;
}

/** Everything the collector records about one file. */
export interface FileFacts {
  /** Absolute path. */
  readonly file: string;
  readonly isTest: boolean;
  readonly tools: readonly ToolFact[];
  readonly runners: readonly RunnerFact[];
  readonly uses: readonly UseFact[];
  /** Tool sets that name the AI SDK tools they hold by their keys. */
  readonly toolSets: readonly ToolSetFact[];
  readonly calledTwice: readonly CalledTwiceFact[];
  /** In a test file: what its imports refer to, to tell "references the tool" from "calls it twice". */
  readonly references: readonly Value[];
  /** What each export is, where that can lead to a tool or a runner. */
  readonly exports: Readonly<Record<string, Value>>;
  /** Exported `const` objects (shared policies, annotations, objects of them), as layers and members. */
  readonly policyConsts: Readonly<Record<string, PolicyConst>>;
  /** `export * from '...'` specifiers. */
  readonly reexports: readonly string[];
  /** Calls that may make tools (of a function the file defines or imports from the project), for the key's factory parameters. */
  readonly factoryCalls: readonly FactoryCallFact[];
  /** Whether the parser gave the file type information (a program): then the effects follow calls into other files. */
  readonly typed: boolean;
}
