import type { TSESLint, TSESTree } from '@typescript-eslint/utils';

import { type EffectLibrary, effectLibrariesSchema, fromKeyedProviders, type KeyedProvider, providersSchema } from '../../effects/index.js';
import { createToolRecogniser, type ToolDefinition, type ToolFactory, toolFactoriesSchema } from '../../tools/index.js';
import { createWordsTest, type ObjectResolver } from '../../ast/index.js';
import { createTwinRule, type TwinSpec } from '../utils/index.js';
import type { Contradiction, ContradictionId } from './contradictions.js';
import { type Claims, getClaims } from './declarations.js';

// What `no-contradicted-policy` and its type-aware twin `no-contradicted-policy-type-checked` share:
// the options, the messages, the gate (a file that spells no claim or defines no tool gets no
// listeners) and the walk over each recognised tool that makes a claim. Each rule says how it judges
// a tool: the syntactic one with the effects analysis of the linted file, the twin with the same
// analysis let through imports into other files, and only where the syntactic one found nothing.

/** The options both rules take. */
export interface ContradictionRuleOptions {
  /** Libraries beyond the built-in catalogue whose calls read, write, create or change state. */
  libraries?: EffectLibrary[];
  /** Keyed providers, as in require-key-passthrough: read as catalogue entries whose methods create and take a key. */
  providers?: KeyedProvider[];
  /** Extra key names the handler may look a deduplication record up by. */
  keyNames?: string[];
  /** Extra tool factories, as in `require-retry-policy`. */
  toolFactories?: ToolFactory[];
}

/** The options list of both rules (what `context.options` holds). */
export type ContradictionRuleOptionList = [ContradictionRuleOptions];

/** The messages both rules report with: `{{operation}}` names the evidence, in this file or another. */
export const CONTRADICTION_MESSAGES: Record<ContradictionId, string> = {
  notReadOnly:
    '{{tool}} is declared read-only ({{claim}}), but its handler runs {{operation}}, which {{does}}: clients that auto-approve read-only tools run it without asking, and retry it freely. {{fix}}',
  notIdempotent:
    '{{tool}} is declared naturally idempotent ({{claim}}), but its handler runs {{operation}}: {{consequence}}. {{fix}}',
  keyNotUsed:
    '{{tool}} is declared idempotent with a key ({{claim}}), but its handler runs {{operation}}, and nothing in the handler looks the key up: a retry with the same key {{does}} again. {{fix}}',
};

const createTwin = createTwinRule<ContradictionRuleOptionList>({
  type: 'problem',
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
  deepOptions: ['libraries'],
});

/** A tool that makes a claim, and what a rule needs to judge it. */
export interface ClaimedTool {
  readonly tool: ToolDefinition & { readonly handler: TSESTree.Node };
  readonly claims: Claims;
  /** The configured libraries and providers as one list (the analysis caches by this array). */
  readonly libraries: readonly EffectLibrary[];
  readonly keyNames: readonly string[];
}

/** How one rule of the pair judges a tool that makes a claim. */
export type JudgeTool = (claimed: ClaimedTool) => Contradiction | undefined;

/** Creates `no-contradicted-policy` and its twin: `create` makes the rule's judge, once per linted file. */
export function createContradictionRule(
  spec: Omit<TwinSpec<ContradictionRuleOptionList, ContradictionId>, 'messages' | 'create'> & {
    readonly create: (context: Readonly<TSESLint.RuleContext<ContradictionId, ContradictionRuleOptionList>>) => JudgeTool;
    /**
     * The type-aware twin's reader of objects the file cannot see (an imported `const` policy or
     * annotations); with it, a file that names where a policy goes but spells no claim is read too.
     */
    readonly resolveObjects?: (context: Readonly<TSESLint.RuleContext<ContradictionId, ContradictionRuleOptionList>>) => ObjectResolver;
  },
): ReturnType<typeof createTwin<ContradictionId>> {
  return createTwin<ContradictionId>({
    ...spec,
    messages: CONTRADICTION_MESSAGES,
    create(context, [options]) {
      // First, so that the twin fails on a file without type information whatever the file holds;
      // each judge does its own work lazily, at the first tool that makes a claim.
      const judge = spec.create(context);
      const sourceCode = context.sourceCode;
      // Reports hang on a claim written in this file: a file that never spells one has nothing to report.
      if (!(spec.resolveObjects ? spellsClaimOrDeclaration : spellsClaim)(sourceCode.text)) return {};
      const tools = createToolRecogniser(sourceCode, { toolFactories: options.toolFactories ?? [] });
      if (!tools.mayDefineTools) return {};
      const libraries = librariesOf(options.libraries ?? [], options.providers ?? []);
      const keyNames = options.keyNames ?? [];
      const resolve = spec.resolveObjects?.(context);

      const judgeSite = (definitions: readonly ToolDefinition[]): void => {
        for (const tool of definitions) {
          const claims = getClaims(sourceCode, tool, resolve);
          if (!tool.handler || (!claims.readOnly && !claims.naturallyIdempotent && !claims.withKey)) continue;
          const contradiction = judge({ tool: tool as ClaimedTool['tool'], claims, libraries, keyNames });
          if (contradiction) context.report({ node: contradiction.node, messageId: contradiction.messageId, data: contradiction.data });
        }
      };
      // Every tool site of the file, from the recogniser's one walk (docs/performance.md).
      return {
        Program(): void {
          for (const site of tools.sites()) judgeSite(site.definitions);
        },
      };
    },
  });
}

/** The words a file must contain to declare anything these rules check. */
const CLAIM_WORDS = ['idempotent', 'readOnlyHint', 'side_effects', 'sideEffects'];
/** The words a file must contain to place a policy or hints that another file spells (`annotations: READ_ONLY_HINTS`). */
const DECLARATION_WORDS = ['annotations', 'retrysafe', 'declarePolicy', 'defineTool'];
const spellsClaim = createWordsTest(CLAIM_WORDS);
const spellsClaimOrDeclaration = createWordsTest([...CLAIM_WORDS, ...DECLARATION_WORDS]);

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
