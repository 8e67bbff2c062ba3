// What a tool's handler does to the world: the effects analysis of a handler (read, absolute write,
// create, relative, with its evidence) over the catalogue of libraries, the providers that accept an
// idempotency key and whether a call passes one, and the resolver interface through which the
// type-aware analysis (program/) lets it follow imports. Built on ast/, sql/, keys/ and tools/. Import it
// from here.
export * from './callOrigins.js';
export * from './crossFile.js';
export * from './keyedProviders.js';
export * from './passedKeys.js';
export { findEnclosingHandler, findNamedKeyVariable, getKeyedHandler, type HandlerKey, isNameFreeIn, type KeyedHandler } from './keyedHandlers.js';
export { isForeignKey, type KeyOrigin, traceKeyOrigin } from './keyOrigin.js';
export * from './analysis.js';
export * from './libraries/index.js';
export * from './effectsOfCall.js';
export * from './inferredPolicy.js';
export { createNewKeyFinder } from './newKeys.js';
export { BUILT_IN_LIBRARIES } from './libraries/index.js';
export { classifySql, type SqlStatement } from '../sql/index.js';
export { hasMember, matchOperation } from './callPatterns.js';
