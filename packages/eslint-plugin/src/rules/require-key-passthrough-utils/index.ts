export * from './keySuggestions.js';
export * from './passthroughRule.js';
