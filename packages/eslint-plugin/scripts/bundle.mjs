// Bundles the plugin (dist/index.js and the modules it imports, as tsc emitted them) into one
// module, dist/plugin.js, and makes dist/index.js an entry of two imports. ESLint loads the plugin
// once per process, and Node's ESM loader spends a fixed cost on every module it resolves, reads and
// links: the ~140 modules tsc emits cost about 215M instructions more to import than the same code
// in one file (docs/performance.md, section 1.1). The other emitted files stay as tsc wrote them:
// `./analysis` (the CLI's entry) and the types (dist/index.d.ts still describes dist/index.js).
//
// The entry imports configs/typescriptSupport.js first and the bundle second, so that a missing or
// unsupported `typescript` is still explained before @typescript-eslint/parser (whose import a
// bundler hoists to the top of the bundle) fails to load it.
import { rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { rolldown } from 'rolldown';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const entry = join(dist, 'index.js');
const typescriptSupport = join(dist, 'configs', 'typescriptSupport.js');

const bundle = await rolldown({
  input: entry,
  platform: 'node',
  // Packages (dependencies and peers) and node: builtins stay imports; the TypeScript check stays
  // in its own module (the entry below loads it; the bundle uses none of its exports).
  external: (id, importer) => {
    if (id.startsWith('.')) return importer !== undefined && resolve(dirname(importer), id) === typescriptSupport;
    if (id.startsWith('/')) return id === typescriptSupport;
    return true;
  },
});
await bundle.write({ file: join(dist, 'plugin.js'), format: 'esm', sourcemap: false });
await bundle.close();
rmSync(join(dist, 'index.js.map'), { force: true });
writeFileSync(
  entry,
  [
    '// The plugin, bundled (scripts/bundle.mjs). The TypeScript check loads first, before the parser.',
    "import './configs/typescriptSupport.js';",
    "export { default } from './plugin.js';",
    '',
  ].join('\n'),
);
