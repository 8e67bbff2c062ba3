// The import rules of the packages' sources, checked by tests/architecture.test.ts in the test
// command (and by hand: `pnpm exec depcruise --config .dependency-cruiser.cjs packages/*/src
// packages/eslint-plugin/tests`). ARCHITECTURE.md draws the layers; docs/contributing.md says where
// new code goes.
//
// In packages/eslint-plugin/src the analysis is a library in layers, each folder behind its
// index.ts:
//
//   ast  <-  sql  <-  keys  <-  effects  <-  program  <-  rules  <-  configs  <-  index.ts
//   ast  <-  tools, brands  <-  effects
//            tools  <-  usage (runners, stores, called-twice tests, module values)  <-  analysis (the public entry point)
//
// A layer imports only the layers to its left (and itself); across folders only an index.ts is
// imported. Type-only imports count as imports everywhere (`tsPreCompilationDeps`).

const PLUGIN = '^packages/eslint-plugin/src/';

/** `from` layer may import only the `allowed` layers (its own included). */
function layer(name, allowed) {
  return {
    name: `layer-${name}`,
    comment: `src/${name}/ imports only ${allowed.join(', ')} (ARCHITECTURE.md).`,
    severity: 'error',
    from: { path: `${PLUGIN}${name}/` },
    to: { path: PLUGIN, pathNot: allowed.map((allowedName) => `${PLUGIN}${allowedName}/`) },
  };
}

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycle, type-only imports included.',
      severity: 'error',
      from: { path: '^packages/[^/]+/src/' },
      to: { circular: true },
    },
    {
      name: 'index-only-across-folders',
      comment:
        "A module imports a module of another folder only through that folder's index.ts: the index is the folder's whole public surface.",
      severity: 'error',
      // The folder of the importing module, captured (src/index.ts has a rule of its own below).
      from: { path: `^(${PLUGIN.slice(1)}.*/)[^/]+\\.ts$` },
      to: { path: PLUGIN, pathNot: ['^$1[^/]+\\.ts$', '/index\\.ts$'] },
    },
    layer('ast', ['ast']),
    layer('sql', ['ast', 'sql']),
    layer('keys', ['ast', 'sql', 'keys']),
    layer('tools', ['ast', 'tools']),
    layer('brands', ['ast', 'brands']),
    layer('usage', ['ast', 'tools', 'usage']),
    layer('effects', ['ast', 'sql', 'keys', 'tools', 'effects']),
    layer('program', ['ast', 'sql', 'keys', 'tools', 'brands', 'effects', 'program']),
    layer('analysis', ['ast', 'sql', 'keys', 'tools', 'brands', 'effects', 'program', 'usage', 'analysis']),
    layer('rules', ['ast', 'sql', 'keys', 'tools', 'brands', 'effects', 'program', 'usage', 'rules']),
    layer('configs', ['rules', 'configs']),
    {
      name: 'plugin-entry-on-top',
      comment: 'Nothing in src imports the plugin object (src/index.ts); it imports configs and rules only.',
      severity: 'error',
      from: { path: PLUGIN },
      to: { path: `${PLUGIN}index\\.ts$` },
    },
    {
      name: 'plugin-entry-imports',
      comment: 'src/index.ts builds the plugin from the rules and the configs.',
      severity: 'error',
      from: { path: `${PLUGIN}index\\.ts$` },
      to: { path: PLUGIN, pathNot: [`${PLUGIN}(rules|configs)/index\\.ts$`] },
    },
    {
      name: 'tests-through-entry-points',
      comment:
        "The plugin's tests import its public entry points (src/index.ts, src/analysis/index.ts), a rule module, or a layer's index.ts; never a module behind an index.",
      severity: 'error',
      from: { path: '^packages/eslint-plugin/tests/' },
      to: {
        path: PLUGIN,
        pathNot: [`${PLUGIN}index\\.ts$`, `${PLUGIN}rules/[^/]+\\.ts$`, '/index\\.ts$'],
      },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|node_modules)/|packages/eslint-plugin/tests/(fixtures|cases)/' },
    tsPreCompilationDeps: true,
    // TypeScript's own resolution: the sources import `./x.js` for `./x.ts` (NodeNext).
    tsConfig: { fileName: require('node:path').join(__dirname, 'packages/eslint-plugin/tsconfig.json') },
  },
};
