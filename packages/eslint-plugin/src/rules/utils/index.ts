export * from './createRule.js';
