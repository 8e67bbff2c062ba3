// The main job (README: `./scripts/demo.sh`), in three steps:
//   1. ESLint with the example's own eslint.config.mjs (recommended-type-checked) over
//      examples/agent-tools: the safe tools are clean, the unsafe variants in src/unsafe/ are flagged.
//   2. tsc over the example: the safe project compiles, the unsafe project's (src/unsafe/tsconfig.json)
//      type errors are shown.
//   3. ESLint with every @retrysafe rule over real agent tools published on the npm registry
//      (installed as dev dependencies of the example), printing what it finds. It must not crash.
// Exits non-zero when any step does not behave as described.
import { ESLint } from 'eslint';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const exampleDir = path.join(repoRoot, 'examples/agent-tools');
const requireFromExample = createRequire(path.join(exampleDir, 'package.json'));

/** Published agent tools the demo lints, each found through the example's node_modules. */
const REAL_PACKAGES = [
  '@modelcontextprotocol/server-slack',
  '@modelcontextprotocol/server-github',
  '@modelcontextprotocol/server-memory',
  '@stripe/agent-toolkit',
];
/** The folder of the example's unsafe variants, with its own tsconfig.json. */
const UNSAFE_DIR = path.join(exampleDir, 'src/unsafe');
const LINTED_EXTENSIONS = new Set(['.js', '.mjs', '.cjs', '.ts', '.mts', '.cts']);

let failed = false;
const fail = (message) => {
  failed = true;
  console.log(`  ✗ ${message}`);
};
const heading = (text) => console.log(`\n━━ ${text}`);

function printResults(results, baseDir) {
  for (const result of results) {
    for (const message of result.messages) {
      const where = `${path.relative(baseDir, result.filePath)}:${message.line}:${message.column}`;
      console.log(`  ${where}  ${message.ruleId ?? 'fatal'}  ${message.message}`);
    }
  }
}

async function lintExample() {
  heading('1. ESLint (examples/agent-tools/eslint.config.mjs, @retrysafe recommended-type-checked)');
  const eslint = new ESLint({ cwd: exampleDir });
  const results = await eslint.lintFiles(['src']);
  printResults(results, exampleDir);
  const isUnsafe = (result) => !path.relative(UNSAFE_DIR, result.filePath).startsWith('..');
  const unsafe = results.filter(isUnsafe);
  const safe = results.filter((r) => !isUnsafe(r));
  const fatal = results.flatMap((r) => r.messages.filter((m) => m.fatal));
  if (fatal.length > 0) fail(`${fatal.length} file(s) could not be parsed`);
  const safeProblems = safe.reduce((n, r) => n + r.errorCount + r.warningCount, 0);
  const unsafeProblems = unsafe.reduce((n, r) => n + r.errorCount, 0);
  if (safeProblems === 0) console.log(`  ✓ the safe tools (${safe.length} files) pass`);
  else fail(`the safe tools have ${safeProblems} problem(s)`);
  if (unsafeProblems > 0) console.log(`  ✓ the unsafe variants fail with ${unsafeProblems} error(s)`);
  else fail('the unsafe variants were not flagged');
}

function runTsc(project) {
  const tsc = requireFromExample.resolve('typescript/bin/tsc');
  return spawnSync(process.execPath, [tsc, '-p', project, '--noEmit', '--pretty', 'false'], {
    cwd: exampleDir,
    encoding: 'utf8',
  });
}

function typecheckExample() {
  heading('2. tsc (examples/agent-tools)');
  const safe = runTsc('tsconfig.json');
  if (safe.status === 0) console.log('  ✓ tsconfig.json (the safe tools) compiles');
  else fail(`the safe tools do not compile:\n${safe.stdout}${safe.stderr}`);
  const unsafe = runTsc('src/unsafe');
  const errors = unsafe.stdout.split('\n').filter((line) => line.includes('error TS'));
  for (const line of errors) console.log(`  ${line}`);
  if (unsafe.status !== 0 && errors.length > 0) console.log(`  ✓ src/unsafe/tsconfig.json (the unsafe variants) is rejected with ${errors.length} type error(s)`);
  else fail('the unsafe tools compiled');
}

function listSourceFiles(dir) {
  const files = [];
  for (const entry of readdirSync(dir)) {
    if (entry === 'node_modules') continue;
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) files.push(...listSourceFiles(full));
    else if (LINTED_EXTENSIONS.has(path.extname(full)) && !full.endsWith('.d.ts')) files.push(full);
  }
  return files;
}

async function lintRealPackages() {
  heading('3. ESLint (every @retrysafe rule) over published agent tools from the npm registry');
  const { default: retrysafe } = await import(requireFromExample.resolve('@retrysafe/eslint-plugin'));
  let total = 0;
  for (const name of REAL_PACKAGES) {
    // Some packages export no ./package.json, so find the folder through node_modules itself.
    const packageDir = realpathSync(path.join(exampleDir, 'node_modules', name));
    const { version } = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8'));
    // ESLint lints only below its cwd, and ignores node_modules unless told not to.
    const eslint = new ESLint({
      cwd: packageDir,
      overrideConfigFile: true,
      ignore: false,
      overrideConfig: [retrysafe.configs.recommended],
    });
    const files = listSourceFiles(packageDir);
    const results = await eslint.lintFiles(files);
    const fatal = results.flatMap((r) => r.messages.filter((m) => m.fatal || !m.ruleId));
    const findings = results.reduce((n, r) => n + r.messages.length, 0) - fatal.length;
    total += findings;
    console.log(`\n  ${name}@${version}: ${files.length} files, ${findings} finding(s)`);
    printResults(results, packageDir);
    if (fatal.length > 0) fail(`${name}: ${fatal.length} file(s) failed to lint`);
  }
  console.log(`\n  ${total} finding(s) in ${REAL_PACKAGES.length} packages, no crash`);
}

if (!existsSync(path.join(repoRoot, 'packages/eslint-plugin/dist/index.js'))) {
  console.error('The packages are not built: run ./scripts/demo.sh, which installs and builds first.');
  process.exit(1);
}
try {
  await lintExample();
  typecheckExample();
  await lintRealPackages();
} catch (error) {
  fail(`crashed: ${error instanceof Error ? error.stack : String(error)}`);
}
console.log(failed ? '\ndemo: FAILED' : '\ndemo: OK');
process.exit(failed ? 1 : 0);
