export * from './contradictions.js';
export * from './declarations.js';
