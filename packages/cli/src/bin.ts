#!/usr/bin/env node
// The command loads ESLint and the plugin when it is imported: an install ESLint's parser cannot
// run on (TypeScript 7 as the only `typescript`, a missing parser) throws there, before `runCli`
// can catch it. That is a setup error (exit code 2, the message without a stack), not findings.
const io = { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() };
try {
  // The plugin first, alone: its own check explains a TypeScript 7 install. Imported only through
  // cli.js's graph, a parser that throws while it loads was caught here and then reported again by
  // Node as uncaught (a stack, exit code 1; found by a new-user trial with typescript-eslint and
  // TypeScript 7 in the project).
  await import('@retrysafe/eslint-plugin');
  const { runCli } = await import('./cli.js');
  process.exitCode = await runCli(process.argv.slice(2), io);
} catch (error) {
  io.stderr.write(`retrysafe: ${error instanceof Error ? error.message : String(error)}\n(exit code 2: ESLint or the plugin could not be loaded)\n`);
  process.exitCode = 2;
}
