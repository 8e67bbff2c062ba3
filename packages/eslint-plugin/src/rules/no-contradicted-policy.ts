import { createEffectsAnalyser } from '../effects/index.js';
import { type EffectLibrary, effectLibrariesSchema, fromKeyedProviders } from '../effects/index.js';
import { type KeyedProvider, providersSchema } from '../effects/index.js';
import { createRule } from './utils/index.js';
import { createToolRecogniser, type ToolFactory, toolFactoriesSchema, type ToolSiteNode } from '../tools/index.js';
import { type ContradictionId, findContradiction, getClaims } from './no-contradicted-policy-utils/index.js';

export type Options = [
  {
    /** Libraries beyond the built-in catalogue whose calls read, write, create or change state. */
    libraries?: EffectLibrary[];
    /** Keyed providers, as in require-key-passthrough: read as catalogue entries whose methods create and take a key. */
    providers?: KeyedProvider[];
    /** Extra key names the handler may look a deduplication record up by. */
    keyNames?: string[];
    /** Extra tool factories, as in `require-retry-policy`. */
    toolFactories?: ToolFactory[];
  },
];

export type MessageIds = ContradictionId;

/** The words a file must contain to declare anything this rule checks. */
const CLAIM_WORDS = ['idempotent', 'readOnlyHint', 'side_effects', 'sideEffects'];

export default createRule<Options, MessageIds>({
  name: 'no-contradicted-policy',
  meta: {
    type: 'problem',
    docs: {
      description: 'Disallow retry policies and MCP hints that the tool’s own handler contradicts',
      recommended: 'recommended',
      requiresTypeChecking: false,
    },
    messages: {
      notReadOnly:
        '{{tool}} is declared read-only ({{claim}}), but its handler runs {{operation}}, which {{does}}: clients that auto-approve read-only tools run it without asking, and retry it freely. {{fix}}',
      notIdempotent:
        '{{tool}} is declared naturally idempotent ({{claim}}), but its handler runs {{operation}}: {{consequence}}. {{fix}}',
      keyNotUsed:
        '{{tool}} is declared idempotent with a key ({{claim}}), but its handler runs {{operation}}, and nothing in the handler looks the key up: a retry with the same key {{does}} again. {{fix}}',
    },
    schema: [
      {
        type: 'object',
        additionalProperties: false,
        properties: {
          libraries: effectLibrariesSchema,
          providers: providersSchema,
          keyNames: { type: 'array', items: { type: 'string', minLength: 1 }, uniqueItems: true },
          toolFactories: toolFactoriesSchema,
        },
      },
    ],
    defaultOptions: [{ libraries: [], providers: [], keyNames: [], toolFactories: [] }],
  },
  create(context, [options]) {
    const sourceCode = context.sourceCode;
    // Reports hang on a claim written in this file: a file that never spells one has nothing to report.
    if (!CLAIM_WORDS.some((word) => sourceCode.text.includes(word))) return {};
    const tools = createToolRecogniser(sourceCode, { toolFactories: options.toolFactories ?? [] });
    if (!tools.mayDefineTools) return {};
    const libraries = librariesOf(options.libraries ?? [], options.providers ?? []);
    const analyser = createEffectsAnalyser(sourceCode, { libraries, keyNames: options.keyNames ?? [] });

    const visit = (node: ToolSiteNode): void => {
      for (const tool of tools.definitionsAt(node)) {
        const claims = getClaims(sourceCode, tool);
        if (!claims.readOnly && !claims.naturallyIdempotent && !claims.withKey) continue;
        const effects = tool.handler && analyser.analyseHandler(tool.handler, tool.name);
        const contradiction = effects && findContradiction(sourceCode, tool, claims, effects);
        if (contradiction) context.report({ node: contradiction.node, messageId: contradiction.messageId, data: contradiction.data });
      }
    };
    return { CallExpression: visit, NewExpression: visit, ClassDeclaration: visit, ClassExpression: visit };
  },
});

const librariesByOptions = new WeakMap<readonly EffectLibrary[], WeakMap<readonly KeyedProvider[], readonly EffectLibrary[]>>();

/** The configured libraries and providers as one list, the same array for the same options (the analysis caches by it). */
function librariesOf(libraries: readonly EffectLibrary[], providers: readonly KeyedProvider[]): readonly EffectLibrary[] {
  if (providers.length === 0) return libraries;
  let byProviders = librariesByOptions.get(libraries);
  if (!byProviders) librariesByOptions.set(libraries, (byProviders = new WeakMap()));
  let all = byProviders.get(providers);
  if (!all) byProviders.set(providers, (all = [...libraries, ...fromKeyedProviders(providers)]));
  return all;
}
