import { createRequire } from 'node:module';
const require = createRequire(new URL('./package.json', import.meta.url));
const { ESLint } = await import(require.resolve('eslint'));
const retrysafe = (await import(require.resolve('@retrysafe/eslint-plugin'))).default;
const tseslint = (await import(require.resolve('typescript-eslint'))).default;
const root = '/tmp/retrysafe-bench-lint-corpus-standard';
const files = retrysafe.configs.recommended.files;
const rules = Object.fromEntries(process.argv[3].split(',').map((r) => [r, 'error']));
const eslint = new ESLint({ cwd: root, overrideConfigFile: true, overrideConfig: [
  { files, languageOptions: { parser: tseslint.parser, sourceType: 'module', parserOptions: { projectService: true, tsconfigRootDir: root } }, linterOptions: { reportUnusedDisableDirectives: 'off' } },
  { files, plugins: { '@retrysafe': retrysafe, '@typescript-eslint': tseslint.plugin }, rules },
], cache: false, stats: true });
const results = await eslint.lintFiles([process.argv[2]]);
const t = {}; for (const r of results) for (const p of r.stats?.times?.passes ?? []) for (const [id, x] of Object.entries(p.rules ?? {})) t[id] = (t[id] ?? 0) + x.total;
console.log(results.length, JSON.stringify(t));
