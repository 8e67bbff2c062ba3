// The bottom layer of the analysis: questions about ESTree nodes that every other layer asks, and
// nothing about keys, tools or brands. What a node is and what wraps it (nodes), what a file states
// in plain sight (staticValues: the one resolver of constants and object literals), where a name
// comes from (imports, specModule), what a binding holds (variables, bindings, classMembers,
// localFunctions), and the walk from a value back to what it is made of (expressionWalk).
// Import it from here only.
export * from './bindings.js';
export * from './classMembers.js';
export * from './codeSpan.js';
export * from './describeNode.js';
export * from './expressionWalk.js';
export * from './imports.js';
export * from './localFunctions.js';
export * from './nodes.js';
export * from './specModule.js';
export * from './staticValues.js';
export * from './textTests.js';
export * from './variables.js';
