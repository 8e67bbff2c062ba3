import type { TSESLint } from '@typescript-eslint/utils';
import { createRequire } from 'node:module';

// First: configs/index.ts loads typescriptSupport before anything else, so that a missing or
// unsupported `typescript` is explained before the parser (or a rule) fails to load it.
import { buildConfigs, type ConfigName, type PluginConfigs } from './configs/index.js';
import { rules } from './rules/index.js';

const { name, version } = createRequire(import.meta.url)('../package.json') as { name: string; version: string };

/** The prefix of every rule id in a user's config: `@retrysafe/no-random-key`. */
const namespace = '@retrysafe';

/**
 * The ESLint plugin object (`{ meta, rules, configs }`). Use one of its flat configs:
 *
 * ```js
 * // eslint.config.mjs
 * import retrysafe from '@retrysafe/eslint-plugin';
 * export default [retrysafe.configs.recommended];
 * ```
 *
 * `configs['recommended-type-checked']` is a list of two config objects, spread into the array
 * (`...retrysafe.configs['recommended-type-checked']`) as typescript-eslint's configs are: an
 * eslint.config file's array cannot nest one. `configs['disable-type-checked']` turns the
 * type-aware rules and type information off for the files it is given.
 */
const plugin: { meta: { name: string; version: string; namespace: string }; rules: typeof rules; configs: PluginConfigs } = {
  meta: { name, version, namespace },
  rules,
  configs: {} as PluginConfigs,
};

plugin.configs = buildConfigs(plugin as unknown as TSESLint.FlatConfig.Plugin, rules, namespace);

// Only a default export: CommonJS `require()` and tools such as eslint-doc-generator then see the
// plugin object itself.
export default plugin;
export type { ConfigName, PluginConfigs };
