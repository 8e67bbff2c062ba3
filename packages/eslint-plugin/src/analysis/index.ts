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
 * absolute write, create, relative: `analyseToolEffects`, `createEffectsAnalyser`) reads the file
 * alone, or, given `createCrossFileEffects` on a typed parse's services, follows imported helpers
 * and clients into other files of the program as `no-contradicted-policy-type-checked` does.
 *
 * For the seed's audit (`retrysafe audit`) it also answers, per tool: its declared policy as seed
 * data with MCP annotations read as what their hints state (`readPolicyData`, `readMcpHints`), how its key is derived
 * (`describeKeyDerivation`) and which keyed provider calls pass it (`findProviderKeys`), whether its
 * response flags a replay (`findReplaySignal`); and per file: runners and their stores, the calls
 * that hand a tool to a runner (`runner.call`, the adapters, the guards, `enableIdempotency`),
 * called-twice tests, and its values as plain symbolic data for linking files (`createValueSummariser`).
 *
 * @packageDocumentation
 */
export { codeSpan, listWords } from '../ast/index.js';
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
export type { AllowedSource, ConstantFallback, KeyPositionKind, SourceKind } from '../keys/index.js';
export { findPolicyContradiction, POLICY_CONTRADICTIONS, type PolicyContradiction, type StaticPolicy } from '../tools/index.js';
export { findUnknownPolicyValue, type UnknownPolicyValue } from '../tools/index.js';
export { FRAMEWORKS, type ToolDefinition, type ToolFactory, type ToolFramework } from '../tools/index.js';
export { analyseToolEffects, type ToolEffects } from './effects.js';
export { createCrossFileEffects, createImportedWrappers, type EffectsProgramContext, type ImportedWrappers, type ImportedWrapperTool } from '../program/index.js';
export type { CrossFileResolver } from '../effects/index.js';
export { BUILT_IN_LIBRARIES, classifySql, createEffectsAnalyser, type EffectKind, type EffectLibrary, type FoundEffect, fromKeyedProviders, type HandlerEffects, createNewKeyFinder, inferPolicy } from '../effects/index.js';
export { describeKeyDerivation, findProviderKeys, type KeyDerivation, type KeyDerivationOptions, type KeyPart, type ProviderKey } from './keyDerivation.js';
export { type CalledFunction, describeFactoryArgument, type FactoryArgument, getCalledFunction, getOpenedRun, type KeyPartOrigin } from './keyOrigins.js';
export { type DeclaredIdempotency, type McpHints, type PolicyData, type PolicyConst, type PolicyLayer, type PolicyUnknownValue, readExportedPolicyConsts, readMcpHints, readPolicyData, readPolicyLayers } from './policyData.js';
export {
  type CalledTwiceTarget,
  type CalledTwiceTest,
  allowVolatileOf,
  createValueSummariser,
  CURRENT_CALL_SETTERS,
  findCalledTwiceTests,
  findReplaySignal,
  getIdempotentServer,
  getRegisteringServer,
  getRunnerConstruction,
  getRunnerUse,
  getStoreConstruction,
  getToolSet,
  type IdempotentServer,
  isReplayFlagName,
  isTestFile,
  isTestFileName,
  mayUseRunners,
  type ModuleExports,
  type ReplaySignal,
  type RunnerConstruction,
  type RunnerUse,
  type StoreConstruction,
  type StoreKind,
  type SymbolicValue,
  type TestReach,
  type ToolSet,
  type ValueLandmarks,
  type ValueSummariser,
} from '../usage/index.js';
export { createKeyNameMatcher, DEFAULT_KEY_NAMES, type KeyNameMatcher, type KeyPosition, type NondeterministicSource } from '../keys/index.js';
export { describeNode, getImportedModules, resolveReference, type ResolvedReference } from '../ast/index.js';
export type { KeyedProvider } from '../effects/index.js';
export { createToolRecogniser, getToolLocation, type PolicyDeclaration, type ToolRecogniser, type ToolSiteNode } from '../tools/index.js';
export type { TSESLint, TSESTree } from '@typescript-eslint/utils';
