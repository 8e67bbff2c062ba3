// The key analysis: where a deduplication key is made (keyNames, keyPositions), what makes a value
// differ between two attempts (nondeterministicSources and the tables it reads: randomAndClockSources,
// perAttemptSources with retryLoops, replayStableSources; their shapes in sourceTypes), and the
// tracer that follows a key's value back to such a source within one file (valueTracer), where a
// value stored before it is used is durable (persistence, which reads SQL text with sql/), and the
// opposite flaw: a key that falls back to one constant for every call lacking the real one
// (constantFallbacks). Built on ast/ and sql/. Import it from here.
export * from './constantFallbacks.js';
export * from './durableEngines.js';
export * from './keyJudge.js';
export * from './keyNames.js';
export * from './keyPositions.js';
export * from './nondeterministicSources.js';
export * from './perAttemptSources.js';
export * from './persistence.js';
export * from './randomAndClockSources.js';
export * from './replayStableSources.js';
export * from './retryLoops.js';
export * from './retryScopes.js';
export * from './sourceTypes.js';
export * from './valueTracer.js';
