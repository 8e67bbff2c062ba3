import type { TSESLint } from '@typescript-eslint/utils';

import { createRule } from './createRule.js';

// Twin rules: a rule that needs no types and its `-type-checked` twin, which reports only what types
// reveal (both are on in `recommended-type-checked`, so each problem is reported once). What the
// pair shares (the rule type, the options' schema and defaults) is stated once, in the pair's
// `src/rules/<rule>-utils/` module, with this factory; each twin states its name, description,
// messages and `create`. `meta.docs` is derived: both are in `recommended`, the `-type-checked` one
// requires type checking, and each names the other as its `twin`.

/** The suffix that names the type-aware twin of a rule. */
const TYPE_CHECKED_SUFFIX = '-type-checked';

/** What both rules of a twin pair share. */
export interface TwinShared<Options extends readonly unknown[]> {
  readonly type: 'layout' | 'problem' | 'suggestion';
  readonly schema: TSESLint.RuleMetaData<string, unknown, Options>['schema'];
  readonly defaultOptions: Options;
  /** Array options whose items the rules check themselves (`createRule`'s `deepOptions`). */
  readonly deepOptions?: readonly string[];
}

/** What one rule of a twin pair states about itself. */
export interface TwinSpec<Options extends readonly unknown[], MessageIds extends string> {
  /** The rule id; the type-aware twin's ends in `-type-checked`. */
  readonly name: string;
  readonly description: string;
  readonly messages: Record<MessageIds, string>;
  readonly hasSuggestions?: boolean;
  readonly create: (context: Readonly<TSESLint.RuleContext<MessageIds, Options>>, options: Readonly<Options>) => TSESLint.RuleListener;
}

/** The rule creator of one twin pair: `createTwinRule(shared)` in the pair's module, then one call per twin. */
export function createTwinRule<Options extends readonly unknown[]>(shared: TwinShared<Options>) {
  return <MessageIds extends string>(spec: TwinSpec<Options, MessageIds>): ReturnType<typeof createRule<Options, MessageIds>> => {
    const typeChecked = spec.name.endsWith(TYPE_CHECKED_SUFFIX);
    return createRule<Options, MessageIds>({
      name: spec.name,
      meta: {
        type: shared.type,
        docs: {
          description: spec.description,
          recommended: 'recommended',
          requiresTypeChecking: typeChecked,
          twin: typeChecked ? spec.name.slice(0, -TYPE_CHECKED_SUFFIX.length) : `${spec.name}${TYPE_CHECKED_SUFFIX}`,
        },
        ...(spec.hasSuggestions ? { hasSuggestions: true } : {}),
        messages: spec.messages,
        schema: shared.schema,
        defaultOptions: shared.defaultOptions,
      },
      create: spec.create,
      ...(shared.deepOptions ? { deepOptions: shared.deepOptions } : {}),
    });
  };
}
