// First: it explains a missing or unsupported `typescript` before the parser fails to load it.
import './configs/typescriptSupport.js';

import type { TSESLint } from '@typescript-eslint/utils';
import { createRequire } from 'node:module';

import { buildLanguageOptions, buildRuleLevels, type ConfigName, LINTED_FILES } from './configs/buildConfigs.js';
import { rules } from './rules/index.js';

const { name, version } = createRequire(import.meta.url)('../package.json') as { name: string; version: string };

/** The prefix of every rule id in a user's config: `@retrysafe/no-random-key`. */
const namespace = '@retrysafe';

const configNames: readonly ConfigName[] = ['recommended', 'strict', 'recommended-type-checked'];

/**
 * The ESLint plugin object (`{ meta, rules, configs }`). Use one of its flat configs:
 *
 * ```js
 * // eslint.config.mjs
 * import retrysafe from '@retrysafe/eslint-plugin';
 * export default [retrysafe.configs.recommended];
 * ```
 */
const plugin = {
  meta: { name, version, namespace },
  rules,
  configs: {} as Record<ConfigName, TSESLint.FlatConfig.Config>,
};

for (const configName of configNames) {
  plugin.configs[configName] = {
    name: `${namespace}/${configName}`,
    files: LINTED_FILES,
    plugins: { [namespace]: plugin as unknown as TSESLint.FlatConfig.Plugin },
    languageOptions: buildLanguageOptions(configName),
    rules: buildRuleLevels(rules, configName, namespace),
  };
}

// Only a default export: CommonJS `require()` and tools such as eslint-doc-generator then see the
// plugin object itself.
export default plugin;
export type { ConfigName };
