export * from './createRule.js';
export * from './createTwinRule.js';
export { InvalidRuleOptionsError } from './deepOptions.js';
