import { ESLint, type Linter } from 'eslint';
import path from 'node:path';

import retrysafe from '@retrysafe/eslint-plugin';

import { COLLECTOR_RULE_ID, createCollectorPlugin, type RuleOptionsForFile } from '../collect/collector.js';
import type { FileFacts } from '../collect/facts.js';
import type { ConfigUsed, FileError, RuleFinding } from '../report.js';
import { listSourceFiles } from './files.js';

// One ESLint run over the tree, as the ESLint CLI and editors run it (the `ESLint` class): with the
// project's own `eslint.config.*` where there is one, so its parser, ignores and the options it
// gives the plugin's rules (key names, providers, tool factories) apply; with the plugin's
// `recommended` where there is none. The collector rule rides along through `overrideConfig`; only
// the plugin's rules and the collector run (`ruleFilter`).

/** How the run finds its config and files. */
export interface LintOptions {
  readonly cwd: string;
  readonly paths: readonly string[];
  /** A config file to use instead of looking one up. */
  readonly configFile?: string | undefined;
  /** False: use the plugin's `recommended` config, whatever the project has. */
  readonly configLookup: boolean;
  /** False: lint files the config ignores too (ESLint's `--no-ignore`). */
  readonly ignore: boolean;
  /** Files linted so far, of the total; called after each file. */
  readonly onProgress?: ((done: number, total: number) => void) | undefined;
}

/** What the run saw. */
export interface LintOutcome {
  readonly config: ConfigUsed;
  readonly files: Map<string, FileFacts>;
  readonly findings: RuleFinding[];
  readonly errors: FileError[];
}

const PLUGIN_NAME = '@retrysafe/eslint-plugin';
/**
 * Folders of build and test output that the plugin's `recommended` config (the audit's config when
 * the project has none) ignores, as a project's own config usually does: compiled `dist/` holds the
 * same tools as the sources, and auditing both reports each tool twice. A folder a given path names
 * or lies in is audited.
 */
export const BUILD_OUTPUT_FOLDERS = ['dist', 'build', 'out', '.next', 'coverage'] as const;
/** Files per `lintFiles` call: each batch's results are reduced to findings and let go. */
const BATCH_SIZE = 200;

/** Lints the tree once, collecting facts, the plugin's findings and the files that did not parse. */
export async function lintTree(options: LintOptions): Promise<LintOutcome> {
  const files = new Map<string, FileFacts>();
  const optionsByFile = new Map<string, RuleOptionsForFile>();
  const namespaces = new Set<string>();
  const collector = createCollectorPlugin(
    (facts) => {
      files.set(facts.file, facts);
      progress();
    },
    (file) => optionsByFile.get(file) ?? NO_OPTIONS,
  );
  const { eslint, config } = await createEslint(options, collector, namespaces);
  const candidates = await listSourceFiles(options.cwd, options.paths);
  const linted: string[] = [];
  for (const file of candidates) {
    const fileConfig = (await eslint.calculateConfigForFile(file)) as Linter.Config | undefined;
    if (!fileConfig) continue;
    linted.push(file);
    optionsByFile.set(file, pluginOptions(fileConfig, namespaces));
  }
  let done = 0;
  const progress = (): void => options.onProgress?.(++done, linted.length);
  const findings: RuleFinding[] = [];
  const errors: FileError[] = [];
  for (let start = 0; start < linted.length; start += BATCH_SIZE) {
    const results = await eslint.lintFiles(linted.slice(start, start + BATCH_SIZE));
    const meta = eslint.getRulesMetaForResults(results);
    for (const result of results) readResult(result, meta, namespaces, options.cwd, { findings, errors, progress });
  }
  return { config, files, findings, errors };
}

const NO_OPTIONS: RuleOptionsForFile = { toolFactories: [], keyNames: [], allowedSources: [], providers: [], libraries: [] };

async function createEslint(options: LintOptions, collector: ESLint.Plugin, namespaces: Set<string>): Promise<{ eslint: ESLint; config: ConfigUsed }> {
  const collectorConfig: Linter.Config = { name: 'retrysafe-audit/collector', plugins: { 'retrysafe-audit': collector }, rules: { [COLLECTOR_RULE_ID]: 'error' } };
  // ESLint runs every rule of the project's config; the audit needs only the plugin's and its own.
  const ruleFilter = ({ ruleId }: { ruleId: string }): boolean =>
    ruleId === COLLECTOR_RULE_ID || [...namespaces].some((namespace) => ruleId.startsWith(`${namespace}/`));
  const base = { cwd: options.cwd, ignore: options.ignore, ruleFilter, errorOnUnmatchedPattern: false };
  const recommended = (): { eslint: ESLint; config: ConfigUsed } => {
    namespaces.add(retrysafe.meta.namespace);
    const overrideConfig = [retrysafe.configs.recommended as Linter.Config, buildOutputIgnores(options), collectorConfig];
    return { eslint: new ESLint({ ...base, overrideConfigFile: true, overrideConfig }), config: { kind: 'recommended' } };
  };
  if (options.configFile !== undefined) {
    const file = path.resolve(options.cwd, options.configFile);
    const eslint = new ESLint({ ...base, overrideConfigFile: file, overrideConfig: [collectorConfig] });
    return { eslint, config: { kind: 'file', file: toPosix(path.relative(options.cwd, file)) } };
  }
  if (!options.configLookup) return recommended();
  const probe = new ESLint({ cwd: options.cwd });
  const found = await probe.findConfigFile(path.resolve(options.cwd, options.paths[0] ?? '.', '__placeholder__'));
  if (!found) return recommended();
  const eslint = new ESLint({ ...base, overrideConfig: [collectorConfig] });
  return { eslint, config: { kind: 'project', file: toPosix(path.relative(options.cwd, found)) } };
}

/**
 * A global-ignores config (ESLint's own matching) for the build output folders, less those a given
 * path names or lies in (`retrysafe audit dist` audits `dist/`).
 */
function buildOutputIgnores(options: LintOptions): Linter.Config {
  const named = new Set<string>();
  for (const given of options.paths) {
    for (const segment of path.relative(options.cwd, path.resolve(options.cwd, given)).split(path.sep)) named.add(segment);
  }
  const folders = BUILD_OUTPUT_FOLDERS.filter((folder) => !named.has(folder));
  if (folders.length === 0) return { name: 'retrysafe-audit/build-output' };
  return { name: 'retrysafe-audit/build-output', ignores: folders.map((folder) => `**/${folder}/`) };
}

/**
 * The options a file's config gives the plugin's rules, merged: the tool factories, key names,
 * replay-stable sources and providers of every rule of the plugin (under whatever namespace the
 * project registered it), so that the audit recognises what the rules recognise.
 */
function pluginOptions(config: Linter.Config, namespaces: Set<string>): RuleOptionsForFile {
  for (const [namespace, plugin] of Object.entries(config.plugins ?? {})) {
    if ((plugin as ESLint.Plugin).meta?.name === PLUGIN_NAME) namespaces.add(namespace);
  }
  const merged = { toolFactories: [] as unknown[], keyNames: [] as unknown[], allowedSources: [] as unknown[], providers: [] as unknown[], libraries: [] as unknown[] };
  for (const [ruleId, entry] of Object.entries(config.rules ?? {})) {
    if (![...namespaces].some((namespace) => ruleId.startsWith(`${namespace}/`)) || !Array.isArray(entry)) continue;
    for (const ruleOptions of entry.slice(1)) {
      if (typeof ruleOptions !== 'object' || ruleOptions === null) continue;
      for (const field of Object.keys(merged) as (keyof typeof merged)[]) {
        const value = (ruleOptions as Record<string, unknown>)[field];
        if (Array.isArray(value)) merged[field].push(...value);
      }
    }
  }
  return merged as unknown as RuleOptionsForFile;
}

interface Sinks {
  readonly findings: RuleFinding[];
  readonly errors: FileError[];
  readonly progress: () => void;
}

function readResult(result: ESLint.LintResult, meta: ReturnType<ESLint["getRulesMetaForResults"]>, namespaces: Set<string>, cwd: string, sinks: Sinks): void {
  const file = toPosix(path.relative(cwd, result.filePath));
  const fatal = result.messages.find((message) => message.fatal);
  if (fatal) {
    // A file-level error (the project service does not know the file) comes without a position.
    const line = positive(fatal.line);
    const column = line === undefined ? undefined : positive(fatal.column);
    sinks.errors.push({ file, ...(line !== undefined ? { line } : {}), ...(column !== undefined ? { column } : {}), message: fatal.message });
    sinks.progress();
    return;
  }
  for (const message of result.messages) {
    const ruleId = message.ruleId;
    if (!ruleId || ![...namespaces].some((namespace) => ruleId.startsWith(`${namespace}/`))) continue;
    const helpUri = meta[ruleId]?.docs?.url;
    sinks.findings.push({
      ruleId,
      severity: message.severity === 2 ? 'error' : 'warning',
      message: message.message,
      file,
      line: message.line,
      column: message.column,
      ...(message.endLine !== undefined ? { endLine: message.endLine } : {}),
      ...(message.endColumn !== undefined ? { endColumn: message.endColumn } : {}),
      ...(helpUri ? { helpUri } : {}),
    });
  }
}

/** A 1-based position, or undefined where ESLint gives none (undefined, NaN, 0). */
function positive(value: number | undefined): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 ? value : undefined;
}

function toPosix(file: string): string {
  return file.split(path.sep).join('/');
}
