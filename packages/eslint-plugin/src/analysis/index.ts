/**
 * The plugin's analysis as a library: what the rules see in a file, as data, for tools that are not
 * lint rules (the `retrysafe audit` command, editors, reports). Import it as
 * `@retrysafe/eslint-plugin/analysis`.
 *
 * Every function takes an ESLint `SourceCode` (a rule's `context.sourceCode`: the parsed file with
 * its scopes), so the simplest way to run it over a code base is ESLint itself with the user's config
 * and one more rule that collects:
 *
 * ```js
 * import { findKeys, recogniseTools } from '@retrysafe/eslint-plugin/analysis';
 *
 * const collected = [];
 * const collector = {
 *   meta: { type: 'suggestion', schema: [] },
 *   create(context) {
 *     return {
 *       'Program:exit'() {
 *         collected.push({ file: context.filename, tools: recogniseTools(context.sourceCode), keys: findKeys(context.sourceCode) });
 *       },
 *     };
 *   },
 * };
 * ```
 *
 * The answers are the rules' own (the same recognisers, catalogue of frameworks and tracer), so a
 * report built on them agrees with the lint findings. Nodes in the results belong to the file they
 * came from and are valid while it is linted. The effects analysis of a tool's handler (read,
 * absolute write, create, relative) will be added here when it lands (src/effects).
 *
 * @packageDocumentation
 */
export { findKeys, findSources, type KeyAnalysisOptions, type KeySource, type KeyUse, traceKey } from './keys.js';
export {
  type DeclaredPolicy,
  describeTool,
  type McpAnnotations,
  recogniseTools,
  type RecogniseToolsOptions,
  type RecognisedTool,
  type SeedPolicyField,
  type SeedPolicyFields,
} from './tools.js';
export type { AllowedSource, KeyPositionKind, SourceKind } from '../keys/index.js';
export { FRAMEWORKS, type ToolDefinition, type ToolFactory, type ToolFramework } from '../tools/index.js';
export { analyseToolEffects, type ToolEffects } from './effects.js';
export { BUILT_IN_LIBRARIES, classifySql, createEffectsAnalyser, type EffectKind, type EffectLibrary, type FoundEffect, type HandlerEffects, inferPolicy } from '../effects/index.js';
