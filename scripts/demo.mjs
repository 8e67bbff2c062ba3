// The main job (README: `./scripts/demo.sh`), in five steps:
//   1. ESLint with the example's own eslint.config.mjs (recommended-type-checked) over
//      examples/agent-tools: the safe tools are clean, the unsafe variants in src/unsafe/ are flagged.
//   2. tsc over the example: the safe project compiles, the unsafe project's (src/unsafe/tsconfig.json)
//      type errors are shown.
//   3. ESLint with every @retrysafe rule over real agent tools published on the npm registry
//      (installed as dev dependencies of the example), printing what it finds. It must not crash.
//   4. `retrysafe audit` over the example (its own config): the seed's five questions per tool, as
//      the table; every safe tool has its called-twice test, and the unsafe variants' keys fail Q2.
//   5. `retrysafe audit` over the same real packages (the plugin's recommended config), as the
//      summary table. It must not crash.
// Exits non-zero when any step does not behave as described.
import { ESLint } from 'eslint';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

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

async function loadAudit() {
  return import(pathToFileURL(path.join(repoRoot, 'packages/cli/dist/index.js')).href);
}

async function auditExample() {
  heading('4. retrysafe audit (examples/agent-tools, its eslint.config.mjs): the five questions per tool');
  const { audit, formatReport } = await loadAudit();
  const report = await audit({ cwd: exampleDir, paths: ['src', 'tests'] });
  console.log(indent(formatReport(report, 'table', { color: process.stdout.isTTY === true })));
  const safe = report.tools.filter((tool) => !tool.file.startsWith('src/unsafe/'));
  const unsafe = report.tools.filter((tool) => tool.file.startsWith('src/unsafe/'));
  const untested = safe.filter((tool) => !['yes', 'n/a'].includes(tool.questions.q5.verdict));
  if (safe.length >= 5 && untested.length === 0) console.log(`  ✓ all ${safe.length} safe tools are read-only or have a called-twice test (Q5)`);
  else fail(`safe tools without a called-twice test: ${untested.map((tool) => tool.name).join(', ') || `(only ${safe.length} safe tools found)`}`);
  const notDurable = safe.filter((tool) => !['yes', 'n/a'].includes(tool.questions.q4.verdict));
  if (notDurable.length === 0) console.log(`  ✓ every safe tool with a side effect keeps its dedup record in a durable store (Q4: src/agent.ts's SQLite runner)`);
  else fail(`safe tools without a visible durable record: ${notDurable.map((tool) => tool.name).join(', ')}`);
  const randomKeys = unsafe.filter((tool) => tool.questions.q2.verdict === 'no');
  if (randomKeys.length > 0) console.log(`  ✓ ${randomKeys.length} unsafe variant(s) fail Q2 (a key that is new on every attempt)`);
  else fail('no unsafe variant fails Q2');
  if (report.files.errors.length > 0) fail(`${report.files.errors.length} file(s) could not be parsed`);
}

async function auditRealPackages() {
  heading("5. retrysafe audit (the plugin's recommended config) over the same published agent tools");
  const { audit, formatReport } = await loadAudit();
  for (const name of REAL_PACKAGES) {
    const packageDir = realpathSync(path.join(exampleDir, 'node_modules', name));
    // Published packages live under node_modules, which a config ignores: audit them anyway.
    const report = await audit({ cwd: packageDir, configLookup: false, ignore: false });
    console.log(`\n  ${name}`);
    console.log(indent(formatReport(report, 'table', { color: process.stdout.isTTY === true, details: false })));
    if (report.files.errors.length > 0) fail(`${name}: ${report.files.errors.length} file(s) could not be parsed`);
  }
}

function indent(text) {
  return text.trimEnd().split('\n').map((line) => `  ${line}`).join('\n');
}

if (!existsSync(path.join(repoRoot, 'packages/eslint-plugin/dist/index.js'))) {
  console.error('The packages are not built: run ./scripts/demo.sh, which installs and builds first.');
  process.exit(1);
}
try {
  await lintExample();
  typecheckExample();
  await lintRealPackages();
  await auditExample();
  await auditRealPackages();
} catch (error) {
  fail(`crashed: ${error instanceof Error ? error.stack : String(error)}`);
}
console.log(failed ? '\ndemo: FAILED' : '\ndemo: OK');
process.exit(failed ? 1 : 0);
