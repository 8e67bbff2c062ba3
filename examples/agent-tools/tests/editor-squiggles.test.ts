// The product's promise is an editor squiggle. This test runs the ESLint language server that
// VS Code's ESLint extension runs, on this example with its own eslint.config.mjs
// (`recommended-type-checked`), opens src/unsafe/unsafe-tools.ts as an editor would, and checks
// the squiggles it gets back: rule, range and hover message, including one that only a type-aware
// rule can find. Then it types the offending code away and checks that its squiggle goes.
//
// Needs the plugin built (`pnpm --filter @retrysafe/eslint-plugin build`; the README's test
// command builds first): the example resolves `@retrysafe/eslint-plugin` to its dist/.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

import { type Diagnostic, type EslintLanguageServer, startEslintLanguageServer } from './support/eslint-language-server.js';

const exampleDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const unsafeFile = path.join(exampleDir, 'src/unsafe/unsafe-tools.ts');
const unsafeText = readFileSync(unsafeFile, 'utf8');

/**
 * Bound on each request to the server. The first lint loads ESLint, the config, the plugin and a
 * TypeScript program for the project service.
 */
const REQUEST_TIMEOUT_MS = 60_000;
/** Room for the start and up to two pulls, each within REQUEST_TIMEOUT_MS. */
const TEST_TIMEOUT_MS = 180_000;
/** `stop` gives up on a polite shutdown and kills the server within ~7 s. */
const STOP_TIMEOUT_MS = 15_000;

/** A squiggle the editor must draw: LSP positions are zero-based (line 24 is the file's line 25). */
interface ExpectedSquiggle {
  rule: string;
  line: number;
  from: number;
  to: number;
  /** The text under the squiggle, which makes a stale range obvious when the file changes. */
  covers: string;
  message: string;
}

const RANDOM_KEY: ExpectedSquiggle = {
  rule: '@retrysafe/no-random-key',
  line: 24,
  from: 19,
  to: 31,
  covers: 'randomUUID()',
  message:
    'Idempotency key built from `randomUUID()` (line 25): a retry gets a new key. ' +
    'Derive it from durable fields such as the run id and the item id.',
};

const CLOCK_KEY: ExpectedSquiggle = {
  rule: '@retrysafe/no-random-key',
  line: 36,
  from: 40,
  to: 50,
  covers: 'Date.now()',
  message:
    'Idempotency key built from the clock, `Date.now()` (line 37): a retry at another moment gets a new key. ' +
    'Derive it from durable fields such as the run id and the item id.',
};

const VOUCHED_RANDOM_KEY: ExpectedSquiggle = {
  rule: '@retrysafe/no-random-key',
  line: 49,
  from: 58,
  to: 67,
  covers: 'attemptId',
  message:
    'Idempotency key built from `randomUUID()` (line 42): a retry gets a new key. ' +
    'Derive it from durable fields such as the run id and the item id.',
};

/** Only type information shows that `OrderKey` (src/unsafe/keys.ts) is a `DeterministicKey`. */
const CAST_TO_ALIASED_KEY: ExpectedSquiggle = {
  rule: '@retrysafe/no-key-cast-type-checked',
  line: 62,
  from: 22,
  to: 73,
  covers: '`${hostname()}:${input.orderId}:refund` as OrderKey',
  message:
    'Cast to `OrderKey` forges the `DeterministicKey` brand: a key made this way is not checked to be ' +
    'deterministic, so a loop retry or a resumed run can get a new key and repeat the effect. Build it with ' +
    'the `` key`...` `` template from durable parts (the run id, validated input fields, or values passed through ' +
    '`vouchDurable(...)`).',
};

const RETRIES_NOT_REPEATABLE: ExpectedSquiggle = {
  rule: '@retrysafe/no-unsafe-retry-policy',
  line: 72,
  from: 2,
  to: 15,
  covers: "retry: 'safe'",
  message:
    'Tool `increment_balance` is declared not safely repeatable (`idempotent: false`) but also declares ' +
    "automatic retries (`retry: 'safe'`): every transport or loop-level retry repeats its side effect. " +
    "Declare `retry: 'never'` with one attempt, or make the tool idempotent with a deterministic key.",
};

const MCP_TOOL_WITHOUT_POLICY: ExpectedSquiggle = {
  rule: '@retrysafe/require-retry-policy',
  line: 80,
  from: 0,
  to: 19,
  covers: 'server.registerTool',
  message:
    'Tool `notify_customer` declares no retry policy: a repeated call (transport retry, loop retry, resumed run) ' +
    'cannot be judged safe or unsafe. Add `annotations` with `readOnlyHint: true`, or with both `destructiveHint` ' +
    "and `idempotentHint`; or declare a full policy in `_meta: { 'io.github.retrysafe/policy': {...} }`.",
};

const RANDOM_HEADER_KEY: ExpectedSquiggle = {
  rule: '@retrysafe/no-random-key',
  line: 84,
  from: 76,
  to: 88,
  covers: 'randomUUID()',
  // In an MCP tool's handler the advice says where an MCP tool's run id comes from (the catalogue's `runId`).
  message:
    'Idempotency key built from `randomUUID()` (line 85): a retry gets a new key. ' +
    'Derive it from durable fields: the run id and the item id. In this MCP TypeScript SDK tool, the run id is ' +
    'an id the client sends with the call (a job or conversation id in the arguments or `_meta`); not the request id, ' +
    'which is new on every request.',
};

/** One squiggle per unsafe variant in the file. */
const ALL_SQUIGGLES = [
  RANDOM_KEY,
  CLOCK_KEY,
  VOUCHED_RANDOM_KEY,
  CAST_TO_ALIASED_KEY,
  RETRIES_NOT_REPEATABLE,
  MCP_TOOL_WITHOUT_POLICY,
  RANDOM_HEADER_KEY,
];

/** The durable key the safe issue_refund tool uses, typed over an offending key. */
const DURABLE_KEY = 'key: ({ run, input }) => key`${run.id}:${input.orderId}:refund`,';

let server: EslintLanguageServer | undefined;
let starting: Promise<EslintLanguageServer> | undefined;

/**
 * The server, started once with the unsafe file open. Each test awaits it, so a server that does
 * not start fails every test with the reason (a failing beforeAll would only mark them skipped).
 */
function serverWithUnsafeFileOpen(): Promise<EslintLanguageServer> {
  starting ??= (async () => {
    assertPluginBuilt();
    server = await startEslintLanguageServer({ workspaceDir: exampleDir, timeoutMs: REQUEST_TIMEOUT_MS });
    await server.open(unsafeFile, unsafeText);
    return server;
  })();
  return starting;
}

afterAll(async () => {
  await server?.stop();
}, STOP_TIMEOUT_MS);

describe('squiggles from the ESLint language server (VS Code) on src/unsafe/unsafe-tools.ts', () => {
  it('draws one squiggle per unsafe variant after didOpen, a type-aware one included', async () => {
    const diagnostics = await pull();
    expectNoLintFailure(diagnostics);
    for (const squiggle of ALL_SQUIGGLES) expectCovers(unsafeText, squiggle);
    expect(diagnostics, describeAll(diagnostics)).toEqual(expect.arrayContaining(ALL_SQUIGGLES.map(toDiagnostic)));
  }, TEST_TIMEOUT_MS);

  it('removes the random-key squiggle once the key is typed durable, and keeps the others', async () => {
    await expectSquiggleOnOriginalText(RANDOM_KEY);
    const edited = replaceLine(unsafeText, RANDOM_KEY.line, '  key: () => key`${randomUUID()}`,', `  ${DURABLE_KEY}`);
    await typeText(edited);
    const diagnostics = await pull();
    expectNoLintFailure(diagnostics);
    expect(diagnostics.filter((d) => d.range.start.line === RANDOM_KEY.line), describeAll(diagnostics)).toEqual([]);
    const others = ALL_SQUIGGLES.filter((squiggle) => squiggle !== RANDOM_KEY);
    expect(diagnostics, describeAll(diagnostics)).toEqual(expect.arrayContaining(others.map(toDiagnostic)));
  }, TEST_TIMEOUT_MS);

  it('removes the type-aware squiggle once the cast is typed away, and keeps the others', async () => {
    await expectSquiggleOnOriginalText(CAST_TO_ALIASED_KEY);
    const edited = replaceLine(
      unsafeText,
      CAST_TO_ALIASED_KEY.line,
      '  key: ({ input }) => `${hostname()}:${input.orderId}:refund` as OrderKey,',
      `  ${DURABLE_KEY}`,
    );
    await typeText(edited);
    const diagnostics = await pull();
    expectNoLintFailure(diagnostics);
    expect(diagnostics.filter((d) => d.code === CAST_TO_ALIASED_KEY.rule), describeAll(diagnostics)).toEqual([]);
    const others = ALL_SQUIGGLES.filter((squiggle) => squiggle !== CAST_TO_ALIASED_KEY);
    expect(diagnostics, describeAll(diagnostics)).toEqual(expect.arrayContaining(others.map(toDiagnostic)));
  }, TEST_TIMEOUT_MS);
});

/** The editor's buffer becomes `text` (unsaved): `textDocument/didChange`. */
async function typeText(text: string): Promise<void> {
  await (await serverWithUnsafeFileOpen()).change(unsafeFile, text);
}

/** The squiggles on the buffer now: `textDocument/diagnostic`. */
async function pull(): Promise<Diagnostic[]> {
  return (await serverWithUnsafeFileOpen()).pullDiagnostics(unsafeFile);
}

/** Types the original text back (each test starts from it) and checks that `squiggle` is drawn. */
async function expectSquiggleOnOriginalText(squiggle: ExpectedSquiggle): Promise<void> {
  await typeText(unsafeText);
  const diagnostics = await pull();
  expect(diagnostics, describeAll(diagnostics)).toEqual(expect.arrayContaining([toDiagnostic(squiggle)]));
}

/** The LSP diagnostic the server sends for a squiggle: an ESLint error, coded with its rule id. */
function toDiagnostic({ rule, line, from, to, message }: ExpectedSquiggle) {
  return expect.objectContaining({
    code: rule,
    source: 'eslint',
    severity: 1,
    message,
    range: { start: { line, character: from }, end: { line, character: to } },
  });
}

/**
 * A parse error (such as "was not found by the project service") or a config that fails to load
 * comes back as a diagnostic without a rule id; the squiggles would then be missing for that reason.
 */
function expectNoLintFailure(diagnostics: Diagnostic[]): void {
  const failures = diagnostics.filter((d) => typeof d.code !== 'string' || !d.code.startsWith('@retrysafe/'));
  expect(failures, `ESLint could not lint the file: ${describeAll(failures)}`).toEqual([]);
}

/** Every diagnostic on one line, and the server's log, for a failure message. */
function describeAll(diagnostics: Diagnostic[]): string {
  const lines = diagnostics.map(({ range: { start, end }, code, message }) => {
    return `${start.line}:${start.character}-${end.line}:${end.character} ${String(code)} ${message}`;
  });
  return `the server sent ${diagnostics.length} diagnostic(s):\n${lines.join('\n')}\n\nServer log:\n${server?.log()}`;
}

/** `text` with one line replaced, after checking that the line is the one the test means. */
function replaceLine(text: string, line: number, expected: string, replacement: string): string {
  const lines = text.split('\n');
  if (lines[line] !== expected) {
    throw new Error(`line ${line + 1} of ${unsafeFile} is \`${lines[line]}\`, not \`${expected}\`: update the test`);
  }
  lines[line] = replacement;
  return lines.join('\n');
}

/** The expected range covers the text it names in the file on disk, or the file has changed. */
function expectCovers(text: string, squiggle: ExpectedSquiggle): void {
  const covered = text.split('\n')[squiggle.line]?.slice(squiggle.from, squiggle.to);
  const where = `${squiggle.line}:${squiggle.from}-${squiggle.to}`;
  const hint = `the range ${where} expected for ${squiggle.rule} no longer covers \`${squiggle.covers}\`: update the test`;
  expect(covered, hint).toBe(squiggle.covers);
}

/** The example resolves the plugin to packages/eslint-plugin/dist, which a build creates. */
function assertPluginBuilt(): void {
  const manifest = createRequire(import.meta.url).resolve('@retrysafe/eslint-plugin/package.json');
  const entry = path.join(path.dirname(manifest), 'dist/index.js');
  if (!existsSync(entry)) {
    throw new Error(`${entry} is missing: build the plugin first (pnpm --filter @retrysafe/eslint-plugin build)`);
  }
}
