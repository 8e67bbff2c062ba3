import { ESLintUtils } from '@typescript-eslint/utils';

/** Extra `meta.docs` fields every retrysafe rule declares. */
export interface RetrysafeRuleDocs {
  /** `'recommended'`: the rule is on in the recommended configs (the type-checked one when it needs types). */
  recommended?: 'recommended';
  /** The rule needs type information and lives only in the `*-type-checked` configs. */
  requiresTypeChecking?: boolean;
  /**
   * The severity the configs give the rule: `'error'` when left out. `'warn'` is for rules that
   * guess (a heuristic that reads names and descriptions), whose reports are for review rather than
   * failing a build.
   */
  severity?: 'error' | 'warn';
  /**
   * The rule's twin: for a rule that needs no types, its `-type-checked` rule, which reports only
   * what types reveal; for that rule, the one it adds to. The two share one module of messages,
   * options and judgement (`src/rules/<rule>-utils/`), and a test checks that each names the other.
   */
  twin?: string;
}

const createNamedRule = ESLintUtils.RuleCreator<RetrysafeRuleDocs>(
  (name) => `https://github.com/retrysafe/retrysafe/blob/main/packages/eslint-plugin/docs/rules/${name}.md`,
);

/**
 * Builds a rule whose docs URL is derived from its name, as typescript-eslint does.
 * Every rule in `src/rules/` is created through this.
 *
 * typescript-eslint's `RuleCreator` merges the default options into `context.options` for every
 * file, starting from a `structuredClone` of the defaults: on a large code base that clone and the
 * garbage it leaves were the largest single cost of the recommended config (docs/performance.md).
 * ESLint builds a new `context.options` array for every file (it merges `meta.defaultOptions`
 * itself), but from the same few configs: the merged options are kept per distinct options
 * (compared as JSON, which rule options are: ESLint validates them against the JSON schema) and
 * reused. Rules must not mutate their options (the types say `readonly`).
 */
export function createRule<Options extends readonly unknown[], MessageIds extends string>(
  rule: Parameters<typeof createNamedRule<Options, MessageIds>>[0],
): ReturnType<typeof createNamedRule<Options, MessageIds>> {
  const named = createNamedRule<Options, MessageIds>(rule);
  const defaults = (rule.meta.defaultOptions ?? rule.defaultOptions ?? []) as Options;
  const mergedByOptions = new Map<string, Options>();
  return {
    ...named,
    create(context) {
      const cacheKey = JSON.stringify(context.options);
      const cached = mergedByOptions.get(cacheKey);
      const options = cached ?? (ESLintUtils.applyDefault(defaults, context.options as Options) as Options);
      if (cached === undefined) mergedByOptions.set(cacheKey, options);
      return rule.create(context, options);
    },
  };
}
