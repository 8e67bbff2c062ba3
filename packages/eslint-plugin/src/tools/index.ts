// The tool analysis: what a tool definition is in each framework, read from syntax and imports
// alone. The shape every recogniser produces (toolDefinition), the recogniser a rule creates per file
// (recogniser) and the per-framework readers it uses (factories, langchainClassTools, mcpTools,
// fastMcpTools, mcpLowLevelTools), where a policy is declared (declaredPolicies, policyFields), what
// an input schema's fields are (inputSchemas) and what a tool's name says it does (toolVerbs).
// The catalogue of frameworks, as data, is tools/frameworks. Built on ast/ only. Import it from here.
export * from './declaredPolicies.js';
export * from './factories.js';
export * from './frameworks/index.js';
export * from './fastMcpTools.js';
export * from './inputSchemas.js';
export * from './langchainClassTools.js';
export { fromWrapperCall, isConfigFromParameter, type LocalWrapper } from './localWrappers.js';
export * from './mcpLowLevelTools.js';
export * from './mcpTools.js';
export * from './policyContradictions.js';
export * from './policyFields.js';
export * from './policyValues.js';
export * from './recogniser.js';
export * from './toolDefinition.js';
export * from './toolVerbs.js';
