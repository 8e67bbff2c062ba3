export * from './contradictions.js';
export * from './declarations.js';
export * from './contradictionRule.js';
