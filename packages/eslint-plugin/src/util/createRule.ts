import { ESLintUtils } from '@typescript-eslint/utils';

/** Extra `meta.docs` fields every retrysafe rule declares. */
export interface RetrysafeRuleDocs {
  /** Whether the rule is on in `recommended` (`'recommended'`) or only in `strict` (`'strict'`). */
  recommended?: 'recommended' | 'strict';
  /** The rule needs type information and lives only in the `*-type-checked` configs. */
  requiresTypeChecking?: boolean;
}

/**
 * Builds a rule whose docs URL is derived from its name, as typescript-eslint does.
 * Every rule in `src/rules/` is created through this.
 */
export const createRule = ESLintUtils.RuleCreator<RetrysafeRuleDocs>(
  (name) => `https://github.com/retrysafe/retrysafe/blob/main/packages/eslint-plugin/docs/rules/${name}.md`,
);
