import { writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

import { Command, CommanderError, Option } from 'commander';

import { audit } from './audit.js';
import { type Format, formatReport, FORMATS } from './format/index.js';
import { plural } from './format/verdicts.js';
import { createProgress } from './progress.js';
import type { AuditReport } from './report.js';

// The command line: `retrysafe audit [paths...]`. Exit codes: 0 clean, 1 findings at or over
// `--fail-on`, 2 a usage error, a config ESLint cannot load, no file to audit, or a file that does not parse (the
// run still goes on and reports everything else). An ESLint or plugin that cannot be loaded at all
// (TypeScript 7 as the only `typescript`) throws before this module runs: bin.ts gives it exit code 2.

/** What the command reads and writes; the real process's by default, a test's in tests. */
export interface CliIo {
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean };
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
}

/** The `--fail-on` thresholds. */
export const FAIL_ON = ['error', 'warn', 'none'] as const;

/** Exit codes of `retrysafe audit`. */
export const EXIT = { clean: 0, findings: 1, usage: 2 } as const;

interface AuditFlags {
  format: Format;
  output?: string;
  /** `--output-<format> <file>`, one per format (`outputSarif`, ...). */
  [outputOption: `output${string}`]: string | undefined;
  failOn: (typeof FAIL_ON)[number];
  config?: string;
  configLookup: boolean;
  ignore: boolean;
  color?: boolean;
  progress: boolean;
  cwd?: string;
}

const { version } = createRequire(import.meta.url)('../package.json') as { version: string };

/**
 * Runs the command line with `argv` (the arguments after the program name) and resolves to the
 * exit code; never calls `process.exit`.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let exitCode: number = EXIT.clean;
  const program = buildProgram(io, async (paths, flags) => {
    exitCode = await runAudit(paths, flags, io);
  });
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.clean : EXIT.usage;
    io.stderr.write(`retrysafe: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT.usage;
  }
  return exitCode;
}

function buildProgram(io: CliIo, action: (paths: string[], flags: AuditFlags) => Promise<void>): Command {
  const program = new Command('retrysafe')
    .description('Which agent tools are safe to call twice: the seed\'s five audit questions, answered from the code.')
    .version(version)
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.stdout.write(text), writeErr: (text) => io.stderr.write(text) })
    .showHelpAfterError();
  program
    .command('audit')
    .description(
      'Find every agent tool under the paths and answer, per tool: Q1 what happens if it is called twice; ' +
        'Q2 is its key derived deterministically; Q3 does its response say "already done"; ' +
        'Q4 is its dedup record durable; Q5 is there a test that calls it twice and asserts one effect.',
    )
    .argument('[paths...]', 'files and folders to audit (default: the current folder)')
    .addOption(new Option('-f, --format <format>', 'output format').choices(FORMATS).default('table'))
    .option('-o, --output <file>', 'write the output to a file instead of stdout')
    .addOption(new Option('--output-table <file>', 'also write the table to a file (every --output-<format> comes from the same run)'))
    .addOption(new Option('--output-json <file>', 'also write the JSON report to a file'))
    .addOption(new Option('--output-sarif <file>', 'also write SARIF 2.1.0 to a file'))
    .addOption(new Option('--output-markdown <file>', 'also write Markdown to a file'))
    .addOption(new Option('--output-yaml <file>', 'also write the YAML policies to a file'))
    .addOption(new Option('--fail-on <level>', 'exit 1 when a finding is at or over this level').choices(FAIL_ON).default('error'))
    .option('-c, --config <file>', 'the ESLint config file to use (default: the project\'s eslint.config.*, else the plugin\'s recommended)')
    .option('--no-config-lookup', "ignore the project's eslint.config.* and use the plugin's recommended config")
    .option('--no-ignore', "also audit files the ESLint config ignores, and the build output (dist, build, out, .next, coverage) skipped without a project config; node_modules and .git are always skipped")
    .option('--cwd <dir>', 'the folder to run in; report paths are relative to it (default: the current folder)')
    .option('--color', 'colour the table even when stdout is not a terminal')
    .option('--no-color', 'never colour the table (NO_COLOR=1 does the same)')
    .option('--no-progress', 'no progress bar on stderr (it shows only when stderr is a terminal)')
    .addHelpText(
      'after',
      '\nExit codes: 0 clean; 1 findings at or over --fail-on (error: errors only; warn: warnings too; none: never);\n' +
        '2 a usage error, a setup ESLint cannot run (a config it cannot load, TypeScript 7 as the only typescript, a missing parser),\n' +
        'no file to audit, or a file that does not parse (reported; the run goes on).\n' +
        'Docs: https://github.com/retrysafe/retrysafe/blob/main/docs/audit.md',
    )
    .action(async (paths: string[], flags: AuditFlags) => action(paths, flags));
  return program;
}

async function runAudit(paths: string[], flags: AuditFlags, io: CliIo): Promise<number> {
  const progress = flags.progress && io.stderr.isTTY ? createProgress(io.stderr) : undefined;
  let report: AuditReport;
  try {
    report = await audit({
      paths,
      cwd: flags.cwd ?? io.cwd,
      ...(flags.config !== undefined ? { config: flags.config } : {}),
      configLookup: flags.configLookup,
      ignore: flags.ignore,
      ...(progress ? { onProgress: progress.update } : {}),
    });
  } finally {
    progress?.stop();
  }
  const output = formatReport(report, flags.format, { color: flags.format === 'table' && useColor(flags, io) });
  if (flags.output !== undefined) await writeFile(flags.output, output);
  else io.stdout.write(output);
  // One ESLint run, every output: each `--output-<format> <file>` is written from the same report
  // (files are never coloured).
  for (const [format, file] of extraOutputs(flags)) await writeFile(file, formatReport(report, format));
  if (report.files.scanned === 0) {
    // ESLint itself stops with "all of the files matching the glob pattern are ignored": a CI gate
    // on an audit that read nothing would pass without having looked.
    io.stderr.write(
      `retrysafe: no file was audited under ${paths.length > 0 ? paths.join(', ') : '.'}: the ESLint config lints none of its .js/.mjs/.cjs/.jsx/.ts/.mts/.cts/.tsx files, or ignores them all. Check the paths and the config's files and ignores, or pass --no-config-lookup (exit code 2).\n`,
    );
    return EXIT.usage;
  }
  if (report.files.errors.length > 0) {
    io.stderr.write(`retrysafe: ${plural(report.files.errors.length, 'file')} could not be parsed and ${report.files.errors.length === 1 ? 'was' : 'were'} skipped (exit code 2).\n`);
    return EXIT.usage;
  }
  return failsOn(report, flags.failOn) ? EXIT.findings : EXIT.clean;
}

/** The `--output-<format> <file>` options given, in {@link FORMATS} order. */
function extraOutputs(flags: AuditFlags): [Format, string][] {
  return FORMATS.flatMap((format): [Format, string][] => {
    const file = flags[`output${format[0]?.toUpperCase() ?? ''}${format.slice(1)}`];
    return file === undefined ? [] : [[format, file]];
  });
}

/** Whether the report has findings at or over the threshold. */
export function failsOn(report: AuditReport, level: (typeof FAIL_ON)[number]): boolean {
  if (level === 'none') return false;
  return report.summary.errors > 0 || (level === 'warn' && report.summary.warnings > 0);
}

/** `--color` / `--no-color`, else `NO_COLOR` off, `FORCE_COLOR` on, else a terminal that is not `dumb`. */
function useColor(flags: AuditFlags, io: CliIo): boolean {
  if (flags.color !== undefined) return flags.color;
  if (io.env.NO_COLOR !== undefined && io.env.NO_COLOR !== '') return false;
  if (io.env.FORCE_COLOR !== undefined && io.env.FORCE_COLOR !== '0') return true;
  return io.stdout.isTTY === true && io.env.TERM !== 'dumb';
}

