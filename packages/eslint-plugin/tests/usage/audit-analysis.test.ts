import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';

import {
  createKeyNameMatcher,
  createToolRecogniser,
  createValueSummariser,
  describeFactoryArgument,
  describeKeyDerivation,
  findCalledTwiceTests,
  findReplaySignal,
  getIdempotentServer,
  getRegisteringServer,
  getRunnerConstruction,
  getRunnerUse,
  getToolSet,
  isTestFile,
  isTestFileName,
  readExportedPolicyConsts,
  readMcpHints,
  readPolicyData,
  readPolicyLayers,
  type ToolDefinition,
} from '../../src/analysis/index.js';
import { lintWithProbe } from '../support/probe.js';

// The analysis entry point (`@retrysafe/eslint-plugin/analysis`) that `retrysafe audit` reads code
// through, tested directly, one row per shape: declared policies as data, key derivations, replay
// flags, runners and their stores, called-twice tests and symbolic module values.

type SourceCode = Readonly<TSESLint.SourceCode>;

/** Parses `code` as `filename` and hands the file and every node of the given types to `inspect` at the end. */
function inspectFile<T>(code: string, inspect: (sourceCode: SourceCode, nodes: TSESTree.Node[]) => T, filename = 'file.ts'): T {
  let answer: T | undefined;
  const nodes: TSESTree.Node[] = [];
  const visit = (node: TSESTree.Node): void => void nodes.push(node);
  const messages = lintWithProbe(
    code,
    (sourceCode) => ({
      CallExpression: visit,
      NewExpression: visit,
      ClassDeclaration: visit,
      'Program:exit': () => {
        answer = inspect(sourceCode, nodes);
      },
    }),
    filename,
  );
  expect(messages.filter((m) => m.fatal)).toEqual([]);
  return answer as T;
}

function toolsOf(sourceCode: SourceCode, nodes: TSESTree.Node[]): ToolDefinition[] {
  const recogniser = createToolRecogniser(sourceCode);
  return nodes.flatMap((node) => recogniser.definitionsAt(node as TSESTree.CallExpression));
}

const withTool = <T>(code: string, inspect: (sourceCode: SourceCode, tool: ToolDefinition) => T): T =>
  inspectFile(code, (sourceCode, nodes) => {
    const [tool] = toolsOf(sourceCode, nodes);
    if (!tool) throw new Error('no tool recognised');
    return inspect(sourceCode, tool);
  });

const DEFINE = "import { defineTool, key, vouchDurable } from '@retrysafe/spec';\nimport { randomUUID } from 'node:crypto';\n";
const MCP = "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nconst server = new McpServer({ name: 's', version: '1' });\n";

describe('readPolicyData', () => {
  it.each([
    ['defineTool fields', `${DEFINE}defineTool({ name: 't', sideEffects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', maxAttempts: 2, execute: () => 1 });`, { side_effects: 'money_out', idempotent: 'with_key', retry: 'safe_with_same_key', max_attempts: 2, via: 'defineTool' }],
    ['MCP _meta.retrysafe', `${MCP}server.registerTool('t', { _meta: { retrysafe: { side_effects: 'none', idempotent: true, retry: 'safe' } } }, async () => ({ content: [] }));`, { side_effects: 'none', idempotent: true, retry: 'safe', max_attempts: null, via: 'mcpMeta' }],
    ['MCP readOnlyHint', `${MCP}server.registerTool('t', { annotations: { readOnlyHint: true } }, async () => ({ content: [] }));`, { side_effects: 'none', idempotent: null, retry: null, via: 'annotations' }],
    ['MCP idempotentHint: false', `${MCP}server.registerTool('t', { annotations: { destructiveHint: true, idempotentHint: false } }, async () => ({ content: [] }));`, { side_effects: null, idempotent: false, retry: null, via: 'annotations' }],
    ['a field built at run time is null', `${DEFINE}const mode = process.env.MODE;\ndefineTool({ name: 't', sideEffects: mode, idempotent: true, retry: 'safe', execute: () => 1 });`, { side_effects: null, idempotent: true }],
  ])('%s', (_shape, code, expected) => {
    expect(withTool(code, (sourceCode, tool) => readPolicyData(sourceCode, tool))).toMatchObject(expected);
  });

  it('is undefined for a tool that declares nothing', () => {
    expect(withTool(`${MCP}server.registerTool('t', {}, async () => ({ content: [] }));`, (s, t) => readPolicyData(s, t))).toBeUndefined();
  });

  // New-user trial 3: the Policy column showed `retry: safe` for hints that state no retry policy.
  it('MCP hints state no retry policy, and hints that say nothing of side effects or idempotency declare nothing', () => {
    expect(withTool(`${MCP}server.registerTool('t', { annotations: { idempotentHint: true } }, async () => ({ content: [] }));`, (s, t) => readPolicyData(s, t))).toMatchObject({ idempotent: true, retry: null, max_attempts: null });
    expect(withTool(`${MCP}server.registerTool('t', { annotations: { destructiveHint: false, openWorldHint: true } }, async () => ({ content: [] }));`, (s, t) => readPolicyData(s, t))).toBeUndefined();
  });

  it('readMcpHints: the hints as written, no MCP default filled in', () => {
    expect(withTool(`${MCP}server.registerTool('t', { annotations: { title: 'T', destructiveHint: false, idempotentHint: true } }, async () => ({ content: [] }));`, (s, t) => readMcpHints(s, t))).toEqual({ destructiveHint: false, idempotentHint: true });
    expect(withTool(`${MCP}server.registerTool('t', { annotations: { title: 'T' } }, async () => ({ content: [] }));`, (s, t) => readMcpHints(s, t))).toBeUndefined();
  });
});

describe('readPolicyLayers: a policy written through spreads and consts', () => {
  const DECLARE = "import { declarePolicy } from '@retrysafe/spec';\nimport { tool } from 'ai';\n";
  const layersOf = (code: string) => withTool(`${DECLARE}${code}`, (sourceCode, tool) => {
    const policy = readPolicyData(sourceCode, tool);
    return { data: policy && { side_effects: policy.side_effects, idempotent: policy.idempotent, retry: policy.retry }, layers: policy && readPolicyLayers(sourceCode, policy.node) };
  });
  const t = "tool({ description: 'x', execute: async () => 1 })";

  it.each([
    ['a plain literal has no layers (readPolicyData read it)', `declarePolicy(${t}, { side_effects: 'none', idempotent: true, retry: 'safe' });`, undefined],
    ['a same-file const, spread, then a field that wins', `const BASE = { side_effects: 'internal_write', idempotent: 'with_key' } as const;\ndeclarePolicy(${t}, { ...BASE, retry: 'safe_with_same_key' });`, [{ k: 'fields', fields: { side_effects: 'internal_write', idempotent: 'with_key' } }, { k: 'fields', fields: { retry: 'safe_with_same_key' } }]],
    ['a relative import is a layer the linker follows', `import { WRITE } from './policies.js';\ndeclarePolicy(${t}, { ...WRITE, max_attempts: 2 });`, [{ k: 'import', from: './policies.js', name: 'WRITE' }, { k: 'fields', fields: { max_attempts: 2 } }]],
    ['a namespace import\'s member is a layer the linker follows', `import * as policies from './policies.js';\ndeclarePolicy(${t}, { ...policies.WRITE });`, [{ k: 'import', from: './policies.js', name: 'WRITE' }]],
    ['a member of an imported const keeps its member path (policies.moneyOut)', `import { policies } from './policies.js';\ndeclarePolicy(${t}, policies.moneyOut);`, [{ k: 'import', from: './policies.js', name: 'policies', members: ['moneyOut'] }]],
    ["a namespace import's member of a member, read by brackets (p.policies['moneyOut'])", `import * as p from './policies.js';\ndeclarePolicy(${t}, p.policies['moneyOut']);`, [{ k: 'import', from: './policies.js', name: 'policies', members: ['moneyOut'] }]],
    ['a member read by a key that is not known is opaque', `import { policies } from './policies.js';\nexport function f(name: string) { return declarePolicy(${t}, policies[name]); }`, [{ k: 'opaque' }]],
    ['a parameter or a call is opaque: any field', `export function f(preset: object) { return declarePolicy(${t}, { ...preset, retry: 'never' }); }`, [{ k: 'opaque' }, { k: 'fields', fields: { retry: 'never' } }]],
    ['a field whose value is not static is opaque for that field', `const BASE = { side_effects: 'none' } as const;\ndeclarePolicy(${t}, { ...BASE, retry: process.env.RETRY });`, [{ k: 'fields', fields: { side_effects: 'none' } }, { k: 'opaque', field: 'retry' }]],
  ])('%s', (_shape, code, layers) => {
    expect(layersOf(code).layers).toEqual(layers);
  });

  // Both readers agree on computed keys: a computed literal key is read; a computed key whose value is not known may set any field.
  it('a computed literal key is read, by the layers and by readPolicyData alike', () => {
    const found = layersOf(`const BASE = { side_effects: 'internal_write', retry: 'never' } as const;\ndeclarePolicy(${t}, { ...BASE, ['idempotent']: false });`);
    expect(found.layers).toEqual([{ k: 'fields', fields: { side_effects: 'internal_write', retry: 'never' } }, { k: 'fields', fields: { idempotent: false } }]);
    expect(layersOf(`declarePolicy(${t}, { side_effects: 'internal_write', ['idempotent']: false, retry: 'never' });`).data).toEqual({ side_effects: 'internal_write', idempotent: false, retry: 'never' });
  });

  it('a computed key whose value is not known is opaque: it may set any field', () => {
    expect(layersOf(`export function f(field: string) { const BASE = { side_effects: 'none' } as const; return declarePolicy(${t}, { ...BASE, [field]: true }); }`).layers).toEqual([
      { k: 'fields', fields: { side_effects: 'none' } },
      { k: 'opaque' },
    ]);
  });

  it('readExportedPolicyConsts: each exported const object, by name', () => {
    const consts = withTool(`${DECLARE}export const READ = { side_effects: 'none', idempotent: true, retry: 'safe' } as const;\nexport const HINTS = { readOnlyHint: true };\nexport const OTHER = { colour: 'red' };\ndeclarePolicy(${t}, READ);`, (sourceCode) => readExportedPolicyConsts(sourceCode));
    expect(consts).toEqual({ READ: { layers: [{ k: 'fields', fields: { side_effects: 'none', idempotent: true, retry: 'safe' } }] }, HINTS: { layers: [{ k: 'fields', fields: { readOnlyHint: true } }] } });
  });

  it('readExportedPolicyConsts: the members of an exported object that are policies, up to a spread or an unknown key after them', () => {
    const consts = withTool(
      `${DECLARE}import { BASE } from './base.js';\nimport { extra } from 'pkg';\nexport const policies = { early: { retry: 'never' }, ...extra, moneyOut: { side_effects: 'money_out', idempotent: 'with_key' } as const, nested: { read: ({ retry: 'safe' }) }, base: BASE, made: make(), get lazy() { return { retry: 'safe' }; } };\nexport let later = { read: { retry: 'safe' } };\ndeclarePolicy(${t}, policies.moneyOut);`,
      (sourceCode) => readExportedPolicyConsts(sourceCode),
    );
    expect(consts).toEqual({
      // As a policy itself it may have any field (the spread of a package's value).
      policies: {
        layers: [{ k: 'opaque' }],
        members: {
          moneyOut: { layers: [{ k: 'fields', fields: { side_effects: 'money_out', idempotent: 'with_key' } }] },
          nested: { layers: [], members: { read: { layers: [{ k: 'fields', fields: { retry: 'safe' } }] } } },
          base: { layers: [{ k: 'import', from: './base.js', name: 'BASE' }] },
        },
      },
    });
  });
});

describe('describeKeyDerivation', () => {
  const derivation = (code: string, keyNames: string[] = []) =>
    withTool(code, (sourceCode, tool) => {
      const found = describeKeyDerivation(sourceCode, tool, { matchKeyName: createKeyNameMatcher(keyNames) });
      return { status: found.status, sources: found.sources.map((s) => s.description), parts: found.parts.map((p) => sourceCode.getText(p.node)) };
    });

  it.each([
    ['the key template from durable parts', `${DEFINE}defineTool({ name: 't', idempotent: 'with_key', key: ({ run, input }) => key\`\${run.id}:\${input.id}\`, execute: () => 1 });`, { status: 'deterministic', parts: ['run.id', 'input.id'] }],
    ['a random part', `${DEFINE}defineTool({ name: 't', idempotent: 'with_key', key: () => key\`\${vouchDurable(randomUUID())}\`, execute: () => 1 });`, { status: 'nondeterministic', sources: ['randomUUID()'] }],
    ['a provider key from the caller', `${MCP}server.registerTool('t', { inputSchema: { idempotencyKey: z.string() } }, async ({ idempotencyKey }) => pay({ idempotencyKey }));`, { status: 'deterministic', parts: ['idempotencyKey'] }],
    ['a key from a call that cannot be followed', `${MCP}import { mint } from 'keys';\nserver.registerTool('t', {}, async () => pay({ idempotencyKey: mint() }));`, { status: 'unknown' }],
    ['no key at all', `${MCP}server.registerTool('t', {}, async () => ({ content: [] }));`, { status: 'none' }],
    ['the runner\'s key, currentCall()?.key from @retrysafe/spec (docs/frameworks.md)', `${MCP}import { currentCall } from '@retrysafe/spec';\nserver.registerTool('t', {}, async () => pay({ idempotencyKey: currentCall()?.key }));`, { status: 'deterministic', parts: ['currentCall()?.key'] }],
    ['a namespace import of it', `${MCP}import * as rs from '@retrysafe/spec';\nserver.registerTool('t', {}, async () => pay({ idempotencyKey: rs.currentCall().key }));`, { status: 'deterministic' }],
    ['a currentCall that is not the spec\'s', `${MCP}import { currentCall } from './calls.js';\nserver.registerTool('t', {}, async () => pay({ idempotencyKey: currentCall()?.key }));`, { status: 'unknown' }],
    ['another field of the spec\'s currentCall', `${MCP}import { currentCall } from '@retrysafe/spec';\nserver.registerTool('t', {}, async () => pay({ idempotencyKey: currentCall()?.tool }));`, { status: 'unknown' }],
    ['a key name from the keyNames option', `${MCP}server.registerTool('t', {}, async () => pay({ requestKey: Date.now() }));`, { status: 'nondeterministic', sources: ['Date.now()'] }, ['requestKey']],
  ] as [string, string, object, string[]?][])('%s', (_shape, code, expected, keyNames = []) => {
    expect(derivation(code, keyNames)).toMatchObject(expected);
  });
});

describe('describeKeyDerivation: origins a derived part rests on (a factory\'s parameter, openRun)', () => {
  const SPEC_MCP = `${MCP}import { openRun } from '@retrysafe/spec';\nimport { randomUUID } from 'node:crypto';\n`;
  const origins = (code: string) =>
    withTool(code, (sourceCode, tool) => {
      const found = describeKeyDerivation(sourceCode, tool, { matchKeyName: createKeyNameMatcher([]) });
      return {
        status: found.status,
        origins: found.parts.flatMap((part) =>
          part.origins.map((origin) => (origin.kind === 'openRun' ? { kind: origin.kind, line: origin.call.loc.start.line } : { kind: origin.kind, text: origin.text, index: origin.index, path: origin.path })),
        ),
      };
    });
  const register = (key: string) => `server.registerTool('t', {}, async ({ id }) => pay({ idempotencyKey: ${key} }));`;

  it.each([
    ['run.id of a factory parameter', `${SPEC_MCP}function make(server, run) {\n  ${register('`${run.id}:${id}`')}\n}`, { status: 'deterministic', origins: [{ kind: 'factoryParameter', text: 'run.id', index: 1, path: ['id'] }] }],
    ['a destructured parameter', `${SPEC_MCP}const make = ({ runId }) => ${register('`${runId}:${id}`')}`, { status: 'deterministic', origins: [{ kind: 'factoryParameter', text: 'runId', index: 0, path: ['runId'] }] }],
    ['a const destructured from a parameter', `${SPEC_MCP}function make(options) {\n  const { runId: run } = options;\n  ${register('run')}\n}`, { status: 'deterministic', origins: [{ kind: 'factoryParameter', text: 'options.runId', index: 0, path: ['runId'] }] }],
    ['a nested pattern: the path cannot be read back', `${SPEC_MCP}function make({ run: { id: runId } }) {\n  ${register('runId')}\n}`, { status: 'deterministic', origins: [{ kind: 'factoryParameter', text: 'runId', index: 0, path: undefined }] }],
    ['this.run.id with run a constructor parameter property', `${SPEC_MCP}class Tools {\n  constructor(private readonly run: { id: string }) {}\n  register() {\n    ${register('`${this.run.id}:${id}`')}\n  }\n}`, { status: 'deterministic', origins: [{ kind: 'factoryParameter', text: 'this.run.id', index: 0, path: ['id'] }] }],
    ['this.runId assigned from a constructor parameter', `${SPEC_MCP}class Tools {\n  constructor(store, runId) {\n    this.runId = runId;\n  }\n  register() {\n    ${register('this.runId')}\n  }\n}`, { status: 'deterministic', origins: [{ kind: 'factoryParameter', text: 'this.runId', index: 1, path: [] }] }],
    ['this in a plain function is not the instance', `${SPEC_MCP}class Tools {\n  constructor(private readonly run: { id: string }) {}\n  register() {\n    return function () {\n      ${register('`${this.run.id}:${id}`')}\n    };\n  }\n}`, { status: 'unknown', origins: [] }],
    ['the handler\'s own parameter is the input, no origin', `${SPEC_MCP}${register('`order:${id}`')}`, { status: 'deterministic', origins: [] }],
    ['run.id of a run openRun opens from a durable origin', `${SPEC_MCP}async function work(store, job) {\n  const run = await openRun(store, { kind: 'job', id: job.id });\n  ${register('`${run.id}:${id}`')}\n}`, { status: 'deterministic', origins: [{ kind: 'openRun', line: 6 }] }],
    ['openRun from a random origin id: not derived', `${SPEC_MCP}async function work(store) {\n  const run = await openRun(store, { kind: 'job', id: randomUUID() });\n  ${register('`${run.id}:${id}`')}\n}`, { status: 'unknown', origins: [] }],
    ['another field of the opened run (resumed differs on a resume)', `${SPEC_MCP}async function work(store, job) {\n  const run = await openRun(store, { kind: 'job', id: job.id });\n  ${register('`${run.resumed}:${id}`')}\n}`, { status: 'unknown', origins: [] }],
    ['an openRun that is not the spec\'s', `${MCP}import { openRun } from './runs.js';\nasync function work(store, job) {\n  const run = await openRun(store, { kind: 'job', id: job.id });\n  ${register('`${run.id}:${id}`')}\n}`, { status: 'unknown', origins: [] }],
  ] as [string, string, object][])('%s', (_shape, code, expected) => {
    expect(origins(code)).toEqual(expected);
  });
});

describe('describeFactoryArgument', () => {
  const SPEC = "import { openRun } from '@retrysafe/spec';\nimport { randomUUID } from 'node:crypto';\n";
  const argument = (code: string) =>
    inspectFile(`${SPEC}async function work(store, job, other) {\n  const run = await openRun(store, { kind: 'job', id: job.id });\n  ${code};\n}`, (sourceCode, nodes) => {
      const call = nodes.find((node): node is TSESTree.CallExpression => node.type === 'CallExpression' && node.callee.type === 'Identifier' && node.callee.name === 'make');
      const summarise = (found: ReturnType<typeof describeFactoryArgument>): unknown =>
        found.k === 'object' ? { k: 'object', props: Object.fromEntries(Object.entries(found.props).map(([name, value]) => [name, summarise(value)])) } : found.k;
      return call ? summarise(describeFactoryArgument(sourceCode, call.arguments[0] as TSESTree.Node)) : undefined;
    });

  it.each([
    ['the run', 'make(run)', 'run'],
    ['its id', 'make(run.id)', 'runId'],
    ['an object of them', "make({ runId: run.id, name: 'x', other })", { k: 'object', props: { runId: 'runId', name: 'literal', other: 'other' } }],
    ['a random source', 'make(randomUUID())', 'random'],
    ['a parameter', 'make(other)', 'other'],
  ] as [string, string, unknown][])('%s', (_shape, code, expected) => {
    expect(argument(code)).toEqual(expected);
  });
});

describe('findReplaySignal', () => {
  it.each([
    ['defineTool: the runner', `${DEFINE}defineTool({ name: 't', execute: () => 1 });`, 'runner'],
    ['a handler returning replayed', `${MCP}server.registerTool('t', {}, async () => ({ content: [], structuredContent: { replayed: true } }));`, 'flag'],
    ['a handler returning alreadyDone', `${MCP}server.registerTool('t', {}, async () => { if (seen) return { alreadyDone: true }; return { ok: true }; });`, 'flag'],
    ['a handler without a flag', `${MCP}server.registerTool('t', {}, async () => ({ content: [] }));`, 'none'],
    ['a handler from another file', `${MCP}import { handle } from './handle.js';\nserver.registerTool('t', {}, handle);`, 'unknown'],
  ])('%s', (_shape, code, kind) => {
    expect(withTool(code, (sourceCode, tool) => findReplaySignal(sourceCode, tool).kind)).toBe(kind);
  });
});

describe('runners, stores and the calls that hand a tool to one', () => {
  const SPEC = "import { createRunner } from '@retrysafe/spec';\n";
  const runnerOf = (code: string) =>
    inspectFile(code, (sourceCode, nodes) => {
      const runner = nodes.map((node) => node.type === 'CallExpression' && getRunnerConstruction(sourceCode, node)).find(Boolean);
      return runner ? { kind: runner.store?.kind, durable: runner.store?.durable, ...(runner.store?.allowVolatile ? { allowVolatile: runner.store.allowVolatile } : {}) } : undefined;
    });
  const REDIS = `${SPEC}import { createRedisStore } from '@retrysafe/spec/stores/redis';\n`;

  it.each([
    ['SQLite on a file', `${SPEC}import { createSqliteStore } from '@retrysafe/spec/stores/sqlite';\ncreateRunner({ store: createSqliteStore({ path: 'x.db' }) });`, { kind: 'sqlite', durable: true }],
    ['SQLite in memory', `${SPEC}import { createSqliteStore } from '@retrysafe/spec/stores/sqlite';\ncreateRunner({ store: createSqliteStore({ path: ':memory:' }) });`, { kind: 'sqlite', durable: false }],
    ['the memory store, through a const', `${SPEC}import { createNonDurableMemoryStore } from '@retrysafe/spec/stores/memory';\nconst store = createNonDurableMemoryStore();\ncreateRunner({ store });`, { kind: 'memory', durable: false }],
    ['PostgreSQL', `${SPEC}import { createPostgresStore } from '@retrysafe/spec/stores/postgres';\ncreateRunner({ store: createPostgresStore({ pool }) });`, { kind: 'postgres', durable: true }],
    ['a store from elsewhere', `${SPEC}createRunner({ store: makeStore() });`, { kind: undefined, durable: undefined }],
    ['Redis, its persistence check on', `${REDIS}createRunner({ store: createRedisStore({ url }) });`, { kind: 'redis', durable: true }],
    ['Redis with allowVolatile: false', `${REDIS}createRunner({ store: createRedisStore({ url, allowVolatile: false }) });`, { kind: 'redis', durable: true }],
    ['Redis with allowVolatile: true, its check off', `${REDIS}createRunner({ store: createRedisStore({ url, allowVolatile: true }) });`, { kind: 'redis', durable: true, allowVolatile: true }],
    ['Redis with allowVolatile: true through a spread of a const', `${REDIS}const base = { allowVolatile: true };\ncreateRunner({ store: createRedisStore({ url, ...base }) });`, { kind: 'redis', durable: true, allowVolatile: true }],
    ['Redis with allowVolatile that is not static', `${REDIS}createRunner({ store: createRedisStore({ url, allowVolatile: flag }) });`, { kind: 'redis', durable: true, allowVolatile: 'unknown' }],
    ['Redis with options from elsewhere', `${REDIS}createRunner({ store: createRedisStore(options()) });`, { kind: 'redis', durable: true, allowVolatile: 'unknown' }],
  ])('%s', (_shape, code, expected) => {
    expect(runnerOf(code)).toEqual(expected);
  });

  it("names where an allowVolatile that is not static is given (new-user trial 4: the reason named no line)", () => {
    const at = (code: string) =>
      inspectFile(code, (sourceCode, nodes) => {
        const runner = nodes.map((node) => node.type === 'CallExpression' && getRunnerConstruction(sourceCode, node)).find(Boolean);
        const node = runner ? runner.store?.allowVolatileNode : undefined;
        return node && { line: node.loc.start.line, text: sourceCode.getText(node) };
      });
    expect(at(`${REDIS}createRunner({ store: createRedisStore({\n  url,\n  allowVolatile: process.env.X === '1',\n}) });`)).toEqual({ line: 5, text: "process.env.X === '1'" });
    expect(at(`${REDIS}createRunner({ store: createRedisStore({ url, allowVolatile: true }) });`)).toEqual({ line: 3, text: 'true' });
    expect(at(`${REDIS}createRunner({ store: createRedisStore(options()) });`)).toEqual({ line: 3, text: 'options()' });
    expect(at(`${REDIS}createRunner({ store: createRedisStore({ url }) });`)).toBeUndefined();
  });

  it('reads the tool sets whose keys name AI SDK tools: a guard, the tools of generateText and of an agent; not a computed key or a spread', () => {
    const sets = inspectFile(
      `import { guardAiSdkTools } from '@retrysafe/spec/adapters/ai-sdk';\nimport { generateText, ToolLoopAgent } from 'ai';\nconst more = { lookup_order: lookupTool };\nguardAiSdkTools({ issue_refund: refundTool, cancelOrder, 'charge-card': chargeTool, [NAME]: dynamicTool, ...others }, { runner, run });\ngenerateText({ model, tools: more });\nnew ToolLoopAgent({ model, tools: { ship: shipTool } });\nother({ tools: { x: y } });`,
      (sourceCode, nodes) =>
        nodes.flatMap((node) => {
          const set = node.type === 'CallExpression' || node.type === 'NewExpression' ? getToolSet(sourceCode, node) : undefined;
          return set ? [{ via: set.via, members: set.members.map(({ key, value }) => `${key}=${sourceCode.getText(value)}`) }] : [];
        }),
    );
    expect(sets).toEqual([
      { via: 'guardAiSdkTools', members: ['issue_refund=refundTool', 'cancelOrder=cancelOrder', 'charge-card=chargeTool'] },
      { via: 'generateText', members: ['lookup_order=lookupTool'] },
      { via: 'ToolLoopAgent', members: ['ship=shipTool'] },
    ]);
  });

  it('recognises runner.call, runner.tryCall and the adapters, and not Function.prototype.call', () => {
    const uses = inspectFile(
      `${SPEC}import { toAiSdkTool } from '@retrysafe/spec/adapters/ai-sdk';\nconst runner = createRunner({ store });\nrunner.call(refund, input, { run });\nrunner.tryCall(refund, input, { run });\ntoAiSdkTool(refund, { runner, run });\nfn.call(thisArg, 1);\nother.tryCall(refund, input);`,
      (sourceCode, nodes) => nodes.map((node) => node.type === 'CallExpression' && getRunnerUse(sourceCode, node)).filter(Boolean).map((use) => use && use.via),
    );
    expect(uses).toEqual(['runner.call', 'runner.tryCall', 'toAiSdkTool']);
  });

  it('recognises a guard over a set of framework tools, and the Mastra adapter', () => {
    const uses = inspectFile(
      `import { guardAiSdkTools } from '@retrysafe/spec/adapters/ai-sdk';\nimport { toMastraTool } from '@retrysafe/spec/adapters/mastra';\nguardAiSdkTools({ charge }, { runner, run });\ntoMastraTool(refund, { runner, run });`,
      (sourceCode, nodes) =>
        nodes.flatMap((node) => {
          const use = node.type === 'CallExpression' ? getRunnerUse(sourceCode, node) : undefined;
          return use ? [{ via: use.via, collection: use.collection, tool: sourceCode.getText(use.tool), runner: use.runner && sourceCode.getText(use.runner) }] : [];
        }),
    );
    expect(uses).toEqual([
      { via: 'guardAiSdkTools', collection: true, tool: '{ charge }', runner: 'runner' },
      { via: 'toMastraTool', collection: false, tool: 'refund', runner: 'runner' },
    ]);
  });
});

describe('MCP servers that deduplicate keyed calls', () => {
  it('matches a registration with enableIdempotency(server, { runner }) on the same server, through a const', () => {
    const matched = inspectFile(
      `${MCP}import { enableIdempotency } from '@retrysafe/spec/adapters/mcp';\nconst other = new McpServer({ name: 'o', version: '1' });\nenableIdempotency(server, { runner });\nserver.registerTool('a', {}, async () => ({ content: [] }));\nother.registerTool('b', {}, async () => ({ content: [] }));`,
      (sourceCode, nodes) => {
        const servers = nodes.flatMap((node) => (node.type === 'CallExpression' ? [getIdempotentServer(sourceCode, node)].filter(Boolean) : []));
        return toolsOf(sourceCode, nodes).map((tool) => [tool.name, servers.some((s) => s?.server === getRegisteringServer(sourceCode, tool.node))]);
      },
    );
    expect(matched).toEqual([['a', true], ['b', false]]);
  });
});

describe('called-twice tests', () => {
  const testsOf = (code: string) =>
    inspectFile(code, (sourceCode) => findCalledTwiceTests(sourceCode).map((t) => ({ shape: t.shape, target: t.target.kind === 'name' ? t.target.name : sourceCode.getText(t.target.node), asserted: t.assertion !== undefined })), 'x.test.ts');
  const TESTING = "import { expectSingleEffect, callTwice } from '@retrysafe/spec/testing';\n";

  it.each([
    ['expectSingleEffect', `${TESTING}it('x', async () => { await expectSingleEffect(refund, input); });`, [{ shape: 'expectSingleEffect', target: 'refund', asserted: true }]],
    ['callTwice then a count of one', `${TESTING}it('x', async () => { const r = await callTwice(refund, input); expect(r.executions).toBe(1); });`, [{ shape: 'callTwice', target: 'refund', asserted: true }]],
    ['expectSingleEffect of a one-entry tool set is a test of the tool it holds', `${TESTING}it('x', async () => { await expectSingleEffect({ issueRefund }, input); await expectSingleEffect({ refund: tools.refund }, input, { name: 'refund' }); });`, [{ shape: 'expectSingleEffect', target: 'issueRefund', asserted: true }, { shape: 'expectSingleEffect', target: 'tools.refund', asserted: true }]],
    ['callTwice asserting nothing', `${TESTING}it('x', async () => { await callTwice(refund, input); });`, [{ shape: 'callTwice', target: 'refund', asserted: false }]],
    ['two runner calls then toHaveLength(1)', `it('x', async () => { await runner.call(refund, input, { run }); await runner.call(refund, input, { run }); expect(refunds).toHaveLength(1); });`, [{ shape: 'repeatedCall', target: 'refund', asserted: true }]],
    ['two execute calls then toHaveBeenCalledTimes(1)', `it('x', async () => { await tool.execute(input); await tool.execute(input); expect(spy).toHaveBeenCalledTimes(1); });`, [{ shape: 'repeatedCall', target: 'tool', asserted: true }]],
    ['an MCP client calling by name, then assert.equal(n, 1)', `it('x', async () => { await client.callTool({ name: 'create_ticket', arguments: a }); await client.callTool({ name: 'create_ticket', arguments: a }); assert.equal(count, 1); });`, [{ shape: 'repeatedCall', target: 'create_ticket', asserted: true }]],
    ['two calls with different arguments are not one', `it('x', async () => { await tool.execute({ id: 1 }); await tool.execute({ id: 2 }); expect(n).toBe(1); });`, []],
    // An expectSingleEffect asserted to fail shows a second effect (found by a new-user trial: the audit answered Q5 yes).
    ['assert.rejects(expectSingleEffect(...)) is not a single-effect test', `import assert from 'node:assert';\n${TESTING}it('x', async () => { await assert.rejects(expectSingleEffect(addPoints, input)); });`, []],
    ['expect(expectSingleEffect(...)).rejects is not one either', `${TESTING}it('x', async () => { await expect(expectSingleEffect(addPoints, input)).rejects.toThrow(/twice/); });`, []],
    ['expect(() => expectSingleEffect(...)).toThrow is not one either', `${TESTING}it('x', async () => { expect(() => expectSingleEffect(addPoints, input)).toThrow(); });`, []],
    // A rejection the test handles (new-user trial: `.then(() => null, (err) => err)`, then `expect(e).toBeInstanceOf(Error)`).
    ['expectSingleEffect(...).then(ok, failed) is not one', `${TESTING}it('x', async () => { const e = await expectSingleEffect(addPoints, input).then(() => null, (err) => err); expect(e).toBeInstanceOf(Error); });`, []],
    ['expectSingleEffect(...).catch(...) is not one', `${TESTING}it('x', async () => { await expectSingleEffect(addPoints, input).catch(() => {}); });`, []],
    ['expectSingleEffect(...).then(check) still is one', `${TESTING}it('x', async () => { await expectSingleEffect(refund, input).then((r) => r); });`, [{ shape: 'expectSingleEffect', target: 'refund', asserted: true }]],
    ['expect(await expectSingleEffect(...)).toMatchObject still is one', `${TESTING}it('x', async () => { expect(await expectSingleEffect(refund, input)).toMatchObject({}); });`, [{ shape: 'expectSingleEffect', target: 'refund', asserted: true }]],
    ...(
      [
        // The single effect, however it is asserted (found by a new-user trial: counts from PostgreSQL and Redis are strings).
        ["expect(count).toBe('1')", true],
        ["expect(rows[0]?.count).toEqual('1')", true],
        ["assert.equal(await redis.get('refunds:count'), '1')", true],
        ["assert.strictEqual(total, '1')", true],
        ['assert.strictEqual(n, 1)', true],
        ['expect(count).toBe(1n)', true],
        ['assert.deepStrictEqual(rows, [{ id: 1 }])', true],
        ['expect(charges).toStrictEqual([charge])', true],
        ['expect(send).toHaveBeenCalledTimes(1)', true],
        ['expect(chai).to.have.lengthOf(1)', true],
        // Look-alikes: another count, a negation, a string that is not a count, a length that is not a number.
        ["expect(count).toBe('2')", false],
        ['expect(count).toBe(0)', false],
        ['expect(rows).toHaveLength(2)', false],
        ['expect(count).not.toBe(1)', false],
        ['expect(send).not.toHaveBeenCalledOnce()', false],
        ["expect(result.id).toBe('1')", false],
        ["assert.equal(second.result.id, '1')", false],
        ["expect(rows).toHaveLength('1')", false],
        ['assert.deepStrictEqual(rows, [a, b])', false],
        ['assert.deepStrictEqual(rows, [...all])', false],
        ['expect(rows).toBe([row])', false],
        // A value no effect can change: a literal, a variable only ever its literal initialiser.
        ['expect(1).toBe(1)', false],
        ['assert.equal(1, 1)', false],
        ["expect('1').toBe('1')", false],
      ] as const
    ).map(([assertion, asserted]): [string, string, { shape: string; target: string; asserted: boolean }[]] => [
      `two calls then ${assertion}`,
      `it('x', async () => { await tool.execute(a); await tool.execute(a); ${assertion}; });`,
      [{ shape: 'repeatedCall', target: 'tool', asserted }],
    ]),
    ...(
      [
        ['let refunds = 1;', 'expect(refunds).toBe(1)', false],
        ['const refunds = 1;', 'assert.strictEqual(refunds, 1)', false],
        ['let count = 0; const execute = () => { count += 1; };', 'expect(count).toBe(1)', true],
        ['let count = 0; const execute = () => count++;', 'assert.equal(count, 1)', true],
        ['const refunds = [];', 'expect(refunds).toHaveLength(1)', true],
        ["import { count } from './effects.js';", 'expect(count).toBe(1)', true],
      ] as const
    ).map(([declaration, assertion, asserted]): [string, string, { shape: string; target: string; asserted: boolean }[]] => [
      `${declaration} two calls then ${assertion}`,
      `${declaration}\nit('x', async () => { await tool.execute(a); await tool.execute(a); ${assertion}; });`,
      [{ shape: 'repeatedCall', target: 'tool', asserted }],
    ]),
    ['the assertion before the second call does not count', `it('x', async () => { await tool.execute(a); expect(n).toBe(1); await tool.execute(a); });`, [{ shape: 'repeatedCall', target: 'tool', asserted: false }]],
  ])('%s', (_shape, code, expected) => {
    expect(testsOf(code)).toEqual(expected);
  });

  it.each([
    ['src/refund.test.ts', '', true],
    ['src/__tests__/refund.ts', '', true],
    ['src/refund.ts', "import { it } from 'vitest';", true],
    ['src/refund.ts', '', false],
    // New-user trial 6: ordinary modules whose names end in -spec or -test hold tools, not tests.
    ['src/faulty-spec.ts', '', false],
    ['src/ab-test.mjs', '', false],
    ['src/refund-spec.ts', "import { it } from 'vitest';", true],
    ['src/refund.spec.ts', '', true],
  ])('isTestFile(%s)', (filename, code, expected) => {
    expect(inspectFile(`${code}\nexport {};`, (sourceCode) => isTestFile(sourceCode, filename), 'file.ts')).toBe(expected);
  });

  it.each([
    ['tests/refund.test.ts', true],
    ['src/__tests__/refund.ts', true],
    ['src/refund-spec.mjs', true],
    ['src/refund.ts', false],
    ['src/testing.ts', false],
  ])('isTestFileName(%s): a test by its name alone, for a file that did not parse', (filename, expected) => {
    expect(isTestFileName(filename)).toBe(expected);
  });
});

describe('called-twice tests that never run or cannot fail', () => {
  // New-user trial 4: each answered question 5 yes.
  const reachOf = (code: string) =>
    inspectFile(code, (sourceCode) => findCalledTwiceTests(sourceCode).map((t) => (t.reach ? `${t.reach.kind} ${t.reach.text}` : 'runs')), 'x.test.ts');
  const TWICE = 'await runner.call(refund, input, { run }); await runner.call(refund, input, { run }); expect(n).toBe(1);';
  it.each([
    ['it.skip', `it.skip('x', async () => { ${TWICE} });`, 'skipped it.skip'],
    ['test.todo', `test.todo('x', async () => { ${TWICE} });`, 'skipped test.todo'],
    ['xit', `xit('x', async () => { ${TWICE} });`, 'skipped xit'],
    ['a test in describe.skip', `describe.skip('s', () => { it('x', async () => { ${TWICE} }); });`, 'skipped describe.skip'],
    ['a test in xdescribe', `xdescribe('s', () => { it('x', async () => { ${TWICE} }); });`, 'skipped xdescribe'],
    ["node:test's { skip: true }", `it('x', { skip: true }, async () => { ${TWICE} });`, 'skipped it(…, { skip: true })'],
    ['a skip outside a condition wins', `describe.skip('s', () => { it.runIf(ok)('x', async () => { ${TWICE} }); });`, 'skipped describe.skip'],
    ['it.skipIf(cond)', `it.skipIf(process.env.CI)('x', async () => { ${TWICE} });`, 'conditional it.skipIf(process.env.CI)'],
    ['it.runIf(cond)', `it.runIf(ok)('x', async () => { ${TWICE} });`, 'conditional it.runIf(ok)'],
    ['describe.skipIf(cond)', `describe.skipIf(ok)('s', () => { it('x', async () => { ${TWICE} }); });`, 'conditional describe.skipIf(ok)'],
    ['an if around the test', `if (process.env.X) { it('x', async () => { ${TWICE} }); }`, 'conditional if (process.env.X)'],
    ['an if inside the test', `it('x', async () => { if (ready) { ${TWICE} } });`, 'conditional if (ready)'],
    ["{ skip: flag }, not static", `it('x', { skip: flag }, async () => { ${TWICE} });`, 'conditional it(…, { skip: flag })'],
    ['a catch that swallows the assertion', `it('x', async () => { try { ${TWICE} } catch { } });`, 'swallowed catch { … }'],
    ['a catch that logs only', `it('x', async () => { try { ${TWICE} } catch (e) { console.warn(e); } });`, 'swallowed catch (e) { … }'],
    // Look-alikes that run and can fail.
    ['a plain test', `it('x', async () => { ${TWICE} });`, 'runs'],
    ['it.only', `it.only('x', async () => { ${TWICE} });`, 'runs'],
    ['a catch that rethrows', `it('x', async () => { try { ${TWICE} } catch (e) { log(e); throw e; } });`, 'runs'],
    ['a catch that fails the test', `it('x', async () => { try { ${TWICE} } catch (e) { expect.fail(String(e)); } });`, 'runs'],
    ['a catch that asserts on the error', `it('x', async () => { try { ${TWICE} } catch (e) { expect(e).toBeUndefined(); } });`, 'runs'],
    ['the calls in a try, the assertion after it', `it('x', async () => { try { await runner.call(refund, input, { run }); await runner.call(refund, input, { run }); } catch { } expect(n).toBe(1); });`, 'runs'],
    ["vitest's in-source tests", `if (import.meta.vitest) { const { it } = import.meta.vitest; it('x', async () => { ${TWICE} }); }`, 'runs'],
  ])('%s', (_name, code, expected) => {
    expect(reachOf(code)).toEqual([expected]);
  });

  it('expectSingleEffect in a try whose catch swallows its failure', () => {
    expect(reachOf("import { expectSingleEffect } from '@retrysafe/spec/testing';\nit('x', async () => { try { await expectSingleEffect(refund, input); } catch {} });")).toEqual(['swallowed catch { … }']);
  });
});

describe('createValueSummariser', () => {
  it('describes exports as symbolic values: a function returning a tool, re-exports, objects, CommonJS', () => {
    const summary = inspectFile(
      `${DEFINE}export function refundTool() { return defineTool({ name: 'r', execute: () => 1 }); }\nexport { sendTool } from './send.js';\nexport * from './more.js';\nimport { statusTool } from './status.js';\nexport const tools = { status: statusTool(), refund: refundTool() };`,
      (sourceCode, nodes) => {
        const tools = toolsOf(sourceCode, nodes);
        const values = createValueSummariser(sourceCode, { tool: (node) => (tools.findIndex((t) => t.node === node) >= 0 ? tools.findIndex((t) => t.node === node) : undefined), runner: () => undefined });
        return values.exportsOf();
      },
    );
    expect(summary.exports.refundTool).toEqual({ k: 'fn', returns: [{ k: 'tool', index: 0 }] });
    expect(summary.exports.sendTool).toEqual({ k: 'import', from: './send.js', name: 'sendTool' });
    expect(summary.exports.tools).toEqual({
      k: 'object',
      props: { status: { k: 'call', callee: { k: 'import', from: './status.js', name: 'statusTool' } }, refund: { k: 'call', callee: { k: 'fn', returns: [{ k: 'tool', index: 0 }] } } },
    });
    expect(summary.reexports).toEqual(['./more.js']);
  });

  it('follows destructuring: `const { issueRefund } = createTools()` is a member of a call', () => {
    const value = inspectFile("import { createTools } from './tools.js';\nconst { issueRefund } = createTools(services);\nuse(issueRefund);", (sourceCode, nodes) => {
      const use = nodes.find((node): node is TSESTree.CallExpression => node.type === 'CallExpression' && node.callee.type === 'Identifier' && node.callee.name === 'use');
      return createValueSummariser(sourceCode, { tool: () => undefined, runner: () => undefined }).valueOf(use?.arguments[0] as TSESTree.Node);
    });
    expect(value).toEqual({ k: 'member', of: { k: 'call', callee: { k: 'import', from: './tools.js', name: 'createTools' } }, name: 'issueRefund' });
  });

  it.each([
    ['the element at its index', 'const [, t] = guardLangChainTools([charge, refund], { runner });', { k: 'import', from: './tools.js', name: 'refund' }],
    ['a default value', 'const [t = fallback] = guardLangChainTools([refund], { runner });', { k: 'import', from: './tools.js', name: 'refund' }],
    ['nested in an object pattern', 'const { list: [t] } = { list: guardLangChainTools([refund], { runner }) };', { k: 'import', from: './tools.js', name: 'refund' }],
    ['a rest element is not one tool', 'const [...t] = guardLangChainTools([refund], { runner });', { k: 'opaque', text: 't' }],
  ])('follows array destructuring of a guard\'s result to the tool at the same index: %s', (_shape, declaration, expected) => {
    const code = `import { guardLangChainTools } from '@retrysafe/spec/adapters/langchain';\nimport { charge, refund, fallback } from './tools.js';\n${declaration}\nuse(t);`;
    const value = inspectFile(code, (sourceCode, nodes) => {
      const use = nodes.find((node): node is TSESTree.CallExpression => node.type === 'CallExpression' && node.callee.type === 'Identifier' && node.callee.name === 'use');
      const summariser = createValueSummariser(sourceCode, { tool: () => undefined, runner: () => undefined });
      const found = summariser.valueOf(use?.arguments[0] as TSESTree.Node);
      return found.k === 'member' ? resolveMembers(found) : found;
    });
    expect(value).toEqual(expected);
  });

  it('describes a spec store factory call as a store, with its kind and durability', () => {
    const summary = inspectFile(
      "import { createSqliteStore } from '@retrysafe/spec/stores/sqlite';\nimport { createNonDurableMemoryStore } from '@retrysafe/spec/stores/memory';\nexport const shared = createSqliteStore({ path: 'dedup.db' });\nexport const scratch = () => createNonDurableMemoryStore();\nexport const lookAlike = createStore();",
      (sourceCode) => createValueSummariser(sourceCode, { tool: () => undefined, runner: () => undefined }).exportsOf(),
    );
    expect(summary.exports.shared).toMatchObject({ k: 'store', kind: 'sqlite', durable: true, line: 3 });
    expect(summary.exports.scratch).toMatchObject({ k: 'fn', returns: [{ k: 'store', kind: 'memory', durable: false, line: 4 }] });
    expect(summary.exports.lookAlike).toMatchObject({ k: 'call' });
  });
});

/** Reads a member of an object value the way the audit's linker does (`{ 0: refund }['0']` is `refund`), nested members too. */
type Value = ReturnType<ReturnType<typeof createValueSummariser>['valueOf']>;
function resolveMembers(value: Value): unknown {
  if (value.k !== 'member') return value;
  const of = resolveMembers(value.of) as Value;
  return of.k === 'object' ? resolveMembers(of.props[value.name] ?? { k: 'opaque', text: '?' }) : { ...value, of };
}
