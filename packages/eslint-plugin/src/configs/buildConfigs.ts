import type { TSESLint } from '@typescript-eslint/utils';
import * as parser from '@typescript-eslint/parser';

import type { RetrysafeRuleDocs } from '../rules/utils/index.js';

type FlatConfig = TSESLint.FlatConfig.Config;

/** The files every config lints: JavaScript in all its module flavours, and TypeScript. */
export const LINTED_FILES = ['**/*.{js,mjs,cjs,jsx,ts,mts,cts,tsx}'];

/**
 * The files `recommended-type-checked` parses with type information. JavaScript files are left out:
 * the project service finds only the files some `tsconfig.json` includes (with `allowJs`), and any
 * other file it is given (`eslint.config.mjs`, a `scripts/*.mjs`) is a parse error, not a lint.
 */
export const TYPESCRIPT_FILES = ['**/*.{ts,mts,cts,tsx}'];

/** The names of the shipped configs, as users write them: `retrysafe.configs.recommended`. */
export type ConfigName = 'recommended' | 'recommended-type-checked' | 'disable-type-checked';

/** The shipped configs: `recommended-type-checked` is a list of two, as a flat config may be. */
export interface PluginConfigs {
  readonly recommended: FlatConfig;
  readonly 'recommended-type-checked': FlatConfig[];
  readonly 'disable-type-checked': FlatConfig;
}

type RuleWithDocs = { meta: { docs?: RetrysafeRuleDocs & { description?: string } } };

/**
 * Which rules a config object lists, from their metadata (a test checks the result):
 * - `recommended`: rules marked `recommended` that need no type information, at their severity;
 * - `recommendedTypeAware`: rules marked `recommended` that need type information, at their severity;
 * - `typeAwareOff`: every rule that needs type information, turned off.
 *
 * A rule's severity is its `meta.docs.severity`: `'error'` unless the rule says `'warn'`.
 */
export type RuleSelection = 'recommended' | 'recommendedTypeAware' | 'typeAwareOff';

/** The rule levels of one config object, sorted by rule id. */
export function buildRuleLevels(
  rules: Record<string, RuleWithDocs>,
  selection: RuleSelection,
  namespace: string,
): Record<string, TSESLint.SharedConfig.RuleLevel> {
  const levels: Record<string, TSESLint.SharedConfig.RuleLevel> = {};
  for (const [id, rule] of Object.entries(rules).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const docs = rule.meta.docs ?? {};
    const typeAware = docs.requiresTypeChecking === true;
    const recommended = docs.recommended === 'recommended';
    if (selection === 'typeAwareOff') {
      if (typeAware) levels[`${namespace}/${id}`] = 'off';
    } else if (recommended && typeAware === (selection === 'recommendedTypeAware')) {
      levels[`${namespace}/${id}`] = docs.severity ?? 'error';
    }
  }
  return levels;
}

/**
 * Builds the shipped configs from the rules' metadata.
 *
 * - `recommended`: the rules that need no type information, on every linted file, with the
 *   TypeScript parser (which reads JavaScript too).
 * - `recommended-type-checked`: `recommended`, then the type-aware rules with the project service
 *   on TypeScript files only, so that a JavaScript file outside every `tsconfig.json` is linted
 *   rather than reported as a parsing error.
 * - `disable-type-checked`: every type-aware rule off and type information off, for files that
 *   have none (typescript-eslint's own `disableTypeChecked` knows only its own rules, and ours then
 *   fail to load: "You have used a rule which requires type information").
 */
export function buildConfigs(
  plugin: TSESLint.FlatConfig.Plugin,
  rules: Record<string, RuleWithDocs>,
  namespace: string,
): PluginConfigs {
  const plugins = { [namespace]: plugin };
  const untyped = (name: string): FlatConfig => ({
    name: `${namespace}/${name}`,
    files: LINTED_FILES,
    plugins,
    languageOptions: { parser, sourceType: 'module' },
    rules: buildRuleLevels(rules, 'recommended', namespace),
  });
  return {
    recommended: untyped('recommended'),
    'recommended-type-checked': [
      untyped('recommended-type-checked'),
      {
        name: `${namespace}/recommended-type-checked/typescript-files`,
        files: TYPESCRIPT_FILES,
        plugins,
        languageOptions: { parserOptions: { projectService: true } },
        rules: buildRuleLevels(rules, 'recommendedTypeAware', namespace),
      },
    ],
    'disable-type-checked': {
      name: `${namespace}/disable-type-checked`,
      plugins,
      // As typescript-eslint's disableTypeChecked: no program, no project, no project service.
      languageOptions: { parserOptions: { program: null, project: false, projectService: false } },
      rules: buildRuleLevels(rules, 'typeAwareOff', namespace),
    },
  };
}
