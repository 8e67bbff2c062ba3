// Lints the published JavaScript and TypeScript of large real packages with every @retrysafe rule
// that needs no type information (`configs.recommended`, which holds them all), to measure robustness (crashes must be 0) and
// precision (every finding is judged in docs/evaluation.md).
//
//   node scripts/evaluate-real-code.mjs                 # the bench packages (bench/package.json)
//   node scripts/evaluate-real-code.mjs --agent-tools   # the MCP servers and toolkit of examples/agent-tools
//   node scripts/evaluate-real-code.mjs --servers       # published MCP servers of scripts/real-servers (installed with npm on first use)
//   node scripts/evaluate-real-code.mjs --all           # all three
//   node scripts/evaluate-real-code.mjs --effects       # also list every effect the effects analysis finds in each tool's handler
//   node scripts/evaluate-real-code.mjs --typed         # also the type-aware rules (recommended-type-checked), on a program of each package's files
//   node scripts/evaluate-real-code.mjs --dir PATH      # any installed package folder (repeatable; replaces the default set)
//   node scripts/evaluate-real-code.mjs --json          # machine-readable output (findings and crashes)
//   node scripts/evaluate-real-code.mjs --plugin DIR    # another copy of the plugin package (default packages/eslint-plugin)
//
// Build the plugin first: `pnpm --filter @retrysafe/eslint-plugin build`; it is loaded through its
// public entry points, `@retrysafe/eslint-plugin` and `@retrysafe/eslint-plugin/analysis`. Linted: every .js, .mjs,
// .cjs, .ts, .mts and .cts file of each package (declaration files, source maps and nested
// node_modules left out). A crash is a fatal message (the file did not parse, or a rule threw) or an
// error thrown by ESLint while linting the file. Exits non-zero on any crash, or on any message that
// is neither a crash nor an @retrysafe finding.
//
// With `--typed`, each package's files are also one TypeScript program (`allowJs`, no type errors
// reported: the published JavaScript has no tsconfig), handed to the parser as `programs`, and the
// type-aware rules of `recommended-type-checked` run on every file beside `recommended`, so that
// what they follow across files (imported helpers and clients, re-exports) is judged on real code.
import { spawnSync } from 'node:child_process';
import { ESLint } from 'eslint';
import { createRequire } from 'node:module';
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repoRoot = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Large packages whose code is not agent tools: every finding there is a candidate false positive. */
const BENCH_PACKAGES = [
  'ai',
  '@openai/agents-core',
  '@modelcontextprotocol/sdk',
  '@langchain/core',
  'stripe',
  '@aws-lambda-powertools/idempotency',
].map((name) => ({ name, from: path.join(repoRoot, 'bench') }));

/** Published agent tools: MCP servers and a toolkit, where real findings are expected. */
const AGENT_TOOL_PACKAGES = [
  '@modelcontextprotocol/server-slack',
  '@modelcontextprotocol/server-github',
  '@modelcontextprotocol/server-memory',
  '@stripe/agent-toolkit',
].map((name) => ({ name, from: path.join(repoRoot, 'examples/agent-tools') }));

/** Published MCP servers and toolkits that declare annotations and touch databases, payments, mail or files. */
const SERVERS_DIR = path.join(repoRoot, 'scripts/real-servers');
const SERVER_PACKAGES = Object.keys(JSON.parse(readFileSync(path.join(SERVERS_DIR, 'package.json'), 'utf8')).dependencies).map((name) => ({
  name,
  from: SERVERS_DIR,
}));

/** Installs scripts/real-servers with npm the first time it is needed (its packages are not workspace dependencies). */
function installServers() {
  if (existsSync(path.join(SERVERS_DIR, 'node_modules'))) return;
  console.error('installing scripts/real-servers (first use)...');
  const result = spawnSync('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--no-package-lock'], { cwd: SERVERS_DIR, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('npm install in scripts/real-servers failed');
}


const LINTED_EXTENSIONS = new Set(['.js', '.mjs', '.cjs', '.ts', '.mts', '.cts']);
const DECLARATION_FILE = /\.d\.[mc]?ts$/;

function parseArguments(argv) {
  const options = { json: false, effects: false, typed: false, packages: BENCH_PACKAGES, pluginDir: path.join(repoRoot, 'packages/eslint-plugin') };
  const dirs = [];
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index];
    if (argument === '--json') options.json = true;
    else if (argument === '--agent-tools') options.packages = AGENT_TOOL_PACKAGES;
    else if (argument === '--servers') options.packages = SERVER_PACKAGES;
    else if (argument === '--effects') options.effects = true;
    else if (argument === '--typed') options.typed = true;
    else if (argument === '--all') options.packages = [...BENCH_PACKAGES, ...AGENT_TOOL_PACKAGES, ...SERVER_PACKAGES];
    else if (argument === '--plugin') options.pluginDir = path.resolve(argv[++index] ?? '');
    else if (argument === '--dir') {
      const dir = path.resolve(argv[++index] ?? '');
      dirs.push({ name: path.basename(dir), dir });
    } else throw new Error(`Unknown argument ${argument}`);
  }
  if (dirs.length > 0) options.packages = dirs;
  return options;
}

/** Every linted source file below `dir`, nested `node_modules` left out, in a stable order. */
function listSourceFiles(dir) {
  const files = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') files.push(...listSourceFiles(full));
    } else if (entry.isFile() && LINTED_EXTENSIONS.has(path.extname(entry.name)) && !DECLARATION_FILE.test(entry.name)) {
      files.push(full);
    }
  }
  return files;
}

function countLines(text) {
  if (text.length === 0) return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/**
 * A rule that reports nothing and counts what the shared analysis recognises (tool definitions, key
 * positions, random/clock/per-attempt values), so that a package with no finding shows whether the
 * rules had anything to judge there. It reads the plugin's programmatic entry point, as the audit
 * command does.
 */
function createInventory(analysis) {
  const counts = { tools: 0, keyPositions: 0, sources: 0, handlers: 0, effects: [] };
  const rule = {
    meta: { type: 'suggestion', schema: [] },
    create(context) {
      return {
        'Program:exit'() {
          const { sourceCode } = context;
          counts.tools += analysis.recogniseTools(sourceCode).length;
          // With --typed, the analysis also follows imports into the package's other files, as
          // no-contradicted-policy-type-checked does; an effect found there names its file.
          const services = sourceCode.parserServices;
          const crossFile = options.typed && services?.program ? analysis.createCrossFileEffects({ sourceCode, fileName: context.filename, services }) : undefined;
          for (const tool of analysis.analyseToolEffects(sourceCode, { crossFile })) {
            if (!tool.effects) continue;
            counts.handlers++;
            for (const effect of tool.effects.effects) {
              const key = effect.keyPassed === undefined ? '' : ` key=${effect.keyPassed}`;
              const elsewhere = effect.fileName === undefined ? '' : ` (reached from ${path.basename(context.filename)})`;
              counts.effects.push({ file: effect.fileName ?? context.filename, line: effect.line, tool: tool.name ?? '(unnamed)', elsewhere: elsewhere !== '', text: `${effect.kind} ${effect.library} \`${effect.text}\`${effect.detail ? ` ${effect.detail}` : ''}${key}${elsewhere}` });
            }
          }
          counts.keyPositions += analysis.findKeys(sourceCode).length;
          counts.sources += analysis.findSources(sourceCode).length;
        },
      };
    },
  };
  return { counts, config: { plugins: { 'retrysafe-evaluation': { rules: { inventory: rule } } }, rules: { 'retrysafe-evaluation/inventory': 'error' } } };
}

async function evaluatePackage({ name: givenName, from, dir }, plugin, analysis) {
  let name = givenName;
  const inventory = createInventory(analysis);
  // Resolve through the symlinks: ESLint refuses files outside its cwd.
  const packageDir = realpathSync(dir ?? path.join(from, 'node_modules', name));
  const manifest = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8'));
  const version = manifest.version;
  name = manifest.name ?? name;
  const files = listSourceFiles(packageDir);
  const eslint = new ESLint({
    cwd: packageDir,
    overrideConfigFile: true,
    ignore: false,
    // The packages' own `eslint-disable` comments name rules that are not loaded here.
    allowInlineConfig: false,
    overrideConfig: [plugin.configs.recommended, ...(options.typed ? [typedConfig(plugin, files)] : []), inventory.config],
  });
  const summary = { name, version, files: files.length, lines: 0, findings: [], crashes: [], other: [], seen: inventory.counts, ms: 0 };
  const started = performance.now();
  for (const file of files) {
    const relative = path.relative(packageDir, file);
    summary.lines += countLines(readFileSync(file, 'utf8'));
    try {
      // One file at a time, so that an error thrown by a rule is counted against its file only.
      const [result] = await eslint.lintFiles([file]);
      for (const message of result?.messages ?? []) {
        const entry = { file: relative, line: message.line, column: message.column, ruleId: message.ruleId, severity: message.severity, message: message.message };
        if (message.suggestions?.length) entry.suggestions = message.suggestions.map((suggestion) => suggestion.desc);
        if (message.fatal) summary.crashes.push(entry);
        else if (message.ruleId?.startsWith(`${plugin.meta.namespace}/`)) summary.findings.push(entry);
        else summary.other.push(entry);
      }
    } catch (error) {
      summary.crashes.push({ file: relative, line: 0, column: 0, ruleId: null, message: error instanceof Error ? error.message : String(error) });
    }
  }
  summary.ms = Math.round(performance.now() - started);
  summary.dir = packageDir;
  return summary;
}

/**
 * The type-aware rules of `recommended-type-checked` on every file of a package, with one program of
 * all its files (published JavaScript: `allowJs`, nothing type-checked, no tsconfig of its own).
 */
function typedConfig(plugin, files) {
  const program = typescript.createProgram({
    rootNames: files,
    options: {
      allowJs: true,
      checkJs: false,
      noEmit: true,
      skipLibCheck: true,
      target: typescript.ScriptTarget.ES2022,
      module: typescript.ModuleKind.NodeNext,
      moduleResolution: typescript.ModuleResolutionKind.NodeNext,
    },
  });
  const [, typeAware] = plugin.configs['recommended-type-checked'];
  return { files: ['**/*'], plugins: typeAware.plugins, languageOptions: { parserOptions: { programs: [program] } }, rules: typeAware.rules };
}

function printSummary(summary) {
  const { name, version, files, lines, findings, crashes, seen, ms } = summary;
  console.log(`\n${name}@${version}: ${files} files, ${lines} lines, ${findings.length} finding(s), ${crashes.length} crash(es) (${(ms / 1000).toFixed(1)} s)`);
  const elsewhere = seen.effects.filter((effect) => effect.elsewhere).length;
  console.log(`  seen: ${seen.tools} tool definition(s), ${seen.handlers} handler(s) analysed, ${seen.effects.length} effect(s)${options.typed ? ` (${elsewhere} in other files)` : ''}, ${seen.keyPositions} key position(s), ${seen.sources} random/clock/per-attempt value(s)`);
  if (options.effects) for (const effect of seen.effects) console.log(`  effect ${path.relative(summary.dir, effect.file)}:${effect.line} [${effect.tool}] ${effect.text}`);
  for (const entry of [...findings, ...crashes, ...summary.other]) {
    console.log(`  ${entry.file}:${entry.line}:${entry.column}  ${entry.ruleId ?? 'CRASH'}  ${entry.message}`);
    for (const suggestion of entry.suggestions ?? []) console.log(`    suggestion: ${suggestion}`);
  }
}

const options = parseArguments(process.argv.slice(2));
// The package's own name resolves from inside it to its `exports` (Node's self-reference).
const resolveFromPlugin = createRequire(path.join(options.pluginDir, 'package.json')).resolve;
const [pluginEntry, analysisEntry] = ['@retrysafe/eslint-plugin', '@retrysafe/eslint-plugin/analysis'].map((specifier) => resolveFromPlugin(specifier));
if (!existsSync(pluginEntry)) {
  console.error(`No plugin build at ${pluginEntry}: run \`pnpm --filter @retrysafe/eslint-plugin build\` first.`);
  process.exit(2);
}
const { default: plugin } = await import(pathToFileURL(pluginEntry).href);
const typescript = options.typed ? (await import(pathToFileURL(resolveFromPlugin('typescript')).href)).default : undefined;
const analysis = await import(pathToFileURL(analysisEntry).href);

const summaries = [];
if (options.packages.some((target) => target.from === SERVERS_DIR)) installServers();
for (const target of options.packages) {
  const summary = await evaluatePackage(target, plugin, analysis);
  summaries.push(summary);
  if (!options.json) printSummary(summary);
}
const total = (key) => summaries.reduce((sum, summary) => sum + (Array.isArray(summary[key]) ? summary[key].length : summary[key]), 0);
const totals = { files: total('files'), lines: total('lines'), findings: total('findings'), crashes: total('crashes'), other: total('other') };
if (options.json) {
  const rules = [...Object.keys(plugin.configs.recommended.rules), ...(options.typed ? Object.keys(plugin.configs['recommended-type-checked'][1].rules) : [])];
  console.log(JSON.stringify({ rules, packages: summaries, totals }, null, 2));
} else {
  console.log(`\nTotal: ${totals.files} files, ${totals.lines} lines, ${totals.findings} finding(s), ${totals.crashes} crash(es)`);
}
// Anything that is neither a finding nor a crash (an unexpected message) fails the run as well.
process.exit(totals.crashes + totals.other > 0 ? 1 : 0);
