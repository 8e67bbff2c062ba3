// What a tool's handler does to the world. Today: the providers that accept an idempotency key
// (Stripe, fetch, undici, axios and the `providers` option) and whether a call passes one. The
// effects analysis of a handler (read, absolute write, create, relative) belongs here too. Built on
// ast/, keys/ and tools/. Import it from here.
export * from './callOrigins.js';
export * from './keyedProviders.js';
export * from './passedKeys.js';
export * from './analysis.js';
export * from './libraries/index.js';
export * from './effectsOfCall.js';
export * from './inferredPolicy.js';
export { BUILT_IN_LIBRARIES } from './libraries/index.js';
export { classifySql, type SqlStatement } from './sql/index.js';
export { hasMember, matchOperation } from './callPatterns.js';
