// The flat configs, generated from the rules' metadata. typescriptSupport comes first: it explains a
// missing or unsupported `typescript` before the parser, which buildConfigs imports, fails to load it.
export * from './typescriptSupport.js';
export * from './buildConfigs.js';
