import { ESLintUtils } from '@typescript-eslint/utils';

import { checkDeepOptions, withDeepOptions } from './deepOptions.js';

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
  rule: Parameters<typeof createNamedRule<Options, MessageIds>>[0] & {
    /**
     * Array options of the rule's options object whose items ESLint checks only as objects and the
     * rule checks against their full schema (in `meta.schema`), when given non-empty, once per
     * distinct options (deepOptions.ts): ESLint compiles `meta.schema` in every process, options
     * given or not. An invalid value throws {@link InvalidRuleOptionsError} from `create`.
     */
    readonly deepOptions?: readonly string[];
  },
): ReturnType<typeof createNamedRule<Options, MessageIds>> {
  const { deepOptions = [], ...definition } = rule;
  const lazily = deepOptions.length > 0 ? withDeepOptions(definition.meta.schema as never, deepOptions) : undefined;
  const named = createNamedRule<Options, MessageIds>(lazily ? { ...definition, meta: { ...definition.meta, schema: lazily.schema } } : definition);
  const defaults = (rule.meta.defaultOptions ?? rule.defaultOptions ?? []) as Options;
  const mergedByOptions = new Map<string, Options>();
  // ESLint's flat config computes each rule's options once per config and hands every file a new
  // `context.options` array holding the same option objects (and, for a rule configured by severity
  // alone, the same empty or default array): looked up by that object, the JSON key is not built
  // for every rule and file (docs/performance.md).
  const mergedByObject = new WeakMap<object, Options>();
  return {
    ...named,
    create(context) {
      const identity = optionsIdentity(context.options);
      let options = identity && mergedByObject.get(identity);
      if (options === undefined) {
        const cacheKey = JSON.stringify(context.options);
        options = mergedByOptions.get(cacheKey);
        if (options === undefined) {
          if (lazily) checkDeepOptions(context.id, context.options, lazily.deep);
          options = ESLintUtils.applyDefault(defaults, context.options as Options) as Options;
          mergedByOptions.set(cacheKey, options);
        }
        if (identity) mergedByObject.set(identity, options);
      }
      return rule.create(context, options);
    },
  };
}

/** No options at all. */
const NO_OPTIONS = {};

/**
 * What stands for a file's options by identity: nothing given (`[]`), or the one options object
 * the config holds. Undefined for anything else (several options, a primitive option), which is
 * looked up by its JSON.
 */
function optionsIdentity(options: readonly unknown[]): object | undefined {
  if (options.length === 0) return NO_OPTIONS;
  const [first] = options;
  return options.length === 1 && typeof first === 'object' && first !== null ? first : undefined;
}
