import type { ESLint, Rule } from 'eslint';

import {
  allowVolatileOf,
  type AllowedSource,
  createCrossFileEffects,
  createEffectsAnalyser,
  createImportedWrappers,
  createKeyNameMatcher,
  createToolRecogniser,
  createValueSummariser,
  describeKeyDerivation,
  describeNode,
  findCalledTwiceTests,
  findProviderKeys,
  findReplaySignal,
  fromKeyedProviders,
  getIdempotentServer,
  getRegisteringServer,
  getRunnerConstruction,
  getRunnerUse,
  getToolSet,
  getImportedModules,
  type IdempotentServer,
  type ImportedWrappers,
  createNewKeyFinder,
  inferPolicy,
  isTestFile,
  type EffectLibrary,
  type EffectsProgramContext,
  type KeyedProvider,
  mayUseRunners,
  readExportedPolicyConsts,
  readMcpHints,
  readPolicyData,
  readPolicyLayers,
  type RunnerConstruction,
  type RunnerUse,
  type ToolDefinition,
  type ToolFactory,
  type ToolSet,
  type TSESLint,
  type TSESTree,
} from './analysis.js';
import { collectFactoryCalls, keyOriginFact } from './factoryCalls.js';
import type { CalledTwiceFact, EffectsFact, FileFacts, KeyFact, RunnerFact, Site, ToolFact, UseFact, Value, WrappedAt } from './facts.js';

/** The options the project's config gives the plugin's rules, merged for one file. */
export interface RuleOptionsForFile {
  readonly toolFactories: readonly ToolFactory[];
  readonly keyNames: readonly string[];
  readonly allowedSources: readonly AllowedSource[];
  readonly providers: readonly KeyedProvider[];
  /** Extra effect libraries (no-contradicted-policy's `libraries` option). */
  readonly libraries: readonly EffectLibrary[];
}

/** The id the collector rule is configured under. */
export const COLLECTOR_RULE_ID = 'retrysafe-audit/collect';

type SourceCode = Readonly<TSESLint.SourceCode>;
type ToolSite = TSESTree.CallExpression | TSESTree.ClassDeclaration | TSESTree.ClassExpression | TSESTree.NewExpression;

/**
 * An ESLint plugin with one rule, `collect`, that reports nothing: for every file it records the
 * facts the audit needs (tools, runners, uses, called-twice tests, exports) and hands them to
 * `onFacts` when the file is done. Configured through `overrideConfig` next to the plugin's rules,
 * so it sees each file with the project's parser and settings.
 */
export function createCollectorPlugin(onFacts: (facts: FileFacts) => void, optionsFor: (file: string) => RuleOptionsForFile): ESLint.Plugin {
  const rule: Rule.RuleModule = {
    meta: { type: 'problem', docs: { description: 'Records the facts `retrysafe audit` judges (reports nothing)' }, schema: [] },
    create(context) {
      const sourceCode = context.sourceCode as unknown as SourceCode;
      const collector = new FileCollector(sourceCode, context.filename, optionsFor(context.filename), typedServices(sourceCode));
      const visit = (node: unknown): void => collector.visit(node as ToolSite);
      return {
        CallExpression: visit,
        NewExpression: visit,
        ClassDeclaration: visit,
        ClassExpression: visit,
        'Program:exit': () => onFacts(collector.facts()),
      } as Rule.RuleListener;
    },
  };
  return { meta: { name: 'retrysafe-audit' }, rules: { collect: rule } };
}

/** The facts of one file, gathered while ESLint walks it. */
class FileCollector {
  private readonly recogniser;
  private readonly usesRunners: boolean;
  private readonly tools: ToolDefinition[] = [];
  /** Per tool (by index) made at a call of a wrapper another file exports: where that wrapper's definition is. */
  private readonly wrappedAt = new Map<number, WrappedAt>();
  /** Calls of wrappers other files export, read through the file's relative imports; undefined when it has none. */
  private readonly importedWrappers: ImportedWrappers | undefined;
  private readonly toolIndex = new Map<TSESTree.Node, number>();
  private readonly runners: RunnerConstruction[] = [];
  private readonly runnerIndex = new Map<TSESTree.Node, number>();
  private readonly uses: RunnerUse[] = [];
  /** Calls and `new`s with arguments that define no tool themselves: those that may make tools become `factoryCalls`. */
  private readonly calls: (TSESTree.CallExpression | TSESTree.NewExpression)[] = [];
  private readonly idempotentServers: IdempotentServer[] = [];
  private readonly toolSets: ToolSet[] = [];
  /** Whether the file can hold a tool set: it imports the spec (a guard) or the AI SDK (`generateText`). */
  private readonly mayHoldToolSets: boolean;
  private effectsAnalyser: ReturnType<typeof createEffectsAnalyser> | undefined;
  private newKeyOf: ReturnType<typeof createNewKeyFinder> | undefined;

  constructor(
    private readonly sourceCode: SourceCode,
    private readonly file: string,
    private readonly options: RuleOptionsForFile,
    /** The parser's type information, when the config is type-aware: the effects analysis then follows imports into the program's other files. */
    private readonly services: EffectsProgramContext['services'] | undefined,
  ) {
    this.recogniser = createToolRecogniser(sourceCode, { toolFactories: options.toolFactories });
    this.usesRunners = mayUseRunners(sourceCode);
    this.mayHoldToolSets = this.usesRunners || getImportedModules(sourceCode).has('ai');
    this.importedWrappers = importsRelatively(sourceCode) ? createImportedWrappers(sourceCode, file, options.toolFactories) : undefined;
  }

  visit(node: ToolSite): void {
    const found = this.recogniser.mayDefineTools ? this.recogniser.definitionsAt(node) : [];
    for (const tool of found) this.addTool(tool);
    // A project's wrapper in another file (`addTool(server, 'refund', handler)` with `addTool` from
    // `../lib/register.js`): the tool is defined here, at the call, as a same-file wrapper's is.
    if (found.length === 0 && this.importedWrappers && node.type === 'CallExpression') {
      for (const { definition, wrapped } of this.importedWrappers.wrapperCall(node)) {
        const index = this.addTool(definition);
        if (index !== undefined) this.wrappedAt.set(index, { file: wrapped.fileName, line: wrapped.line, column: wrapped.column });
      }
    }
    if (found.length === 0 && (node.type === 'CallExpression' || node.type === 'NewExpression') && node.arguments.length > 0 && !this.toolIndex.has(node)) this.calls.push(node);
    // A call's runner use is read once, here, for its tool set and its use.
    const use = this.usesRunners && node.type === 'CallExpression' ? (getRunnerUse(this.sourceCode, node) ?? null) : undefined;
    const set = this.mayHoldToolSets && (node.type === 'CallExpression' || node.type === 'NewExpression') ? getToolSet(this.sourceCode, node, use) : undefined;
    if (set) this.toolSets.push(set);
    if (!this.usesRunners || node.type !== 'CallExpression') return;
    const runner = getRunnerConstruction(this.sourceCode, node);
    if (runner) {
      this.runnerIndex.set(node, this.runners.length);
      this.runners.push(runner);
    }
    if (use) this.uses.push(use);
    const server = getIdempotentServer(this.sourceCode, node);
    if (server) this.idempotentServers.push(server);
  }

  /** Records a tool once; its index, or undefined when its node is recorded already. */
  private addTool(tool: ToolDefinition): number | undefined {
    if (this.toolIndex.has(tool.node)) return undefined;
    this.toolIndex.set(tool.node, this.tools.length);
    this.tools.push(tool);
    return this.tools.length - 1;
  }

  facts(): FileFacts {
    const sourceCode = this.sourceCode;
    const values = createValueSummariser(sourceCode, {
      tool: (node) => this.toolIndex.get(node),
      runner: (node) => this.runnerIndex.get(node),
    });
    const isTest = isTestFile(sourceCode, this.file);
    const { exports, reexports } = values.exportsOf();
    const tools = this.tools.map((tool, index): ToolFact => {
      const wrapped = this.wrappedAt.get(index);
      return wrapped ? { ...this.toolFact(tool), wrappedAt: wrapped } : this.toolFact(tool);
    });
    return {
      typed: this.services !== undefined,
      file: this.file,
      isTest,
      tools,
      runners: this.runners.map((runner) => this.runnerFact(runner, values.valueOf)),
      uses: [
        ...this.uses.map((use): UseFact => ({
          ...this.site(use.node),
          via: use.via,
          tool: values.valueOf(use.tool),
          collection: use.collection,
          runner: use.runner ? values.valueOf(use.runner) : null,
          ...(use.runnerConditional ? { runnerConditional: describeNode(use.runnerConditional, this.sourceCode) } : {}),
        })),
        ...this.wireIdempotency(values.valueOf),
      ],
      toolSets: this.toolSets.flatMap((set) => {
        const members = set.members.map(({ key, value }) => ({ key, value: values.valueOf(value) })).filter(({ value }) => mayLead(value));
        return members.length > 0 ? [{ ...this.site(set.node), via: set.via, members }] : [];
      }),
      calledTwice: isTest ? this.calledTwice(values.valueOf) : [],
      references: isTest ? this.importedValues() : [],
      exports: pruneExports(exports),
      policyConsts: readExportedPolicyConsts(sourceCode),
      reexports,
      factoryCalls: isTest ? [] : collectFactoryCalls({ sourceCode, calls: this.calls, valueOf: values.valueOf, tools, allowedSources: this.options.allowedSources, mayLead }),
    };
  }

  /** MCP tools registered on a server that `enableIdempotency(server, { runner })` makes deduplicate keyed calls. */
  private wireIdempotency(valueOf: (node: TSESTree.Node) => Value): UseFact[] {
    if (this.idempotentServers.length === 0) return [];
    return this.tools.flatMap((tool, index): UseFact[] => {
      const server = tool.framework === 'mcp' ? getRegisteringServer(this.sourceCode, tool.node) : undefined;
      const enabling = server && this.idempotentServers.find((candidate) => candidate.server === server);
      if (!enabling) return [];
      const runner = enabling.runner ? valueOf(enabling.runner) : null;
      const conditional = enabling.runnerConditional ? { runnerConditional: describeNode(enabling.runnerConditional, this.sourceCode) } : {};
      return [{ ...this.site(enabling.node), via: 'enableIdempotency', tool: { k: 'tool', index }, collection: false, runner, ...conditional }];
    });
  }

  private toolFact(tool: ToolDefinition): ToolFact {
    const sourceCode = this.sourceCode;
    const matchKeyName = createKeyNameMatcher([...this.options.keyNames]);
    const keyOptions = { matchKeyName, allowedSources: this.options.allowedSources, providers: this.options.providers };
    const policy = readPolicyData(sourceCode, tool);
    const replay = findReplaySignal(sourceCode, tool);
    const start = tool.node.loc.start;
    const layers = policy ? readPolicyLayers(sourceCode, policy.node) : undefined;
    const annotationLayers = tool.annotationsNode ? readPolicyLayers(sourceCode, tool.annotationsNode) : undefined;
    const hints = readMcpHints(sourceCode, tool);
    return {
      ...(layers ? { policyLayers: layers } : {}),
      ...(annotationLayers ? { annotationLayers } : {}),
      ...(hints ? { hints } : {}),
      name: tool.name ?? null,
      line: start.line,
      column: start.column + 1,
      framework: tool.framework,
      aliases: aliasesOf(tool.node),
      policy: policy
        ? { ...this.site(policy.node), endLine: policy.node.loc.end.line, side_effects: policy.side_effects, idempotent: policy.idempotent, retry: policy.retry, max_attempts: policy.max_attempts, statesMaxAttempts: statesMaxAttempts(policy.node), via: policy.via, ...(policy.unknownValue ? { unknownValue: policy.unknownValue } : {}) }
        : null,
      key: this.keyFact(tool, keyOptions),
      replay: { kind: replay.kind, site: replay.kind === 'unknown' ? null : this.site(replay.node) },
      providerKeys: findProviderKeys(sourceCode, tool, keyOptions).map(({ call, passed, foreign }) => ({
        ...this.site(call.node),
        passed: passed.kind,
        provider: call.provider,
        ...(foreign && passed.kind === 'passed' ? { foreignKey: describeNode(passed.value, this.sourceCode) } : {}),
      })),
      effects: this.effectsFact(tool),
    };
  }

  /** The effects analysis of the tool's handler (issue 10), with the libraries the project configured. */
  private effectsFact(tool: ToolDefinition): EffectsFact | null {
    if (!tool.handler) return null;
    // With types, the cross-file effects no-contradicted-policy-type-checked follows (an imported
    // helper, a client another module constructs), so Q1 and that rule's findings agree.
    if (!this.effectsAnalyser) {
      const crossFile = this.services ? createCrossFileEffects({ sourceCode: this.sourceCode, fileName: this.file, services: this.services }) : undefined;
      // The configured providers too, read as catalogue entries as no-contradicted-policy reads them: a
      // call of one is a create that takes its key, which question 1 then judges (not an unknown call).
      const libraries = [...this.options.libraries, ...fromKeyedProviders(this.options.providers)];
      this.effectsAnalyser = createEffectsAnalyser(this.sourceCode, { libraries, keyNames: [...this.options.keyNames], ...(crossFile ? { crossFile } : {}) });
    }
    const found = this.effectsAnalyser.analyseHandler(tool.handler, tool.name);
    if (!found) return null;
    // The rule's judgement of a key new on every call too (require-retry-policy's suggestion), so the
    // audit's inferred policy and the suggestion agree.
    this.newKeyOf ??= createNewKeyFinder(this.sourceCode);
    const inferred = inferPolicy(found, { newKeyOf: this.newKeyOf });
    return {
      operations: found.effects.map((effect) => ({
        line: effect.line,
        // 1-based, in the operation's own file (the call, `new` or tagged template).
        column: effect.node.loc.start.column + 1,
        text: effect.detail ? `${effect.text} ${effect.detail}` : effect.text,
        kind: effect.kind,
        keyPassed: effect.keyPassed ?? null,
        ...(effect.sentKey ? { sentKey: { header: effect.sentKey.header, url: effect.sentKey.url ?? null, ...(effect.sentKey.honouredBy ? { honouredBy: effect.sentKey.honouredBy } : {}) } } : {}),
        ...(effect.fileName !== undefined && effect.fileName !== this.file ? { file: effect.fileName } : {}),
      })),
      complete: found.complete,
      keyLookupLine: found.keyLookup ? found.keyLookup.loc.start.line : null,
      inferred: inferred
        ? {
            idempotent: inferred.idempotent,
            sideEffects: inferred.sideEffects,
            reason: inferred.reason,
            ...(inferred.evidence?.fileName !== undefined && inferred.evidence.fileName !== this.file ? { at: { file: inferred.evidence.fileName, line: inferred.evidence.line } } : {}),
          }
        : null,
    };
  }

  private keyFact(tool: ToolDefinition, options: Parameters<typeof describeKeyDerivation>[2]): KeyFact {
    const derivation = describeKeyDerivation(this.sourceCode, tool, options);
    const inKeyFunction = new Set(derivation.positions.filter((p) => p.kind === 'specKey' || p.kind === 'toolKey').map((p) => p.value));
    return {
      status: derivation.status,
      parts: derivation.parts.map((part) => ({
        ...this.site(part.node),
        derived: part.derived,
        inKeyFunction: inKeyFunction.has(part.node as never),
        origins: part.origins.map((origin) => keyOriginFact(origin, this.sourceCode)),
        fallback: part.constantFallback
          ? { line: part.constantFallback.node.loc.start.line, text: describeNode(part.constantFallback.fallback, this.sourceCode), primary: describeNode(part.constantFallback.primary, this.sourceCode), key: part.constantFallback.key }
          : null,
        constant: part.constantKey ? { line: part.constantKey.literal.loc.start.line, text: describeNode(part.constantKey.literal, this.sourceCode), key: part.constantKey.value } : null,
      })),
      sources: derivation.sources.map((source) => ({ line: source.node.loc.start.line, text: source.description, kind: source.kind })),
    };
  }

  private runnerFact(runner: RunnerConstruction, valueOf: (node: TSESTree.Node) => Value): RunnerFact {
    const store = runner.store;
    const storeValue = !store && runner.storeNode ? valueOf(runner.storeNode) : null;
    return {
      ...this.site(runner.node),
      store: store ? { ...this.site(store.node), kind: store.kind, durable: store.durable, ...allowVolatileOf(store, this.sourceCode) } : null,
      storeText: runner.storeNode ? describeNode(runner.storeNode, this.sourceCode) : null,
      storeValue: storeValue && mayLead(storeValue) ? storeValue : null,
    };
  }

  private calledTwice(valueOf: (node: TSESTree.Node) => Value): CalledTwiceFact[] {
    return findCalledTwiceTests(this.sourceCode).map((test) => ({
      ...this.site(test.node),
      shape: test.shape,
      target: test.target.kind === 'name' ? { k: 'opaque', text: test.target.name } : valueOf(test.target.node),
      toolName: test.target.kind === 'name' ? test.target.name : null,
      assertionLine: test.assertion ? test.assertion.loc.start.line : null,
      assertionText: test.assertion ? assertionText(test.assertion, this.sourceCode) : null,
      ...(test.reach ? { reach: { kind: test.reach.kind, line: test.reach.node.loc.start.line, text: test.reach.text } } : {}),
      ...(test.withoutEffects ? { withoutEffects: true as const } : {}),
    }));
  }

  /** What a test file's imports of the project's own modules bind. */
  private importedValues(): Value[] {
    const found: Value[] = [];
    for (const statement of this.sourceCode.ast.body) {
      if (statement.type !== 'ImportDeclaration' || !statement.source.value.startsWith('.')) continue;
      for (const specifier of statement.specifiers) {
        const name =
          specifier.type === 'ImportSpecifier'
            ? specifier.imported.type === 'Identifier' ? specifier.imported.name : specifier.imported.value
            : specifier.type === 'ImportDefaultSpecifier' ? 'default' : '*';
        found.push({ k: 'import', from: statement.source.value, name });
      }
    }
    return found;
  }

  private site(node: TSESTree.Node): Site {
    return { line: node.loc.start.line, text: describeNode(node, this.sourceCode) };
  }
}

/** Whether the file imports (or re-exports from) a relative module: only then can it call another file's wrapper. */
function importsRelatively(sourceCode: SourceCode): boolean {
  return sourceCode.ast.body.some((statement) => statement.type === 'ImportDeclaration' && statement.importKind !== 'type' && statement.source.value.startsWith('.'));
}

/** An assertion as written, on one line; cut to its callee (`assert.equal(…)`) past 80 characters. */
function assertionText(node: TSESTree.Node, sourceCode: SourceCode): string {
  const text = sourceCode.getText(node).replace(/\s+/g, ' ');
  return text.length <= 80 ? text : describeNode(node, sourceCode);
}

/** The parser services of a type-aware parse (a program), else undefined. */
function typedServices(sourceCode: SourceCode): EffectsProgramContext['services'] | undefined {
  const services = sourceCode.parserServices as Partial<EffectsProgramContext['services']> | undefined;
  return services?.program ? (services as EffectsProgramContext['services']) : undefined;
}

/** Names a tool is bound to where it is defined: its variable, its property, the function that returns it. */
function aliasesOf(node: TSESTree.Node): string[] {
  const aliases: string[] = [];
  let current: TSESTree.Node = node;
  for (let parent = current.parent; parent; current = parent, parent = parent.parent) {
    if (parent.type === 'VariableDeclarator' && parent.id.type === 'Identifier') aliases.push(parent.id.name);
    else if (parent.type === 'Property' && parent.value === current && parent.key.type === 'Identifier') aliases.push(parent.key.name);
    else if ((parent.type === 'FunctionDeclaration' || parent.type === 'FunctionExpression') && parent.id) aliases.push(parent.id.name);
    if (parent.type === 'Program' || aliases.length >= 3) break;
    // Stop at a statement that is not a return: the tool is then used, not bound.
    if (parent.type === 'ExpressionStatement') break;
  }
  return aliases;
}

/** Only exports that can lead to a tool or a runner are kept: most of a large tree's exports cannot. */
function pruneExports(exports: Record<string, Value>): Record<string, Value> {
  const kept: Record<string, Value> = {};
  for (const [name, value] of Object.entries(exports)) if (mayLead(value)) kept[name] = value;
  return kept;
}

function mayLead(value: Value): boolean {
  switch (value.k) {
    case 'tool':
    case 'runner':
    case 'store':
    case 'adapted':
      return true;
    case 'import':
      return value.from.startsWith('.');
    case 'member':
      return mayLead(value.of);
    case 'call':
      return mayLead(value.callee);
    case 'object':
      return Object.values(value.props).some(mayLead);
    case 'fn':
      return value.returns.some(mayLead);
    case 'either':
      return value.branches.some((branch) => mayLead(branch.value));
    case 'opaque':
      return false;
  }
}

/**
 * Whether a policy object may state `max_attempts`: it names it (either spelling) or a computed key,
 * or it is not a plain object literal (a spread's layers are read by the linker).
 */
function statesMaxAttempts(node: TSESTree.Node): boolean {
  if (node.type !== 'ObjectExpression') return true;
  return node.properties.some(
    (property) =>
      property.type !== 'Property' ||
      property.computed ||
      (property.key.type === 'Identifier' ? ['max_attempts', 'maxAttempts'].includes(property.key.name) : ['max_attempts', 'maxAttempts'].includes(String((property.key as { value?: unknown }).value))),
  );
}
