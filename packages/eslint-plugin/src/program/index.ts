// The type-aware, cross-file analysis: another file of the program read as ESTree (programFiles), the
// walk that takes the same local steps as the tracer and hands over where a file ends (crossFileWalk),
// what a call or a name in one file is in another (declarationTargets), sources found across files
// (crossFileSources) and the entry a rule uses for one linted file (crossFileFollower), the resolver
// through which the effects analysis follows an imported helper or client (crossFileEffects), tools
// registered through another file's wrapper or config `const` (crossFileTools; without types, through a relative import read on disk: importedWrappers), parameters
// that make an argument a key (keyParameters) and where they can be declared (keyReach), the package
// that declares something (declaringPackage), tool factories by declaration (declaredToolFactories) and brands by type
// (brandTypes). Only the type-aware rules (and `retrysafe audit`, for importedWrappers) use it. Import it from here.
export * from './brandTypes.js';
export * from './crossFileEffects.js';
export * from './crossFileFollower.js';
export * from './crossFileSources.js';
export * from './crossFileTools.js';
export * from './crossFileWalk.js';
export * from './declarationTargets.js';
export * from './declaredToolFactories.js';
export * from './declaringPackage.js';
export * from './importedObjects.js';
export * from './importedWrappers.js';
export * from './keyParameters.js';
export * from './keyReach.js';
export * from './programFiles.js';
export * from './programGates.js';
export * from './typescript.js';
