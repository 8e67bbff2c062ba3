import { ESLintUtils } from '@typescript-eslint/utils';

/** Extra `meta.docs` fields every retrysafe rule declares. */
export interface RetrysafeRuleDocs {
  /** Whether the rule is on in `recommended` (`'recommended'`) or only in `strict` (`'strict'`). */
  recommended?: 'recommended' | 'strict';
  /** The rule needs type information and lives only in the `*-type-checked` configs. */
  requiresTypeChecking?: boolean;
  /**
   * The severity the configs give the rule: `'error'` when left out. `'warn'` is for rules that
   * guess (a heuristic that reads names and descriptions), whose reports are for review rather than
   * failing a build.
   */
  severity?: 'error' | 'warn';
}

/**
 * Builds a rule whose docs URL is derived from its name, as typescript-eslint does.
 * Every rule in `src/rules/` is created through this.
 */
export const createRule = ESLintUtils.RuleCreator<RetrysafeRuleDocs>(
  (name) => `https://github.com/retrysafe/retrysafe/blob/main/packages/eslint-plugin/docs/rules/${name}.md`,
);
