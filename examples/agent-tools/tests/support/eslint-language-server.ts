// A minimal LSP client for the ESLint language server that VS Code's ESLint extension runs
// (`vscode-eslint-language-server` from vscode-langservers-extracted), spoken over stdio. It does
// what the editor does for one workspace folder: initialize, answer the server's requests (its
// settings above all), open and edit documents, and pull their diagnostics.
//
// Facts about the server that this relies on (see TOOLCHAIN.md, "Proving editor squiggles
// headlessly"): it does not push diagnostics, the client pulls them with `textDocument/diagnostic`;
// and it validates nothing unless the `workspace/configuration` answer has every setting below.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMessageConnection, type MessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';

/** A position in a document, zero-based, as LSP counts it (UTF-16 code units). */
export interface Position {
  line: number;
  character: number;
}

/** The span a squiggle covers: from `start` up to, not including, `end`. */
export interface Range {
  start: Position;
  end: Position;
}

/** The part of an LSP diagnostic an editor shows: a squiggle over `range`, with a hover. */
export interface Diagnostic {
  range: Range;
  message: string;
  /** 1 error, 2 warning, 3 information, 4 hint. */
  severity?: number;
  /** The ESLint rule id, such as `@retrysafe/no-random-key`. */
  code?: string | number;
  source?: string;
}

interface DocumentDiagnosticReport {
  kind: 'full' | 'unchanged';
  items?: Diagnostic[];
}

/** How long `stop` waits for the answer to `shutdown`, then for the process to exit, before a kill. */
const SHUTDOWN_TIMEOUT_MS = 5_000;
const EXIT_GRACE_MS = 2_000;

/** A running server with one workspace folder; every call fails after `timeoutMs` instead of hanging. */
export interface EslintLanguageServer {
  /** `textDocument/didOpen`, as when the editor opens the file. */
  open(filePath: string, text: string): Promise<void>;
  /** `textDocument/didChange` with the whole new text, as when the user types (not saved). */
  change(filePath: string, text: string): Promise<void>;
  /** `textDocument/diagnostic`: the squiggles the editor would draw on the document now. */
  pullDiagnostics(filePath: string): Promise<Diagnostic[]>;
  /** `shutdown` and `exit`, then a kill if the process is still alive (within ~7 s). Safe to call twice. */
  stop(): Promise<void>;
  /** What the server said (log messages, status, its requests, stderr), for failure messages. */
  log(): string;
}

export interface StartOptions {
  /** The folder opened in the editor; it holds `eslint.config.mjs` and `node_modules/eslint`. */
  workspaceDir: string;
  /** The bound on each request, including the first lint (which loads ESLint and TypeScript). */
  timeoutMs: number;
}

/**
 * The settings the VS Code extension sends as the `eslint` section, for a workspace with a flat
 * config. `experimental` must be an object, and `useFlatConfig: true` goes at the top level
 * (`experimental.useFlatConfig: true` turns validation off on ESLint 10). `packageManager` is left
 * out: with `'pnpm'` the server runs `pnpm root -g`, which fails.
 */
function eslintSettings(workspaceDir: string) {
  return {
    validate: 'on',
    useESLintClass: false,
    useFlatConfig: true,
    experimental: { useFlatConfig: false },
    codeAction: {
      disableRuleComment: { enable: true, location: 'separateLine', commentStyle: 'line' },
      showDocumentation: { enable: true },
    },
    codeActionOnSave: { mode: 'all' },
    format: false,
    quiet: false,
    onIgnoredFiles: 'off',
    options: {},
    rulesCustomizations: [],
    run: 'onType',
    problems: { shortenToSingleLine: false },
    nodePath: null,
    workingDirectory: { mode: 'auto' },
    workspaceFolder: { name: path.basename(workspaceDir), uri: pathToFileURL(workspaceDir).href },
  };
}

/** The server's entry point, found through the `bin` field of the installed package. */
function resolveServerBin(fromDir: string): string {
  const require = createRequire(path.join(fromDir, 'package.json'));
  const manifestPath = require.resolve('vscode-langservers-extracted/package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { bin: Record<string, string> };
  const bin = manifest.bin['vscode-eslint-language-server'];
  if (bin === undefined) throw new Error(`${manifestPath} has no vscode-eslint-language-server bin`);
  return path.join(path.dirname(manifestPath), bin);
}

/** Starts the server over stdio and completes the `initialize` handshake. */
export async function startEslintLanguageServer({ workspaceDir, timeoutMs }: StartOptions): Promise<EslintLanguageServer> {
  const logLines: string[] = [];
  const note = (line: string): void => {
    logLines.push(line);
  };
  const log = () => logLines.join('\n');

  const child = spawn(process.execPath, [resolveServerBin(workspaceDir), '--stdio'], {
    cwd: workspaceDir,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let exitCode: string | undefined;
  child.once('exit', (code, signal) => {
    exitCode = signal ?? String(code);
    note(`[process] exited with ${exitCode}`);
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => note(`[stderr] ${chunk.trimEnd()}`));

  const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  answerServerRequests(connection, workspaceDir, note);
  connection.onNotification((method, params) => note(`[${method}] ${JSON.stringify(params)}`));
  connection.listen();

  /** Sends a request, failing with the server's log when it does not answer in time. */
  async function request<R>(method: string, params: unknown, boundMs = timeoutMs): Promise<R> {
    if (exitCode !== undefined) throw new Error(`the ESLint language server has exited (${exitCode}):\n${log()}`);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`${method}: no answer from the ESLint language server within ${boundMs} ms. Its log:\n${log()}`)),
        boundMs,
      );
    });
    try {
      return await Promise.race([connection.sendRequest<R>(method, params), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  const versions = new Map<string, number>();
  const uriOf = (filePath: string) => pathToFileURL(filePath).href;
  let stopped = false;

  const server: EslintLanguageServer = {
    async open(filePath, text) {
      versions.set(filePath, 1);
      await connection.sendNotification('textDocument/didOpen', {
        textDocument: { uri: uriOf(filePath), languageId: 'typescript', version: 1, text },
      });
    },
    async change(filePath, text) {
      const version = (versions.get(filePath) ?? 0) + 1;
      versions.set(filePath, version);
      // A change without a range replaces the whole text; valid for full and incremental sync.
      await connection.sendNotification('textDocument/didChange', {
        textDocument: { uri: uriOf(filePath), version },
        contentChanges: [{ text }],
      });
    },
    async pullDiagnostics(filePath) {
      const report = await request<DocumentDiagnosticReport>('textDocument/diagnostic', {
        textDocument: { uri: uriOf(filePath) },
      });
      if (report.kind !== 'full' || report.items === undefined) {
        throw new Error(`expected a full diagnostic report, got ${JSON.stringify(report)}. Log:\n${log()}`);
      }
      return report.items;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      try {
        if (exitCode === undefined) {
          await request('shutdown', undefined, SHUTDOWN_TIMEOUT_MS);
          await connection.sendNotification('exit');
        }
      } catch (error) {
        note(`[client] shutdown failed: ${String(error)}`);
      } finally {
        await killAfter(child, exited, EXIT_GRACE_MS);
        connection.dispose();
      }
    },
    log,
  };

  try {
    await request('initialize', {
      processId: process.pid,
      clientInfo: { name: 'retrysafe-editor-squiggles-test' },
      rootUri: uriOf(workspaceDir),
      workspaceFolders: [{ uri: uriOf(workspaceDir), name: path.basename(workspaceDir) }],
      capabilities: {
        workspace: { configuration: true, workspaceFolders: true, diagnostics: { refreshSupport: true } },
        textDocument: {
          synchronization: { dynamicRegistration: false, didSave: true },
          diagnostic: { dynamicRegistration: false, relatedDocumentSupport: false },
          publishDiagnostics: { relatedInformation: true },
        },
        window: { workDoneProgress: true },
      },
      initializationOptions: {},
    });
    await connection.sendNotification('initialized', {});
  } catch (error) {
    await server.stop();
    throw error;
  }
  return server;
}

/**
 * Answers what the server asks the editor. The `eslint/noConfig`, `eslint/noLibrary` and
 * `eslint/probeFailed` requests mean that no squiggle will come: they go to the log, where a
 * failing assertion shows them.
 */
function answerServerRequests(connection: MessageConnection, workspaceDir: string, note: (line: string) => void): void {
  const answers: Record<string, (params: unknown) => unknown> = {
    'workspace/configuration': (params) =>
      (params as { items: unknown[] }).items.map(() => eslintSettings(workspaceDir)),
    'client/registerCapability': () => null,
    'window/workDoneProgress/create': () => null,
    'workspace/diagnostic/refresh': () => null,
    'eslint/noConfig': () => ({}),
    'eslint/noLibrary': () => ({}),
    'eslint/probeFailed': () => ({}),
    'eslint/openDoc': () => ({}),
  };
  connection.onRequest((method, params) => {
    note(`[request ${method}] ${JSON.stringify(params)}`);
    const answer = answers[method];
    if (answer === undefined) throw new Error(`the test client does not handle ${method}`);
    return answer(params);
  });
}

/** Waits up to `graceMs` for the process to exit on its own, then kills it. */
async function killAfter(child: ChildProcess, exited: Promise<void>, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, graceMs);
  });
  await Promise.race([exited, grace]);
  clearTimeout(timer);
  if (child.exitCode === null && child.signalCode === null) {
    child.kill('SIGKILL');
    await exited;
  }
}
