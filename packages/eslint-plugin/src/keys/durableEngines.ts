import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import {
  type FunctionNode,
  getImportedModules,
  getPropertyKeyName,
  getReturnedExpressions,
  getStaticPropertyName,
  GLOBAL_SOURCE,
  isFunctionNode,
  resolveConst,
  resolveReference,
} from '../ast/index.js';

// Durable-execution engines, as data: the ids they deduplicate or memoise on (a step's id, a
// workflow's id, an event's id, a job's id), and the code where their randomness is seeded by the run.
// Each entry is recognised only in a file that imports one of its modules.

type SourceCode = Readonly<TSESLint.SourceCode>;

/** Where an engine takes an id that it deduplicates or memoises on. */
export type EngineKeySlot =
  /** An argument of a method: `step.run(id, fn)`, `idempotencyKeys.create(parts)` (`argument: 'all'`). */
  | { readonly kind: 'argument'; readonly methods: readonly string[]; readonly receiver?: RegExp; readonly argument: number | 'all' }
  /**
   * A property of an options object: `client.workflow.start(wf, { workflowId })`, `queue.add(name, data, { jobId })`;
   * with `within`, a property of the object at that option: `queue.add(name, data, { deduplication: { id } })`.
   */
  | { readonly kind: 'option'; readonly methods: readonly string[]; readonly receiver?: RegExp; readonly argument: number; readonly property: string; readonly within?: string }
  /** The `id` of an event object (or of each in an array): `inngest.send({ id, name, data })`. */
  | { readonly kind: 'eventId'; readonly methods: readonly string[]; readonly receiver?: RegExp; readonly argument: number };

/** One engine: its modules and the ids it dedupes on. */
export interface DurableEngine {
  readonly engine: string;
  /** Import specifiers (normalised) that make a file this engine's. */
  readonly modules: readonly string[];
  readonly slots: readonly EngineKeySlot[];
}

const STEP = /^step$/;

/**
 * The engines. Sources: Inngest (`step.run(id, fn)`: a step is memoised by its id within a run;
 * `inngest.send({ id })`: events with the same id are deduplicated for 24 hours), Temporal
 * (`workflowId`: one running workflow per id), Trigger.dev (`idempotencyKeys.create(...)`; its
 * `idempotencyKey` option is a key name already), Restate (`ctx.run(name, fn)`: the journal entry's
 * name), DBOS (`DBOS.startWorkflow(fn, { workflowID })`: a workflow runs once per id;
 * `DBOS.runStep(fn, { name })`), BullMQ (`queue.add(name, data, { jobId })`: a job id that exists is
 * not added again; `{ deduplication: { id } }`, BullMQ 5+: a job whose deduplication id is held by
 * another is ignored). Inngest's `step.sendEvent(id, events)` is a step like `step.run` (inngest-js
 * InngestStepTools: a `StepPlanned` op whose function calls the client's send): a completed send is
 * memoised by the step id, but a failed one is retried and re-evaluates the payload, so a random
 * event id there is new on the retry, as a random key in a `step.run` body is.
 */
export const DURABLE_ENGINES: readonly DurableEngine[] = [
  {
    engine: 'Inngest',
    modules: ['inngest', '@inngest/agent-kit'],
    slots: [
      { kind: 'argument', methods: ['run', 'sendEvent', 'invoke', 'sleep', 'sleepUntil', 'waitForEvent'], receiver: STEP, argument: 0 },
      { kind: 'eventId', methods: ['send'], argument: 0 },
      { kind: 'eventId', methods: ['sendEvent'], receiver: STEP, argument: 1 },
    ],
  },
  {
    engine: 'Temporal',
    modules: ['@temporalio/client', '@temporalio/workflow'],
    slots: [
      { kind: 'option', methods: ['start', 'execute', 'signalWithStart'], receiver: /^workflow$/, argument: 1, property: 'workflowId' },
      { kind: 'option', methods: ['startChild', 'executeChild'], argument: 1, property: 'workflowId' },
    ],
  },
  {
    engine: 'Trigger.dev',
    modules: ['@trigger.dev/sdk', '@trigger.dev/sdk/v3'],
    slots: [{ kind: 'argument', methods: ['create'], receiver: /^idempotencyKeys$/, argument: 'all' }],
  },
  {
    engine: 'Restate',
    modules: ['@restatedev/restate-sdk', '@restatedev/restate-sdk-cloudflare-workers'],
    slots: [{ kind: 'argument', methods: ['run'], receiver: /^(ctx|context)$/, argument: 0 }],
  },
  {
    engine: 'DBOS',
    modules: ['@dbos-inc/dbos-sdk'],
    slots: [
      { kind: 'option', methods: ['startWorkflow'], receiver: /^DBOS$/, argument: 1, property: 'workflowID' },
      { kind: 'option', methods: ['runStep'], receiver: /^DBOS$/, argument: 1, property: 'name' },
    ],
  },
  {
    engine: 'BullMQ',
    modules: ['bullmq'],
    slots: [
      { kind: 'option', methods: ['add'], argument: 2, property: 'jobId' },
      { kind: 'option', methods: ['add'], argument: 2, property: 'id', within: 'deduplication' },
    ],
  },
];

/** Words one of whose engines' modules a file must spell to hold an engine key: the key text gate. */
export const DURABLE_ENGINE_WORDS: readonly string[] = ['inngest', '@temporalio/', '@trigger.dev/', '@restatedev/', '@dbos-inc/', 'bullmq'];

/** An id an engine dedupes on, found at a call. */
export interface EngineKey {
  readonly engine: string;
  /** How the message names the slot: `step.run id`, `workflowId`, `event id`. */
  readonly name: string;
  readonly value: TSESTree.Expression;
}

const enginesByFile = new WeakMap<SourceCode, readonly DurableEngine[]>();

function getFileEngines(sourceCode: SourceCode): readonly DurableEngine[] {
  let engines = enginesByFile.get(sourceCode);
  if (!engines) {
    const modules = getImportedModules(sourceCode);
    engines = DURABLE_ENGINES.filter((engine) => engine.modules.some((module) => modules.has(module)));
    enginesByFile.set(sourceCode, engines);
  }
  return engines;
}

/** The engine ids a call takes, in a file that imports the engine; `[]` for almost every call. */
export function getEngineKeys(call: TSESTree.CallExpression, sourceCode: SourceCode): EngineKey[] {
  const callee = call.callee;
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return [];
  const engines = getFileEngines(sourceCode);
  if (engines.length === 0) return [];
  const method = getStaticPropertyName(callee);
  if (method === undefined) return [];
  const receiver = lastName(callee.object);
  const keys: EngineKey[] = [];
  for (const engine of engines) {
    for (const slot of engine.slots) {
      if (!slot.methods.includes(method) || (slot.receiver && (receiver === undefined || !slot.receiver.test(receiver)))) continue;
      keys.push(...readSlot(call, slot, `${receiver ?? ''}.${method}`, sourceCode).map((found) => ({ engine: engine.engine, ...found })));
    }
  }
  return keys;
}

function readSlot(call: TSESTree.CallExpression, slot: EngineKeySlot, callName: string, sourceCode: SourceCode): { name: string; value: TSESTree.Expression }[] {
  const args = call.arguments;
  if (slot.kind === 'argument') {
    const picked = slot.argument === 'all' ? args : args.slice(slot.argument, slot.argument + 1);
    return picked.flatMap((value) => (value.type === AST_NODE_TYPES.SpreadElement || isFunctionNode(value) ? [] : [{ name: `${callName} id`, value }]));
  }
  const argument = args[slot.argument];
  if (!argument || argument.type === AST_NODE_TYPES.SpreadElement) return [];
  if (slot.kind === 'option') {
    const options = objectOf(slot.within === undefined ? argument : propertyValue(objectOf(argument, sourceCode), slot.within, sourceCode), sourceCode);
    const value = propertyValue(options, slot.property, sourceCode);
    return value ? [{ name: slot.within === undefined ? slot.property : `${slot.within}.${slot.property}`, value }] : [];
  }
  // An event is an object with a name: `{ name: 'order/paid', data, id }`.
  return eventObjects(argument, sourceCode, 0).flatMap((object) => {
    if (!object.properties.some((p) => p.type === AST_NODE_TYPES.Property && getPropertyKeyName(p, sourceCode) === 'name')) return [];
    const value = propertyValue(object, 'id', sourceCode);
    return value ? [{ name: 'event id', value }] : [];
  });
}

/** How deep {@link eventObjects} follows consts, arrays and `.map` callbacks. */
const MAX_EVENT_DEPTH = 4;
/** Array methods whose callback returns the elements of the array they make. */
const MAPPING_METHODS = new Set(['flatMap', 'map']);

/** The object literal `node` is, through `const` bindings and TS wrappers. */
function objectOf(node: TSESTree.Node | undefined, sourceCode: SourceCode): TSESTree.ObjectExpression | undefined {
  const value = node && resolveConst(sourceCode, node);
  return value?.type === AST_NODE_TYPES.ObjectExpression ? value : undefined;
}

function propertyValue(object: TSESTree.ObjectExpression | undefined, name: string, sourceCode: SourceCode): TSESTree.Expression | undefined {
  const property = object?.properties.find(
    (p): p is TSESTree.Property => p.type === AST_NODE_TYPES.Property && p.kind === 'init' && getPropertyKeyName(p, sourceCode) === name,
  );
  return property?.value as TSESTree.Expression | undefined;
}

/**
 * The event objects `node` sends: an object literal, each element of an array literal, followed
 * through `const` bindings (`const evt = { id, name, data }; send(evt)`, `send([a, b])`), and what
 * the callback of `.map` / `.flatMap` / `Array.from(items, fn)` returns
 * (`send(ids.map((id) => ({ id: \`r-${id}\`, name, data })))`).
 */
function eventObjects(node: TSESTree.Node, sourceCode: SourceCode, depth: number): TSESTree.ObjectExpression[] {
  if (depth > MAX_EVENT_DEPTH) return [];
  const value = resolveConst(sourceCode, node);
  if (value.type === AST_NODE_TYPES.ObjectExpression) return [value];
  if (value.type === AST_NODE_TYPES.ArrayExpression) {
    return value.elements.flatMap((element) =>
      !element ? [] : eventObjects(element.type === AST_NODE_TYPES.SpreadElement ? element.argument : element, sourceCode, depth + 1),
    );
  }
  const callback = value.type === AST_NODE_TYPES.CallExpression ? mappingCallback(value, sourceCode) : undefined;
  return callback ? getReturnedExpressions(callback, sourceCode).flatMap((returned) => eventObjects(returned, sourceCode, depth + 1)) : [];
}

/** The element-making callback of `items.map(fn)`, `items.flatMap(fn)` or the global `Array.from(items, fn)`. */
function mappingCallback(call: TSESTree.CallExpression, sourceCode: SourceCode): FunctionNode | undefined {
  if (call.callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const method = getStaticPropertyName(call.callee);
  const isArrayFrom = method === 'from' && isGlobalArray(call.callee.object, sourceCode);
  const callback = isArrayFrom ? call.arguments[1] : method !== undefined && MAPPING_METHODS.has(method) ? call.arguments[0] : undefined;
  return isFunctionNode(callback) ? callback : undefined;
}

function isGlobalArray(node: TSESTree.Node, sourceCode: SourceCode): boolean {
  const reference = resolveReference(sourceCode, node);
  return reference?.source === GLOBAL_SOURCE && reference.path.join('.') === 'Array';
}

function lastName(node: TSESTree.Node): string | undefined {
  if (node.type === AST_NODE_TYPES.Identifier) return node.name;
  if (node.type === AST_NODE_TYPES.MemberExpression) return getStaticPropertyName(node);
  return undefined;
}

// --- seeded randomness -------------------------------------------------------------------------

/**
 * Is `node` in a Vercel Workflow `"use workflow"` function (and not in a `"use step"` one inside
 * it)? The Workflow SDK runs a workflow function deterministically: `Math.random`, `Date` and the
 * global `crypto.randomUUID` are seeded by the run and replay the same values; a step body is real
 * code that runs again on a retry.
 */
export function isInSeededWorkflow(node: TSESTree.Node, sourceCode: SourceCode): boolean {
  if (!mayUseWorkflowDirective(sourceCode)) return false;
  for (let current = node.parent; current; current = current.parent) {
    if (!isFunctionNode(current) || current.body.type !== AST_NODE_TYPES.BlockStatement) continue;
    const directive = getDirective(current.body);
    if (directive === 'use step') return false;
    if (directive === 'use workflow') return true;
  }
  return false;
}

const workflowDirectiveFiles = new WeakMap<SourceCode, boolean>();

function mayUseWorkflowDirective(sourceCode: SourceCode): boolean {
  let result = workflowDirectiveFiles.get(sourceCode);
  if (result === undefined) workflowDirectiveFiles.set(sourceCode, (result = sourceCode.text.includes('use workflow')));
  return result;
}

function getDirective(body: TSESTree.BlockStatement): string | undefined {
  for (const statement of body.body) {
    if (statement.type !== AST_NODE_TYPES.ExpressionStatement || !('directive' in statement) || typeof statement.directive !== 'string') return undefined;
    if (statement.directive === 'use workflow' || statement.directive === 'use step') return statement.directive;
  }
  return undefined;
}
