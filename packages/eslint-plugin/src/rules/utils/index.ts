export * from './createRule.js';
export * from './createTwinRule.js';
