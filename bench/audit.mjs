// Audit benchmark: what `retrysafe audit` costs on a large tree, against a plain ESLint run of the
// plugin's `recommended` config over the same files, and whether it fits in 2 GB. Figures are
// ratios measured in the same run, never assertions.
//
//   node bench/audit.mjs [--files 20000] [--rounds 2] [--out bench/results/audit.json]
//   node bench/audit.mjs --child audit|eslint --tree <folder> --result <file>   (one run alone; a diagnostic)
//
// The tree is generated in a temporary folder (and removed after): `--files` TypeScript files in
// nested folders, most of them ordinary modules (services, helpers, types), one in 20 a module of
// agent tools (defineTool with and without keys, an MCP server), one in 40 a test (called-twice
// tests through expectSingleEffect and through two runner calls), one in 100 a runner. Each
// variant runs in a fresh Node process with `--max-old-space-size=2048`, so a run that needs more
// than 2 GB of heap fails instead of swapping; peak RSS is the process's own `maxRSS`.
//   audit:  audit({ cwd: tree, configLookup: false }), the CLI's programmatic entry, with the
//           plugin's recommended config and the collector rule;
//   eslint: new ESLint({ overrideConfigFile: true, overrideConfig: [recommended] }).lintFiles(['.']).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { formatLoad, median, readFlags, table } from './lib.mjs';

const benchDir = dirname(fileURLToPath(import.meta.url));
const flags = readFlags(['files', 'rounds', 'out', 'child', 'tree', 'result']);
const HEAP_LIMIT_MB = 2048;

if (flags.child) {
  await runChild(flags.child, flags.tree, flags.result);
} else {
  await runParent();
}

async function runParent() {
  const files = Number(flags.files ?? 20000);
  const rounds = Number(flags.rounds ?? 2);
  const out = flags.out ?? join(benchDir, 'results/audit.json');
  const tree = mkdtempSync(join(tmpdir(), 'retrysafe-audit-bench-'));
  try {
    const counts = generateTree(tree, files);
    console.log(`audit bench: ${files} files (${counts.tools} tool modules, ${counts.tests} tests, ${counts.runners} runners) in ${tree}`);
    const runs = { audit: [], eslint: [] };
    for (let round = 0; round < rounds; round++) {
      // Alternate which goes first, so that a load change on a shared machine hits both alike.
      for (const variant of round % 2 === 0 ? ['eslint', 'audit'] : ['audit', 'eslint']) runs[variant].push(runVariant(variant, tree));
    }
    const summary = summarise(runs);
    printSummary(files, summary);
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, `${JSON.stringify({ date: new Date().toISOString(), machine: `${cpus()[0]?.model} x ${cpus().length}`, node: process.version, load: formatLoad(loadavg()), files, counts, rounds, heapLimitMb: HEAP_LIMIT_MB, runs, summary }, null, 2)}\n`);
    console.log(`\nwritten to ${out}`);
  } finally {
    rmSync(tree, { recursive: true, force: true });
  }
}

function runVariant(variant, tree) {
  const result = join(tree, `.result-${variant}.json`);
  const child = spawnSync(process.execPath, [`--max-old-space-size=${HEAP_LIMIT_MB}`, fileURLToPath(import.meta.url), '--child', variant, '--tree', tree, '--result', result], {
    encoding: 'utf8',
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (child.status !== 0) throw new Error(`${variant} failed (exit ${child.status}${child.signal ? `, ${child.signal}` : ''}): over ${HEAP_LIMIT_MB} MB of heap, or a crash`);
  return JSON.parse(readFileSync(result, 'utf8'));
}

async function runChild(variant, tree, resultFile) {
  const started = process.hrtime.bigint();
  const cpuStart = process.cpuUsage();
  let detail;
  if (variant === 'audit') {
    const { audit } = await import('@retrysafe/cli');
    const report = await audit({ cwd: tree, configLookup: false });
    detail = { scanned: report.files.scanned, tools: report.summary.tools, findings: report.findings.length, errors: report.summary.errors };
  } else {
    const { ESLint } = await import('eslint');
    const { default: retrysafe } = await import('@retrysafe/eslint-plugin');
    const eslint = new ESLint({ cwd: tree, overrideConfigFile: true, overrideConfig: [retrysafe.configs.recommended] });
    const results = await eslint.lintFiles(['.']);
    detail = { scanned: results.length, findings: results.reduce((n, r) => n + r.messages.length, 0) };
  }
  const cpu = process.cpuUsage(cpuStart);
  const measured = {
    variant,
    wallMs: Number(process.hrtime.bigint() - started) / 1e6,
    cpuMs: (cpu.user + cpu.system) / 1000,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
    heapUsedMb: process.memoryUsage().heapUsed / 1024 / 1024,
    ...detail,
  };
  writeFileSync(resultFile, JSON.stringify(measured));
}

function summarise(runs) {
  const of = (variant, field) => median(runs[variant].map((run) => run[field]));
  const pick = (field) => ({ audit: of('audit', field), eslint: of('eslint', field), ratio: of('audit', field) / of('eslint', field) });
  return { wallMs: pick('wallMs'), cpuMs: pick('cpuMs'), maxRssMb: pick('maxRssMb'), maxRssMbWorst: Math.max(...runs.audit.map((run) => run.maxRssMb)) };
}

function printSummary(files, summary) {
  const row = (label, field, unit) => [label, `${summary[field].eslint.toFixed(0)} ${unit}`, `${summary[field].audit.toFixed(0)} ${unit}`, `${summary[field].ratio.toFixed(2)}x`];
  console.log(`\n${files} files, medians:`);
  console.log(table(['measure', 'eslint recommended', 'retrysafe audit', 'audit / eslint'], [row('wall', 'wallMs', 'ms'), row('CPU', 'cpuMs', 'ms'), row('peak RSS', 'maxRssMb', 'MB')]));
  console.log(`\naudit's worst peak RSS: ${summary.maxRssMbWorst.toFixed(0)} MB (limit: 2048 MB of heap)`);
}

/** Writes the tree; returns how many files of each kind it holds. */
function generateTree(root, total) {
  const counts = { tools: 0, tests: 0, runners: 0, plain: 0 };
  for (let i = 0; i < total; i++) {
    // A test sits next to the tool module it tests, as `tool20.test.ts` beside `tool20.ts`.
    const folder = folderFor(root, i % 40 === 0 ? testedTool(i) : i);
    mkdirSync(folder, { recursive: true });
    const [name, text, kind] = fileFor(i);
    counts[kind] += 1;
    writeFileSync(join(folder, name), text);
  }
  return counts;
}

function folderFor(root, index) {
  return join(root, 'packages', `pkg${index % 50}`, 'src', `area${Math.floor(index / 400) % 20}`);
}

/** The tool module a test file tests: the one 20 files after it. */
function testedTool(i) {
  return i + 20;
}

function fileFor(i) {
  if (i % 40 === 0) return [`tool${testedTool(i)}.test.ts`, testModule(i), 'tests'];
  if (i % 100 === 1) return [`runner${i}.ts`, runnerModule(i), 'runners'];
  if (i % 20 === 0 || i % 20 === 10) return [`tool${i}.ts`, i % 20 === 0 ? toolModule(i) : mcpModule(i), 'tools'];
  return [`module${i}.ts`, plainModule(i), 'plain'];
}

function toolModule(i) {
  return `import { randomUUID } from 'node:crypto';
import { defineTool, key, vouchDurable } from '@retrysafe/spec';
import { z } from 'zod';

export const refund${i} = defineTool({
  name: 'refund_${i}',
  description: 'Refund an order',
  sideEffects: 'money_out',
  idempotent: 'with_key',
  retry: 'safe_with_same_key',
  maxAttempts: 1,
  input: z.object({ orderId: z.string(), amountCents: z.number() }),
  key: ({ run, input }) => key\`\${run.id}:\${input.orderId}:refund\`,
  execute: async ({ orderId, amountCents }, { key: idempotencyKey }) => ({ orderId, amountCents, idempotencyKey }),
});

export const notify${i} = defineTool({
  name: 'notify_${i}',
  description: 'Notify a customer',
  sideEffects: 'message_out',
  idempotent: 'with_key',
  retry: 'safe_with_same_key',
  maxAttempts: 2,
  input: z.object({ customerId: z.string() }),
  key: () => key\`\${vouchDurable(randomUUID())}\`,
  execute: async ({ customerId }) => ({ customerId, sent: true }),
});
`;
}

function mcpModule(i) {
  return `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

export const server${i} = new McpServer({ name: 'server-${i}', version: '1.0.0' });

server${i}.registerTool('create_ticket_${i}', {
  description: 'Open a ticket',
  inputSchema: { title: z.string(), idempotencyKey: z.string() },
  annotations: { destructiveHint: false, idempotentHint: true },
}, async ({ title, idempotencyKey }) => ({ content: [{ type: 'text', text: title }], structuredContent: { title, idempotencyKey, replayed: false } }));

server${i}.registerTool('search_${i}', { description: 'Search', inputSchema: { q: z.string() }, annotations: { readOnlyHint: true } }, async ({ q }) => ({ content: [{ type: 'text', text: q }] }));
`;
}

function testModule(i) {
  const tool = testedTool(i);
  return `import { createRunner } from '@retrysafe/spec';
import { createNonDurableMemoryStore } from '@retrysafe/spec/stores/memory';
import { expectSingleEffect } from '@retrysafe/spec/testing';
import { expect, it } from 'vitest';

import { notify${tool}, refund${tool} } from './tool${tool}.js';

it('refund_${tool} refunds once', async () => {
  await expectSingleEffect(refund${tool}, { orderId: 'o', amountCents: 5 });
});

it('notify_${tool} twice', async () => {
  const runner = createRunner({ store: createNonDurableMemoryStore() });
  const run = { id: 'r' as never };
  await runner.call(notify${tool}, { customerId: 'c' }, { run });
  await runner.call(notify${tool}, { customerId: 'c' }, { run });
  expect(1).toBe(1);
});
`;
}

function runnerModule(i) {
  return `import { createRunner } from '@retrysafe/spec';
import { createSqliteStore } from '@retrysafe/spec/stores/sqlite';

export const runner${i} = createRunner({ store: createSqliteStore({ path: '.retrysafe/dedup-${i}.db' }) });
`;
}

function plainModule(i) {
  return `// An ordinary module: most of a large code base.
export interface Order${i} {
  readonly id: string;
  readonly totalCents: number;
  readonly lines: readonly { sku: string; quantity: number }[];
}

export function total${i}(order: Order${i}): number {
  let sum = 0;
  for (const line of order.lines) sum += line.quantity;
  return sum * order.totalCents;
}

export const format${i} = (order: Order${i}): string => \`\${order.id}: \${(total${i}(order) / 100).toFixed(2)}\`;

export class Cache${i}<T> {
  private readonly entries = new Map<string, T>();
  get(key: string): T | undefined {
    return this.entries.get(key);
  }
  set(key: string, value: T): void {
    this.entries.set(key, value);
  }
}
`;
}
