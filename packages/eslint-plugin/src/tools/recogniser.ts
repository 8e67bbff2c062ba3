import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import { type FunctionNode, getCallsAndClasses, getImportedModules, isNodeOfFile } from '../ast/index.js';
import { findFactory, fromFactory, getToolFactories, type KnownFactory } from './factories.js';
import { fromAddTool, fromAddTools, importsFastMcp, isFastMcpCall } from './fastMcpTools.js';
import { mcpLowLevel } from './frameworks/index.js';
import { fromToolClass, importsLangChainTools } from './langchainClassTools.js';
import { fromWrapperCall, getCalledLocalFunction, getEnclosingFunction, isCalledInFile, type LocalWrapper, readLocalWrapper } from './localWrappers.js';
import { fromListedToolObject, getListedToolObjects } from './mcpLowLevelTools.js';
import { fromMcpRegistration, importsMcpSdk } from './mcpTools.js';
import type { ToolClassNode, ToolDefinition, ToolFactory, ToolSiteNode } from './toolDefinition.js';

// One place that knows what a tool definition looks like in each framework, so that every rule
// agrees on it. Everything is decided from syntax and imports: the frameworks are not installed
// where the rules run. What each framework is (modules, factories, classes, registrations, where
// its policy is declared) is data in tools/frameworks/; the readers of each kind of shape are:
// - factories.ts: `defineTool`, AI SDK, OpenAI Agents, LangChain, the `toolFactories` option;
// - langchainClassTools.ts: LangChain tools written as classes (`class X extends StructuredTool`);
// - mcpTools.ts: MCP `server.registerTool(...)` and `server.tool(...)`;
// - fastMcpTools.ts: FastMCP `server.addTool(...)` and `server.addTools([...])`;
// - mcpLowLevelTools.ts: tool objects listed by a low-level MCP server's `tools/list` handler;
// - declaredPolicies.ts: `declarePolicy(tool, policy)`, `metadata.retrysafe`, `_meta.retrysafe`.

/** Answers, for one file, which calls and objects define tools. */
export interface ToolRecogniser {
  /** The tool a call or `new` defines (framework factory, MCP registration, FastMCP `addTool`), if any. */
  recogniseToolCall(node: TSESTree.CallExpression | TSESTree.NewExpression): ToolDefinition | undefined;
  /** The tool a class defines by extending a LangChain tool class, if any. */
  recogniseToolClass(node: ToolClassNode): ToolDefinition | undefined;
  /**
   * The tool objects a low-level MCP `setRequestHandler(ListToolsRequestSchema, handler)` call lists,
   * followed through `const` objects and arrays in the file. Each object is returned only once per
   * file, at the first handler that lists it.
   */
  listedTools(node: TSESTree.CallExpression): readonly ToolDefinition[];
  /**
   * All of the above, and the tools a FastMCP `server.addTools([...])` adds: every tool definition a
   * call, `new` or class makes. Rules visit `CallExpression`, `NewExpression`, `ClassDeclaration`
   * and `ClassExpression` with it. `node` is a node of this recogniser's file.
   */
  definitionsAt(node: ToolSiteNode): readonly ToolDefinition[];
  /**
   * Every node of the file at which {@link definitionsAt} answers something, with its answer, in
   * source order (the order ESLint visits them): found by one walk of the file, shared by every rule
   * of the file with the same factories. A rule that judges tools alone reads them from one
   * `Program` listener instead of asking at every call, `new` and class (docs/performance.md).
   */
  sites(): readonly ToolSite[];
  /**
   * The wrapper a function of this file is: the tool definitions in its body that take their config
   * from its parameters (tools/localWrappers.ts), read once per function. The type-aware twin asks
   * it about a function another file imports and calls.
   */
  wrapperOf(fn: FunctionNode): LocalWrapper | undefined;
  /**
   * False when nothing in the file can define a tool: it imports no tool factory's or tool class's
   * module, not the MCP SDK and not FastMCP, and never names `setRequestHandler`. Then every answer
   * above is empty, and a rule that only judges tools returns no listeners for the file (most files
   * of a large code base; docs/performance.md).
   */
  readonly mayDefineTools: boolean;
}

/** A node that defines tools, and the tools it defines (at least one). */
export interface ToolSite {
  readonly node: ToolSiteNode;
  readonly definitions: readonly ToolDefinition[];
}

const NO_DEFINITIONS: readonly ToolDefinition[] = [];
/** The method a low-level MCP server lists its tools with: a file that never names it lists none. */
const TOOL_LIST_METHOD = mcpLowLevel.toolLists[0].method;

/**
 * The recogniser for one file. Every rule of the file that recognises tools with the same factories
 * gets the same one, whose answers it shares (docs/performance.md). Ask for it in `create(context)`.
 */
export function createToolRecogniser(
  sourceCode: Readonly<TSESLint.SourceCode>,
  options: { readonly toolFactories?: readonly ToolFactory[] } = {},
): ToolRecogniser {
  // A factory is recognised through its import, whose module specifier is a string literal in this
  // file: keep the factories whose module the file quotes, so that in most files no callee is
  // resolved at all (on real code, the largest cost of the recommended config; docs/performance.md).
  const factories = getImportedFactories(sourceCode, getToolFactories(options.toolFactories ?? []));
  let byFactories = recognisersByFile.get(sourceCode);
  if (!byFactories) recognisersByFile.set(sourceCode, (byFactories = new Map()));
  let recogniser = byFactories.get(factories);
  if (!recogniser) byFactories.set(factories, (recogniser = new FileToolRecogniser(sourceCode, factories, getToolFileKinds(sourceCode))));
  return recogniser;
}

const recognisersByFile = new WeakMap<Readonly<TSESLint.SourceCode>, Map<readonly KnownFactory[], FileToolRecogniser>>();

/**
 * {@link ToolRecogniser} for one file and factory list. A class rather than closures made per file:
 * V8 optimises a method once per process, where it optimised each file's closure again (measured
 * with `--trace-opt`, docs/performance.md). What a node defines depends only on the file, the node
 * and the factories, so the answers are kept here for every rule of the file.
 */
class FileToolRecogniser implements ToolRecogniser {
  readonly mayDefineTools: boolean;
  private readonly answers: SharedAnswers = {
    calls: new Map(),
    classes: new Map(),
    listedObjects: new Map(),
    listedDefinitions: new Map(),
    addedTools: new Map(),
    wrapperCalls: new Map(),
    wrappers: new Map(),
    direct: new Map(),
    listed: new Set(),
  };
  private readonly mcpFile: boolean;
  private readonly fastMcpFile: boolean;
  private readonly toolClassFile: boolean;
  private readonly mayListTools: boolean;
  /** {@link recogniseDirectCall}, bound: `readLocalWrapper` calls it. */
  private readonly recogniseDirect = (node: TSESTree.CallExpression | TSESTree.NewExpression): ToolDefinition | undefined => this.recogniseDirectCall(node);

  constructor(
    private readonly sourceCode: Readonly<TSESLint.SourceCode>,
    private readonly factories: readonly KnownFactory[],
    kinds: ToolFileKinds,
  ) {
    this.mcpFile = kinds.mcpFile;
    this.fastMcpFile = kinds.fastMcpFile;
    this.toolClassFile = kinds.toolClassFile;
    this.mayListTools = kinds.mayListTools;
    this.mayDefineTools = factories.length > 0 || kinds.toolClassFile || kinds.mcpFile || kinds.fastMcpFile || kinds.mayListTools;
  }

  /** The wrapper `fn` is (its inner definitions take their config from its parameters), if any. */
  wrapperOf(fn: FunctionNode): LocalWrapper | undefined {
    const wrappers = this.answers.wrappers;
    let wrapper = wrappers.get(fn);
    if (wrapper === undefined && isNodeOfFile(fn, this.sourceCode) && !this.getWrapperCandidates().has(fn)) {
      // No call inside `fn` defines a tool: its body need not be walked to know it wraps none.
      wrappers.set(fn, (wrapper = null));
    }
    if (wrapper === undefined) {
      wrappers.set(fn, null); // a wrapper that calls itself
      wrapper = readLocalWrapper(this.sourceCode, fn, this.recogniseDirect) ?? null;
      wrappers.set(fn, wrapper);
    }
    return wrapper ?? undefined;
  }

  /**
   * A definition inside a wrapper that the file calls is defined at each call instead; one in a
   * wrapper the file never calls (exported, used elsewhere) stays where it is.
   */
  recogniseToolCall(node: TSESTree.CallExpression | TSESTree.NewExpression): ToolDefinition | undefined {
    const calls = this.answers.calls;
    const known = calls.get(node);
    if (known !== undefined) return known ?? undefined;
    const definition = this.recogniseOutsideCalledWrappers(node);
    calls.set(node, definition ?? null);
    return definition;
  }

  private recogniseOutsideCalledWrappers(node: TSESTree.CallExpression | TSESTree.NewExpression): ToolDefinition | undefined {
    const definition = this.recogniseDirectCall(node);
    if (!definition) return undefined;
    for (let fn = getEnclosingFunction(node); fn; fn = getEnclosingFunction(fn)) {
      const wrapper = this.wrapperOf(fn);
      if (wrapper && wrapper.wrapped.some((entry) => entry.inner.node === node) && isCalledInFile(fn, this.sourceCode)) return undefined;
    }
    return definition;
  }

  /** What `node` defines by itself (a factory call, a registration), once per node for every rule and wrapper of the file. */
  private recogniseDirectCall(node: TSESTree.CallExpression | TSESTree.NewExpression): ToolDefinition | undefined {
    const answers = this.answers;
    const known = answers.direct.get(node);
    if (known !== undefined) return known;
    // After the walk of the file, a node of the file that is not in the map defines nothing by itself.
    if (answers.sites && isNodeOfFile(node, this.sourceCode)) return undefined;
    const definition = this.recogniseDirectCallUncached(node);
    if (definition) answers.direct.set(node, definition);
    return definition;
  }

  /**
   * The functions of the file that hold a call defining a tool by itself (at any depth): the only
   * ones `readLocalWrapper` can find a wrapped definition in, since it looks at no other call. Found
   * by the walk of the file that finds the tool sites ({@link getSiteMap}), instead of a walk of the
   * body of every function the file calls (nested bodies again for each function around them).
   */
  private getWrapperCandidates(): ReadonlySet<FunctionNode> {
    return this.answers.wrapperCandidates ?? (this.getSiteMap(), this.answers.wrapperCandidates!);
  }

  /**
   * The walk of the file: every call and `new` is asked what it defines by itself (and the
   * functions around one that does are the wrapper candidates); then, in source order, the nodes
   * that can define anything (those, calls of a local function when the file has a wrapper
   * candidate, FastMCP `addTools` and low-level tool lists, classes) get {@link definitionsAt}'s
   * answer once. Nothing is kept for the other nodes.
   */
  private getSiteMap(): ReadonlyMap<ToolSiteNode, readonly ToolDefinition[]> {
    const answers = this.answers;
    if (answers.sites) return answers.sites;
    const found = new Set<FunctionNode>();
    const asked: ToolSiteNode[] = [];
    const othersMayDefine = this.fastMcpFile || this.mayListTools;
    const toolClassFile = this.toolClassFile;
    // The file's calls, `new`s and classes, in source order, shared with the other readers of the
    // file (getCallsAndClasses): no walk of every node here.
    const candidates = getCallsAndClasses(this.sourceCode);
    for (let i = 0; i < candidates.length; i += 1) {
      const node = candidates[i]!;
      if (node.type === AST_NODE_TYPES.CallExpression || node.type === AST_NODE_TYPES.NewExpression) {
        if (this.recogniseDirectCall(node)) {
          asked.push(node);
          for (let fn = getEnclosingFunction(node); fn && !found.has(fn); fn = getEnclosingFunction(fn)) found.add(fn);
        } else if (node.type === AST_NODE_TYPES.CallExpression && (node.callee.type === AST_NODE_TYPES.Identifier || (othersMayDefine && node.callee.type === AST_NODE_TYPES.MemberExpression))) {
          asked.push(node);
        }
      } else if (toolClassFile) {
        asked.push(node);
      }
    }
    answers.wrapperCandidates = found;
    const sites = new Map<ToolSiteNode, readonly ToolDefinition[]>();
    answers.sites = sites;
    const list: ToolSite[] = [];
    for (const node of asked) {
      const definitions = this.findDefinitionsAt(node);
      if (definitions.length > 0) {
        sites.set(node, definitions);
        list.push({ node, definitions });
      }
    }
    answers.siteList = list;
    return sites;
  }

  sites(): readonly ToolSite[] {
    return this.answers.siteList ?? (this.getSiteMap(), this.answers.siteList!);
  }

  private recogniseDirectCallUncached(node: TSESTree.CallExpression | TSESTree.NewExpression): ToolDefinition | undefined {
    const sourceCode = this.sourceCode;
    const factory = this.factories.length > 0 ? findFactory(sourceCode, node.callee, this.factories) : undefined;
    if (factory) return fromFactory(sourceCode, node, factory);
    if (node.type !== AST_NODE_TYPES.CallExpression || node.callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
    const registered = this.mcpFile ? fromMcpRegistration(sourceCode, node) : undefined;
    if (registered) return registered;
    return this.fastMcpFile && isFastMcpCall(sourceCode, node, 'addTool') ? fromAddTool(sourceCode, node) : undefined;
  }

  recogniseToolClass(node: ToolClassNode): ToolDefinition | undefined {
    if (!this.toolClassFile) return undefined;
    const classes = this.answers.classes;
    const known = classes.get(node);
    if (known !== undefined) return known ?? undefined;
    const definition = fromToolClass(this.sourceCode, node);
    classes.set(node, definition ?? null);
    return definition;
  }

  listedTools(node: TSESTree.CallExpression): readonly ToolDefinition[] {
    if (!this.mayListTools) return NO_DEFINITIONS;
    const answers = this.answers;
    let objects = answers.listedObjects.get(node);
    if (!objects) {
      objects = getListedToolObjects(this.sourceCode, node);
      // Almost every call lists nothing (its method name says so): no array and no cache entry for it.
      if (objects.length === 0) return NO_DEFINITIONS;
      answers.listedObjects.set(node, objects);
    }
    const listed = answers.listed;
    const fresh = objects.filter((object) => !listed.has(object));
    for (const object of fresh) listed.add(object);
    return fresh.map((object) => {
      let definition = answers.listedDefinitions.get(object);
      if (!definition) answers.listedDefinitions.set(object, (definition = fromListedToolObject(this.sourceCode, object)));
      return definition;
    });
  }

  definitionsAt(node: ToolSiteNode): readonly ToolDefinition[] {
    // The walk runs once per file: its call is kept off the path every later call takes.
    return (this.answers.sites ?? this.getSiteMap()).get(node) ?? NO_DEFINITIONS;
  }

  private findDefinitionsAt(node: ToolSiteNode): readonly ToolDefinition[] {
    if (node.type === AST_NODE_TYPES.ClassDeclaration || node.type === AST_NODE_TYPES.ClassExpression) {
      const definition = this.recogniseToolClass(node);
      return definition ? [definition] : NO_DEFINITIONS;
    }
    const answers = this.answers;
    // Asked only by the walk of the file, which has noted every call that defines a tool by itself:
    // another call defines none at its own node (no scope lookup, no cache entry for it).
    const definition = answers.direct.has(node) ? this.recogniseToolCall(node) : undefined;
    if (definition) return [definition];
    if (node.type !== AST_NODE_TYPES.CallExpression) return NO_DEFINITIONS;
    // Every rule asks this of every call: the callee's scope lookup is done once per file.
    // A file none of whose functions holds a tool definition has no wrapper: no callee is looked up
    // and nothing is kept for the call.
    if (node.callee.type === AST_NODE_TYPES.Identifier && this.getWrapperCandidates().size > 0) {
      let viaWrapper = answers.wrapperCalls.get(node);
      if (viaWrapper === undefined) {
        const called = getCalledLocalFunction(node, this.sourceCode);
        const wrapper = called && this.wrapperOf(called);
        viaWrapper = wrapper ? fromWrapperCall(this.sourceCode, node, wrapper) : null;
        answers.wrapperCalls.set(node, viaWrapper);
      }
      if (viaWrapper) return viaWrapper;
    }
    if (this.fastMcpFile && isFastMcpCall(this.sourceCode, node, 'addTools')) {
      let added = answers.addedTools.get(node);
      if (!added) answers.addedTools.set(node, (added = fromAddTools(this.sourceCode, node)));
      return added;
    }
    return this.listedTools(node);
  }
}

/** The recognisers' answers for one file and factory list (`null`: the node defines no tool). */
interface SharedAnswers {
  readonly calls: Map<TSESTree.Node, ToolDefinition | null>;
  readonly classes: Map<TSESTree.Node, ToolDefinition | null>;
  readonly listedObjects: Map<TSESTree.Node, readonly TSESTree.ObjectExpression[]>;
  readonly listedDefinitions: Map<TSESTree.ObjectExpression, ToolDefinition>;
  readonly addedTools: Map<TSESTree.Node, readonly ToolDefinition[]>;
  /** What a call of a local wrapper defines (`null`: the call is not of a wrapper). */
  readonly wrapperCalls: Map<TSESTree.Node, readonly ToolDefinition[] | null>;
  /** The wrapper a function is (`null`: it is none, or it is being read). */
  readonly wrappers: Map<FunctionNode, LocalWrapper | null>;
  /** What a call or `new` defines by itself, not through a wrapper (only the calls that define one). */
  readonly direct: Map<TSESTree.Node, ToolDefinition>;
  /** The tool objects of low-level tool lists already answered (each is defined at its first list). */
  readonly listed: Set<TSESTree.ObjectExpression>;
  /** The functions that hold a call defining a tool by itself; built by the walk of the file. */
  wrapperCandidates?: ReadonlySet<FunctionNode>;
  /** The nodes of the file that define tools, by the walk of the file ({@link ToolRecogniser.sites}). */
  sites?: ReadonlyMap<ToolSiteNode, readonly ToolDefinition[]>;
  siteList?: readonly ToolSite[];
}

/** Which kinds of tool definition a file can hold, whatever the rule's options. */
interface ToolFileKinds {
  /** Imports or requires the MCP SDK at its top level. */
  readonly mcpFile: boolean;
  readonly fastMcpFile: boolean;
  /** Imports a LangChain module whose tool classes can be extended. */
  readonly toolClassFile: boolean;
  /** Names `setRequestHandler`, so may list tools from a low-level MCP server. */
  readonly mayListTools: boolean;
}

const toolFileKindsByFile = new WeakMap<Readonly<TSESLint.SourceCode>, ToolFileKinds>();

/** {@link ToolFileKinds}, worked out once per file for every rule that recognises tools. */
function getToolFileKinds(sourceCode: Readonly<TSESLint.SourceCode>): ToolFileKinds {
  let kinds = toolFileKindsByFile.get(sourceCode);
  if (!kinds) {
    kinds = {
      mcpFile: importsMcpSdk(sourceCode.ast),
      fastMcpFile: importsFastMcp(sourceCode),
      toolClassFile: importsLangChainTools(sourceCode),
      mayListTools: sourceCode.text.includes(TOOL_LIST_METHOD),
    };
    toolFileKindsByFile.set(sourceCode, kinds);
  }
  return kinds;
}

const importedFactoriesByFile = new WeakMap<Readonly<TSESLint.SourceCode>, Map<readonly KnownFactory[], KnownFactory[]>>();

/**
 * The factories whose module the file imports (or `require`s). Cached per file and factory list,
 * since every rule that recognises tools asks the same.
 */
function getImportedFactories(sourceCode: Readonly<TSESLint.SourceCode>, all: readonly KnownFactory[]): KnownFactory[] {
  let byList = importedFactoriesByFile.get(sourceCode);
  if (!byList) importedFactoriesByFile.set(sourceCode, (byList = new Map()));
  let factories = byList.get(all);
  if (!factories) {
    const modules = getImportedModules(sourceCode);
    factories = all.filter((factory) => factory.sources.some((source) => modules.has(source)));
    byList.set(all, factories);
  }
  return factories;
}
