// What a tool's handler does to the world. Today: the providers that accept an idempotency key
// (Stripe, fetch, undici, axios and the `providers` option) and whether a call passes one. The
// effects analysis of a handler (read, absolute write, create, relative) belongs here too. Built on
// ast/, keys/ and tools/. Import it from here.
export * from './callOrigins.js';
export * from './keyedProviders.js';
export * from './passedKeys.js';
