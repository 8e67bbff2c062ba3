export * from './createRule.js';
export * from './createTwinRule.js';
export { InvalidRuleOptionsError } from './deepOptions.js';
export * from './providerKeys.js';
export * from './randomKeys.js';
