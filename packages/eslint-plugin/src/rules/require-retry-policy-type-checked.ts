import type { TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES, ESLintUtils } from '@typescript-eslint/utils';
import type ts from 'typescript';

import { getStaticPropertyName, GLOBAL_SOURCE, hasSpread, resolveReference, skipWrappers } from '../ast/index.js';
import {
  createToolRecogniser,
  FRAMEWORKS,
  fromAddTool,
  fromAddTools,
  fromFactory,
  fromMcpRegistration,
  isFrameworkModule,
  type SpreadResolver,
  type ToolDefinition,
} from '../tools/index.js';
import {
  createCrossFileTools,
  type CrossFileTools,
  DECLARED_TOOL_FACTORIES,
  type DeclaredToolFactory,
  findDeclaredToolFactoryOf,
  programHasToolFramework,
  resolveAlias,
  typescript,
} from '../program/index.js';
import { createPolicyRule, judgePolicyDeclaration, reportPolicyProblems } from './require-retry-policy-utils/index.js';

export type { PolicyMessageIds as MessageIds, PolicyRuleOptions as Options } from './require-retry-policy-utils/index.js';

export default createPolicyRule({
  name: 'require-retry-policy-type-checked',
  description:
    'Require agent tools defined through a renamed or re-exported factory to declare their retry policy',
  create(context, [{ toolFactories }]) {
    const services = ESLintUtils.getParserServices(context);
    // The checker recognises a factory or server method by the package declaring it: a program
    // without any framework's files defines no tool that only types reveal (docs/performance.md).
    if (!programHasToolFramework(services.program)) return {};
    const checker = services.program.getTypeChecker();
    const sourceCode = context.sourceCode;
    const userFactories = toolFactories ?? [];
    // What require-retry-policy sees (with the same options): those tools are its to report.
    const syntactic = createToolRecogniser(sourceCode, { toolFactories: userFactories });
    // What each imported name is, asked once per file: most imports are called many times.
    const importsByKey = new Map<string, ImportedCallee>();
    // Registration through another file (a wrapper, a spread `const`): created at the first import or spread that needs it.
    let crossFile: CrossFileTools | undefined;
    const getCrossFile = (): CrossFileTools =>
      (crossFile ??= createCrossFileTools({ sourceCode, fileName: context.filename, services, toolFactories: userFactories }));
    const resolveSpread: SpreadResolver = (code, argument) => getCrossFile().resolveSpread(code, argument);

    /** The declared symbol of the callee (aliases resolved) and the factory or server method it is, if any. */
    function askChecker(callee: TSESTree.Node, method: ServerMethod | undefined): ImportedCallee {
      const symbol = method ? symbolOfName(callee) : symbolOfImport(callee);
      return { symbol, factory: findDeclaredToolFactoryOf(checker, symbol) };
    }

    /** The symbol the callee's name is declared as: for `a.b`, the checker needs the type of `a`. */
    function symbolOfName(callee: TSESTree.Node): ts.Symbol | undefined {
      return resolveAlias(checker, checker.getSymbolAtLocation(getCalleeName(services.esTreeNodeToTSNodeMap.get(callee))));
    }

    /**
     * The symbol an imported callee is declared as: the imported binding, or a member of a module read
     * through a namespace import or `require` (the module's exports, no type needed). A member of an
     * imported value (`z.object`, `client.send`) can be a factory only by its declared name, so the
     * checker is asked for the value's type only when the member is named like one of the catalogue's
     * factories; a wrapper is followed only through a binding or a module.
     */
    function symbolOfImport(callee: TSESTree.Node): ts.Symbol | undefined {
      const names: string[] = [];
      let current = callee;
      while (current.type === AST_NODE_TYPES.MemberExpression) {
        const name = getStaticPropertyName(current);
        if (name === undefined) return symbolOfName(callee);
        names.unshift(name);
        current = current.object;
      }
      if (current.type !== AST_NODE_TYPES.Identifier) return symbolOfName(callee);
      let symbol = resolveAlias(checker, checker.getSymbolAtLocation(services.esTreeNodeToTSNodeMap.get(current)));
      let read = 0;
      for (; symbol && read < names.length && symbol.flags & typescript.SymbolFlags.ValueModule; read++) {
        symbol = resolveAlias(checker, checker.tryGetMemberInModuleExports(names[read] as string, symbol));
      }
      if (read === names.length) return symbol;
      return FACTORY_NAMES.has(names.at(-1) as string) ? symbolOfName(callee) : undefined;
    }

    /**
     * The tools a call defines through a factory or server that only the checker recognises, or
     * through a wrapper another file of the program declares.
     */
    function recogniseByDeclaration(node: TSESTree.CallExpression | TSESTree.NewExpression): readonly ToolDefinition[] {
      const callee = skipWrappers(node.callee, { optionalChains: true });
      // Every factory takes a config (or a name and a config), every wrapper some argument.
      if (node.arguments.length === 0) return [];
      const method = node.type === AST_NODE_TYPES.CallExpression ? getServerMethod(callee) : undefined;
      // Only an import can bring a framework's factory or a wrapper in from another file; a server's
      // methods can be reached through any variable.
      const reference = method ? undefined : resolveReference(sourceCode, callee);
      if (!method && (!reference || reference.source === GLOBAL_SOURCE)) return [];
      // An import from a framework's own module is require-retry-policy's: it knows every factory
      // the module exports by name, and a framework's package declares no wrapper this rule could read.
      if (reference && isFrameworkSource(reference.source)) return [];
      let imported: ImportedCallee;
      if (reference) {
        const importKey = `${reference.source}\0${reference.path.join('.')}`;
        imported = importsByKey.get(importKey) ?? askChecker(callee, undefined);
        importsByKey.set(importKey, imported);
      } else {
        imported = askChecker(callee, method);
      }
      const { factory, symbol } = imported;
      if (!factory) {
        // A project's own wrapper, declared in another file: its tools are defined at this call.
        return !method && symbol && node.type === AST_NODE_TYPES.CallExpression ? getCrossFile().wrapperCall(node, symbol) : [];
      }
      if ((factory.kind === 'serverMethod') !== (method !== undefined)) return [];
      if (method) return fromServerMethod(node as TSESTree.CallExpression, method);
      // The shared reading of a factory call (config, name, `declarePolicy(...)`, LangChain metadata),
      // with the framework the declaration names.
      return [fromFactory(sourceCode, node, { ...factory, sources: [], exportPath: '' })];
    }

    /**
     * The tools require-retry-policy judges that it lets pass only because a config spreads an
     * import it cannot see: read across files, a spread that declares nothing is reported here.
     */
    function reportSpreadProblems(tools: readonly ToolDefinition[]): void {
      for (const tool of tools) {
        if (!tool.config || !hasSpread(tool.config)) continue;
        const problem = judgePolicyDeclaration(sourceCode, tool, resolveSpread);
        if (problem && !judgePolicyDeclaration(sourceCode, tool)) {
          context.report({ loc: problem.loc, messageId: problem.messageId, data: problem.data });
        }
      }
    }

    /** The shared reading of an MCP SDK registration or a FastMCP `addTool` / `addTools` call. */
    function fromServerMethod(node: TSESTree.CallExpression, method: ServerMethod): readonly ToolDefinition[] {
      if (method === 'addTools') return fromAddTools(sourceCode, node);
      const tool = method === 'addTool' ? fromAddTool(sourceCode, node) : fromMcpRegistration(sourceCode, node);
      return tool ? [tool] : [];
    }

    function visit(node: TSESTree.CallExpression | TSESTree.NewExpression): void {
      const seen = syntactic.definitionsAt(node);
      if (seen.length > 0) return reportSpreadProblems(seen);
      reportPolicyProblems(context, recogniseByDeclaration(node), undefined, resolveSpread);
    }

    return { CallExpression: visit, NewExpression: visit };
  },
});

/** What an imported callee is, as the checker names it. */
interface ImportedCallee {
  readonly symbol: ts.Symbol | undefined;
  readonly factory: DeclaredToolFactory | undefined;
}

/** The names the catalogue's factories are declared under (`tool`, `createTool`, `DynamicStructuredTool`, ...). */
const FACTORY_NAMES: ReadonlySet<string> = new Set(
  DECLARED_TOOL_FACTORIES.filter((factory) => factory.kind === 'factory').flatMap((factory) => factory.names),
);

const frameworkSources = new Map<string, boolean>();

/** Whether an import specifier is one of the catalogue's framework modules (`ai`, `@modelcontextprotocol/sdk/server/mcp.js`). */
function isFrameworkSource(source: string): boolean {
  let is = frameworkSources.get(source);
  if (is === undefined) frameworkSources.set(source, (is = FRAMEWORKS.some((entry) => isFrameworkModule(entry, source))));
  return is;
}

/** The methods that add tools to a server: the MCP SDK's `McpServer`, FastMCP's `FastMCP`. */
type ServerMethod = 'addTool' | 'addTools' | 'registerTool' | 'tool';
const SERVER_METHODS: ReadonlySet<string> = new Set<ServerMethod>(['addTool', 'addTools', 'registerTool', 'tool']);

/** `x.registerTool(...)`, `x.tool(...)`, `x.addTool(...)` or `x.addTools(...)`: a server's method, whatever `x` is. */
function getServerMethod(callee: TSESTree.Node): ServerMethod | undefined {
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const method = getStaticPropertyName(callee);
  return isServerMethod(method) ? method : undefined;
}

function isServerMethod(name: string | undefined): name is ServerMethod {
  return name !== undefined && SERVER_METHODS.has(name);
}

/** The node the checker names the callee by: the property name of `a.b`, else the callee itself. */
function getCalleeName(callee: ts.Node): ts.Node {
  return typescript.isPropertyAccessExpression(callee) ? callee.name : callee;
}
