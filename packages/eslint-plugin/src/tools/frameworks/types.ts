// The shape of one framework's entry in the catalogue (one module per framework in this folder).
// Everything the plugin knows about a framework is stated here as data, and the recognisers, the
// type-aware factory table, the `ToolFramework` union and the tests' stand-in list are derived from
// it (index.ts); tests/tools/frameworks.test.ts checks each entry against its stand-in and adapter.

/** A function or class whose call (or `new`) defines a tool: `tool(config)`, `new DynamicStructuredTool(config)`. */
export interface FactoryEntry {
  /** The export path below the module: `tool`, `DynamicStructuredTool`. */
  readonly export: string;
  /** Index of the argument that holds the tool's config object. */
  readonly configArgument: number;
  /** For factories that take the handler as an argument (LangChain `tool(fn, config)`). */
  readonly handlerArgument?: number;
  /** The config property that names the tool, when it is not `name` (Mastra's `id`). */
  readonly nameProperty?: string;
}

/** A method of a server object that registers a tool: `server.registerTool(name, config, handler)`. */
export interface RegistrationEntry {
  /** The class that declares the method, as the type checker names it: `McpServer`, `FastMCP`. */
  readonly owner: string;
  readonly method: string;
  /** Index of the argument that holds the tool's config (or the tool object). */
  readonly configArgument: number;
}

/** A server method whose handler lists tools as plain objects: `setRequestHandler(ListToolsRequestSchema, ...)`. */
export interface ToolListEntry {
  readonly method: string;
  /** The request schema export that selects the tool list, and the request method it stands for. */
  readonly schemaExport: string;
  readonly requestMethod: string;
}

/** Where a framework's tools declare their retry policy, as require-retry-policy reads it. */
export interface PolicyLocation {
  /** The config's own fields (`sideEffects`, `idempotent`, `retry`), as in `defineTool`. */
  readonly configFields?: true;
  /** `declarePolicy(tool, policy)` from `@retrysafe/spec`, around the tool or on its `const`. */
  readonly declarePolicy: boolean;
  /** A `retrysafe` policy object below this property path of the config: `['metadata']`, `['_meta']`. */
  readonly nested?: { readonly path: readonly string[]; readonly via: 'langchainMetadata' | 'mcpMeta' };
  /** MCP tool annotations (`readOnlyHint`, or `destructiveHint` with `idempotentHint`) also declare it. */
  readonly annotations?: true;
  /** What a tool with none is told to add: the last sentence of the `missingPolicy` message. */
  readonly remedy: string;
}

/** A type-only stand-in of the framework for the typed rule tests. */
export interface StandIn {
  /** The module specifier typed tests import, mapped by `paths` in tests/fixtures/tsconfig.json. */
  readonly module: string;
  /** The stand-in's folder below tests/fixtures; its package.json names one of {@link FrameworkEntry.packages}. */
  readonly folder: string;
}

/**
 * The `@retrysafe/spec` adapter that runs `defineTool` tools from this framework: its subpath export
 * and the framework package it takes as an optional peer dependency; or why there is none.
 */
export type Adapter =
  | { readonly subpath: `./adapters/${string}`; readonly peerDependency: string }
  | { readonly none: string };

/** One framework, as every recogniser, table and test reads it. */
export interface FrameworkEntry {
  /** The catalogue's key, the module's file name: `ai-sdk`, `fastmcp`. */
  readonly id: string;
  /** The `ToolFramework` its tools are recognised as (FastMCP tools are MCP tools). */
  readonly framework: string;
  /** The framework's name in docs and messages. */
  readonly title: string;
  /** Import specifiers its tools are made from, exactly as written in an import or `require`. */
  readonly modules: readonly string[];
  /** Whether any subpath of a module counts too (`@modelcontextprotocol/sdk/server/mcp.js`). */
  readonly moduleSubpaths?: true;
  /** The packages whose files declare its factories and classes (the type-aware recognition reads these). */
  readonly packages: readonly string[];
  readonly factories: readonly FactoryEntry[];
  /** Classes a tool extends to define a tool: `class X extends StructuredTool`. */
  readonly classes: readonly string[];
  readonly registrations: readonly RegistrationEntry[];
  readonly toolLists: readonly ToolListEntry[];
  readonly policy: PolicyLocation;
  /**
   * Where a durable run id comes from in this framework, and the per-call id that is not one: the
   * messages of the key rules end with it (docs/frameworks.md, "Durable runs"). Frameworks that share
   * a `ToolFramework` share it.
   */
  readonly runId: string;
  readonly standIns: readonly StandIn[];
  readonly adapter: Adapter;
}
