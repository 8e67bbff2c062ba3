// What the benches share: their command-line flags (Node's util.parseArgs), the files below a
// folder, the median, and the Markdown tables they print.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

/**
 * The `--name value` flags of this process, as strings (every flag takes a value; numbers and
 * lists are parsed by the bench). Throws on a flag not in `names`, so a typo does not run a
 * different bench than asked.
 */
export function readFlags(names) {
  const options = Object.fromEntries(names.map((name) => [name, { type: 'string' }]));
  return parseArgs({ args: process.argv.slice(2), options, strict: true }).values;
}

/** The median of numbers (the mean of the middle two for an even count). */
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** A Markdown table, padded; the first `leftColumns` columns align left, the rest right. */
export function table(head, rows, leftColumns = 1) {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const left = (i) => i < leftColumns;
  const line = (cells) => `| ${cells.map((c, i) => (left(i) ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (left(i) ? `:${'-'.repeat(w + 1)}` : `${'-'.repeat(w + 1)}:`)).join('|')}|`;
  return [line(head), rule, ...rows.map(line)].join('\n');
}

/** Load averages as `0.52 0.61 0.70`. */
export const formatLoad = (averages) => averages.map((x) => x.toFixed(2)).join(' ');

/** Every file below `dir`, depth first, `node_modules` folders left out. */
export function* walkFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') yield* walkFiles(path);
    } else if (entry.isFile()) yield path;
  }
}

/**
 * The plugin with each rule wrapped to note whether its `create` returned any listener, so a
 * bench can tell which files engage the rules: `engaged()` answers for the files linted since
 * the last call and resets.
 */
export function engagementProbe(plugin) {
  let listened = false;
  const rules = Object.fromEntries(
    Object.entries(plugin.rules).map(([id, rule]) => [id, {
      ...rule,
      create(context) {
        const listeners = rule.create(context);
        if (Object.keys(listeners).length > 0) listened = true;
        return listeners;
      },
    }]),
  );
  return {
    plugin: { ...plugin, rules },
    engaged() {
      const answer = listened;
      listened = false;
      return answer;
    },
  };
}

/**
 * Runs `node --predictable --no-memory-reducer <args>` under valgrind (`--tool=cachegrind
 * --cache-sim=no`: the instruction count alone; V8's memory reducer starts collections on
 * wall-clock timers, so without the flag two identical processes differ by a few percent) and resolves with valgrind's "I refs" total and the process's stdout;
 * rejects, with the end of its stderr, when the process fails. `nodeFlags` go to node before `args`
 * (e.g. `--predictable-gc-schedule`); `env` adds to the process's environment.
 */
export function countInstructionsOf(args, label = args.join(' '), nodeFlags = [], env = {}) {
  return new Promise((resolvePromise, reject) => {
    const run = spawn('valgrind', ['--tool=cachegrind', '--cache-sim=no', '--cachegrind-out-file=/dev/null', process.execPath, '--predictable', '--no-memory-reducer', ...nodeFlags, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    run.stdout.on('data', (chunk) => { stdout += chunk; });
    run.stderr.on('data', (chunk) => { stderr += chunk; });
    run.on('error', reject);
    run.on('close', (status) => {
      const collected = /I\s+refs:\s*([\d,]+)/.exec(stderr);
      if (status !== 0 || !collected) reject(new Error(`${label} failed (exit ${status}):\n${stderr.slice(-3000)}`));
      else resolvePromise({ instructions: Number(collected[1].replaceAll(',', '')), stdout });
    });
  });
}
