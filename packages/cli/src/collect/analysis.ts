// The one module of the CLI that reaches the plugin's analysis. The audit never reads code with
// its own copy of what a tool, a key, a runner or a called-twice test is: it asks the plugin, whose
// rules answer from the same functions.
export * from '@retrysafe/eslint-plugin/analysis';
