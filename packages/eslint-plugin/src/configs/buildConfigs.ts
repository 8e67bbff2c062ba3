import type { TSESLint } from '@typescript-eslint/utils';
import * as parser from '@typescript-eslint/parser';

import type { RetrysafeRuleDocs } from '../util/createRule.js';

/** The files every config lints: JavaScript in all its module flavours, and TypeScript. */
export const LINTED_FILES = ['**/*.{js,mjs,cjs,jsx,ts,mts,cts,tsx}'];

/** The names of the shipped configs, as users write them: `retrysafe.configs.recommended`. */
export type ConfigName = 'recommended' | 'strict' | 'recommended-type-checked';

type RuleWithDocs = { meta: { docs?: RetrysafeRuleDocs & { description?: string } } };

/**
 * Derives each config's rule list from the rules' own metadata, so a config cannot drift from
 * `meta.docs.recommended` / `requiresTypeChecking` / `severity` (a test checks the result).
 *
 * - `recommended`: rules marked `recommended` that need no type information.
 * - `strict`: every rule that needs no type information.
 * - `recommended-type-checked`: `recommended` plus the type-aware rules marked `recommended`,
 *   with `parserOptions.projectService` turned on.
 *
 * Each rule is on at its `meta.docs.severity`: `'error'` unless the rule says `'warn'`.
 */
export function buildRuleLevels(
  rules: Record<string, RuleWithDocs>,
  configName: ConfigName,
  namespace: string,
): Record<string, TSESLint.SharedConfig.RuleLevel> {
  const levels: Record<string, TSESLint.SharedConfig.RuleLevel> = {};
  for (const [id, rule] of Object.entries(rules).sort(([a], [b]) => a.localeCompare(b))) {
    const docs = rule.meta.docs ?? {};
    if (isInConfig(docs, configName)) levels[`${namespace}/${id}`] = docs.severity ?? 'error';
  }
  return levels;
}

function isInConfig(docs: RetrysafeRuleDocs, configName: ConfigName): boolean {
  const typeChecked = docs.requiresTypeChecking === true;
  switch (configName) {
    case 'recommended':
      return !typeChecked && docs.recommended === 'recommended';
    case 'strict':
      return !typeChecked && docs.recommended !== undefined;
    case 'recommended-type-checked':
      return docs.recommended === 'recommended';
  }
}

/** The `languageOptions` a config sets: the TypeScript parser, and the project service when typed. */
export function buildLanguageOptions(configName: ConfigName): TSESLint.FlatConfig.LanguageOptions {
  const languageOptions: TSESLint.FlatConfig.LanguageOptions = {
    parser,
    sourceType: 'module',
  };
  if (configName === 'recommended-type-checked') {
    languageOptions.parserOptions = { projectService: true };
  }
  return languageOptions;
}
