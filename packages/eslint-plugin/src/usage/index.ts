// Where a tool meets @retrysafe/spec's runtime and its tests: runners and their stores, the calls
// that hand a tool to a runner (runner.call, the adapters, the guards, an MCP server that
// deduplicates keyed calls), replay flags in what a handler returns, called-twice tests, and a
// file's values as plain symbolic data for linking files without types. What `retrysafe audit`
// asks (questions 3 to 5 of the seed's audit); a rule may ask it too.
export * from './calledTwiceTests.js';
export * from './moduleValues.js';
export * from './replayFlags.js';
export * from './runners.js';
export * from './testReach.js';
export * from './toolSets.js';
