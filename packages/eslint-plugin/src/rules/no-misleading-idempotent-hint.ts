import type { TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import { findPropertyThroughSpreads, getStaticValueOf } from '../ast/index.js';
import {
  createToolRecogniser,
  findCreateClaim,
  getInputFieldNames,
  isKeyLikeFieldName,
  type ToolDefinition,
  toolLabel,
} from '../tools/index.js';
import { createEffectsAnalyser, type EffectLibrary, effectLibrariesSchema, type HandlerEffects } from '../effects/index.js';
import { createRule } from './utils/index.js';

export type Options = [
  {
    /** Extra verbs that make a new effect on every call, matched as words of the tool's name or description. */
    createVerbs?: string[];
    /** Extra input field names that mark two calls as the same work (a natural key such as `email`). */
    keyFieldNames?: string[];
    /** Libraries beyond the built-in effects catalogue (as in no-contradicted-policy). */
    libraries?: EffectLibrary[];
  },
];
export type MessageIds = 'idempotentHintOnCreate';

const wordList = (description: string) => ({
  type: 'array' as const,
  description,
  items: { type: 'string' as const, minLength: 1 },
  uniqueItems: true,
});

export default createRule<Options, MessageIds>({
  name: 'no-misleading-idempotent-hint',
  meta: {
    type: 'problem',
    docs: {
      description:
        'Disallow `idempotentHint: true` on MCP tools that say they create, send, charge or append and take no key or id',
      recommended: 'recommended',
      // It reads words, so it guesses: its reports are for review, not for failing a build.
      severity: 'warn',
      requiresTypeChecking: false,
    },
    messages: {
      idempotentHintOnCreate:
        '{{tool}} claims `idempotentHint: true`, but its {{where}} says `{{verb}}` and its input has no key or id field: each call makes a new effect, so a client that trusts the hint and retries makes a duplicate. Take a caller-supplied key or id as input, or set `idempotentHint: false`.',
    },
    schema: [
      {
        type: 'object',
        additionalProperties: false,
        properties: {
          createVerbs: wordList('Extra verbs (lower case) whose repetition makes a new effect, beyond create, send, charge, append...'),
          keyFieldNames: wordList('Extra input field names that mark two calls as the same work, beyond `id`, `…Id`, `…Key`, `idempotencyKey`...'),
          libraries: effectLibrariesSchema,
        },
      },
    ],
    defaultOptions: [{ createVerbs: [], keyFieldNames: [], libraries: [] }],
  },
  deepOptions: ['libraries'],
  create(context, [{ createVerbs = [], keyFieldNames = [], libraries = [] }]) {
    const sourceCode = context.sourceCode;
    // Reports hang on an `idempotentHint` property written in this file (findProperty reads literal
    // keys only), so a file that never spells it has nothing to report: skip recognising its tools,
    // which on real code was this rule's whole cost and the largest of `recommended` (docs/performance.md).
    if (!sourceCode.text.includes('idempotentHint')) return {};
    const recogniser = createToolRecogniser(sourceCode);
    if (!recogniser.mayDefineTools) return {};
    const isTrue = (property: TSESTree.Property | null | undefined): boolean =>
      getStaticValueOf(sourceCode, property?.value) === true;
    let analyser: ReturnType<typeof createEffectsAnalyser> | undefined;

    /** Whether the handler's code says what the name only suggests: no-contradicted-policy judges it then. */
    function codeDecides(tool: ToolDefinition): boolean {
      if (!tool.handler) return false;
      analyser ??= createEffectsAnalyser(sourceCode, { libraries });
      const effects: HandlerEffects | undefined = analyser.analyseHandler(tool.handler, tool.name);
      return effects?.effects.some((effect) => effect.kind === 'absolute' || effect.kind === 'relative' || (effect.kind === 'create' && effect.keyPassed !== 'unknown')) ?? false;
    }

    /** Whether some input field could key the work; a schema that is not visible gets the benefit of the doubt. */
    function takesKeyOrId(tool: ToolDefinition): boolean {
      const fields = tool.inputSchema ? getInputFieldNames(sourceCode, tool.inputSchema) : [];
      return !fields || fields.some((name) => isKeyLikeFieldName(name, keyFieldNames));
    }

    function check(tool: ToolDefinition): void {
      // Through spreads of `const` hints (`{ ...CREATE_HINTS }`), as if written inline: a hint a
      // spread nobody can see may set is not known, and a read-only hint that may be set says nothing.
      const hint = (name: string): TSESTree.Property | null | undefined => {
        const found = findPropertyThroughSpreads(sourceCode, tool.annotations, name);
        return found && found.property;
      };
      const idempotent = hint('idempotentHint');
      const readOnly = hint('readOnlyHint');
      if (!idempotent || !isTrue(idempotent) || readOnly === null || isTrue(readOnly)) return;
      const claim = findCreateClaim(tool, createVerbs);
      if (!claim || takesKeyOrId(tool) || codeDecides(tool)) return;
      context.report({ node: idempotent, messageId: 'idempotentHintOnCreate', data: { tool: toolLabel(tool), ...claim } });
    }

    // The tools calls and `new` define, from the recogniser's one walk of the file (docs/performance.md).
    return {
      Program(): void {
        for (const site of recogniser.sites()) {
          if (site.node.type === AST_NODE_TYPES.CallExpression || site.node.type === AST_NODE_TYPES.NewExpression) for (const tool of site.definitions) check(tool);
        }
      },
    };
  },
});
