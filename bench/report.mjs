// Prints the tables of docs/performance.md from bench/results/lint-instructions.json, lint-typed.json,
// lint.json and runtime.json, so the page shows exactly what a run measured:
//   node bench/report.mjs [lint-instructions|lint|runtime]
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const results = join(dirname(fileURLToPath(import.meta.url)), 'results');
const which = process.argv[2] ?? 'all';
const read = (name) => JSON.parse(readFileSync(join(results, `${name}.json`), 'utf8'));

const pct = (x) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)} %`;
const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;
const load = (l) => l.map((x) => x.toFixed(2)).join(' / ');
const num = (n) => Math.round(n).toLocaleString('en');

function table(head, rows, align) {
  const sep = head.map((_, i) => (align?.[i] === 'l' ? ':--' : '--:'));
  return [head, sep, ...rows].map((r) => `| ${r.join(' | ')} |`).join('\n');
}

function lint() {
  const r = read('lint');
  const { summary } = r;
  const out = [];
  out.push(`Run ${r.date} · ${r.machine.cpu}, ${r.machine.cores} cores · Node ${r.machine.node} · load average ${r.machine.loadavgStart ? `${load(r.machine.loadavgStart)} at start, ${load(r.machine.loadavgEnd)} at end` : `${load(r.machine.loadavg)} at the end`} · \`${r.command}\``);
  out.push('');
  out.push(table(['package', 'version', 'linted', 'files', 'lines'], r.corpus.packages.map((p) => [`\`${p.name}\``, p.version, `\`${p.flavour}\``, num(p.files), num(p.lines)]), ['l', 'l', 'l']));
  out.push('');
  out.push(`Total: ${num(r.corpus.files)} files, ${num(r.corpus.lines)} lines.`);
  out.push('');
  out.push(table(
    ['variant', 'cold wall', 'cold CPU', 'parse (TIMING run)', 'rules (TIMING run)', 'reports'],
    Object.entries(summary.median).map(([v, m]) => [`(${v}) ${r.variants[v]}`, secs(m.wallMs), secs(m.cpuMs), m.parseMs === undefined ? '' : secs(m.parseMs), m.rulesMs === undefined ? '' : secs(m.rulesMs), String(m.problems)]),
    ['l'],
  ));
  out.push('');
  out.push(table(['ratio', 'wall', 'CPU'], Object.entries(summary.ratios).map(([k, x]) => [k, pct(x.wall), x.cpu === undefined ? '' : pct(x.cpu)]), ['l']));
  if (r.paired) {
    out.push('');
    const [base, ...others] = r.paired.variants;
    for (const other of others) {
      const per = r.paired.totals[base].perPass.map((p, i) => pct((r.paired.totals[other].perPass[i].cpuMs - p.cpuMs) / p.cpuMs));
      out.push(`Warm paired run, (${other}) against (${base}): ${r.paired.passes} passes over ${r.paired.files} files; CPU ${secs(r.paired.totals[other].cpuMs)} against ${secs(r.paired.totals[base].cpuMs)}; per pass ${per.join(', ')}.`);
    }
    if (r.paired.engaged) out.push(`Files the rules engage (a rule's \`create\` returned listeners): ${num(r.paired.engaged.files)} of ${num(r.paired.files)}, ${num(r.paired.engaged.lines)} lines.`);
  }
  for (const v of ['b', 'c', 'e']) {
    if (!summary.rules[v]) continue;
    out.push('');
    out.push(`Per-rule time in (${v}), ESLint \`TIMING=all\`:`);
    out.push('');
    out.push(table(['rule', 'ms', 'reports'], Object.entries(summary.rules[v]).filter(([id]) => id !== '@typescript-eslint/no-explicit-any').map(([id, x]) => [`\`${id}\``, x.ms.toFixed(0), String(x.problems)]), ['l']));
  }
  if (summary.typeAware) {
    out.push('');
    out.push(table(['type-aware rule', 'ms', '× no-floating-promises'], Object.entries(summary.typeAware).map(([id, t]) => [`\`${id}\``, t.ms.toFixed(0), `${t.vsNoFloatingPromises.toFixed(2)}×`]), ['l']));
  }
  return out.join('\n');
}

function runtime() {
  const r = read('runtime');
  const out = [];
  const m = r.machine;
  out.push(`Run ${r.date} · ${m.cpu}, ${m.cores} cores · Node ${m.node} · SQLite ${m.sqlite} · PostgreSQL ${m.postgres} · Redis ${m.redis} · load average ${load(m.loadavgStart)} at start, ${load(m.loadavgEnd)} at end · \`${r.command}\``);
  const concurrencies = [...new Set(r.summary.rows.map((x) => x.concurrency))];
  for (const c of concurrencies) {
    out.push('');
    out.push(`**${c} concurrent caller${c === 1 ? '' : 's'}**`);
    out.push('');
    const rows = r.summary.rows.filter((x) => x.concurrency === c).sort((x, y) => (x.phase === y.phase ? 0 : x.phase === 'first' ? -1 : 1));
    out.push(table(
      ['target', 'call', 'ops/s', 'p50 µs', 'p99 µs', 'p50 over bare µs', 'client CPU µs per call', 'round trips per call'],
      rows.map((x) => [x.target, x.phase === 'first' ? 'first' : 'replay', num(x.opsPerSec), x.p50Us.toFixed(0), x.p99Us.toFixed(0), x.target === 'bare' ? '' : (x.p50OverBareUs ?? 0).toFixed(0), x.cpuUsPerCall === undefined ? '' : x.cpuUsPerCall.toFixed(1), x.roundTrips === undefined ? '' : `${x.roundTrips.toFixed(2)} ${x.roundTripUnit}`]),
      ['l', 'l'],
    ));
  }
  out.push('');
  out.push(table(['retrysafe Redis store ÷ powertools, ops/s', ...concurrencies.flatMap((c) => [`${c}: first`, `${c}: replay`])],
    ['redis / powertools', 'redis / powertools-ioredis', 'redis-store / powertools-ioredis'].filter((pair) => r.summary.versus.some((v) => v.pair === pair)).map((pair) => [pair, ...concurrencies.flatMap((c) => ['first', 'replay'].map((p) => `${r.summary.versus.find((v) => v.pair === pair && v.concurrency === c && v.phase === p)?.throughputRatio.toFixed(2)}×`))]),
    ['l']));
  out.push('');
  out.push(table(['two calls at once on one key (effect: 20 ms)', 'effects', 'outcomes', 'a third call'], Object.entries(r.concurrentDuplicate).filter(([name]) => name !== 'redis-store').map(([name, d]) => [name, String(d.effects), d.outcomes.join(', ') + (d.warnings ? ` (${d.warnings} console warnings)` : ''), d.thirdCall]), ['l']));
  return out.join('\n');
}

function lintInstructions() {
  const r = read('lint-instructions');
  const out = [];
  out.push(`Run ${r.date} · ${r.machine.cpu}, ${r.machine.cores} cores · Node ${r.machine.node} · load average ${load(r.machine.loadavgStart)} at start, ${load(r.machine.loadavgEnd)} at end · \`${r.command}\``);
  out.push('');
  out.push(table(['package', 'version', 'files', 'lines'], r.corpus.packages.map((p) => [`\`${p.name}\``, p.version, num(p.files), num(p.lines)]), ['l', 'l']));
  out.push('');
  out.push(`Total: ${num(r.corpus.files)} files, ${num(r.corpus.lines)} lines; linted: every ${r.corpus.linted.step}th file, ${num(r.corpus.linted.files)} files, ${num(r.corpus.linted.lines)} lines, of which ${r.corpus.engaged.files} (${(r.corpus.engaged.share * 100).toFixed(1)} %) engage the rules.`);
  out.push('');
  const rounds = [...new Set(r.runs.map((x) => x.round))].sort();
  out.push(table(['variant', ...rounds.map((n) => `round ${n + 1}`), 'median'], Object.keys(r.medians).map((v) => [v, ...rounds.map((n) => `${num(r.runs.find((x) => x.variant === v && x.round === n).instructions / 1e6)}M`), `${num(r.medians[v] / 1e6)}M`]), ['l']));
  out.push('');
  out.push(table(['ratio', ...rounds.map((n) => `round ${n + 1}`), 'median'], Object.entries(r.ratios).map(([k, x]) => [k, ...x.perRound.map((y) => pct(y)), pct(x.median)]), ['l']));
  return out.join('\n');
}

if (which === 'lint-instructions') console.log(lintInstructions());
if (which === 'all' || which === 'lint') console.log(`${lint()}\n`);
if (which === 'all' || which === 'runtime') console.log(runtime());
