import type { JSONSchema, TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';
import { IDEMPOTENCY_HEADER, STRIPE_OPTION_KEYS, STRIPE_POST_METHODS } from './libraries/index.js';
import { NO_ID, TWO_IDS } from './libraries/index.js';

import {
  findProperty,
  getPropertyKeyName,
  GLOBAL_SOURCE,
  hasSpread,
  normalizeModuleName,
  resolveConst,
  resolveObject,
  resolveReference,
  staticString,
} from '../ast/index.js';
import { type Origin, resolveOrigin, withoutDefault } from './callOrigins.js';

// The catalogue of providers that deduplicate on a caller-supplied key (Stripe, fetch, undici, axios,
// and the `providers` option), and which calls reach one and where their key goes. Whether a call
// passes one is passedKeys.ts. Decided from syntax and imports alone, like the tool recognisers: the
// SDKs are not installed where the rules run.

type SourceCode = Readonly<TSESLint.SourceCode>;
type Invocation = TSESTree.CallExpression | TSESTree.NewExpression;

/** An extra provider, as given in the `providers` option. */
export interface KeyedProvider {
  /** Module the function or client class is imported from, e.g. `my-payments-sdk`. */
  readonly from: string;
  /** Names of the functions or client methods that take a key; `default` for a default-exported function. */
  readonly methods: readonly string[];
  /** Index of the argument that carries the key (default 1). */
  readonly argument?: number;
  /** The property of that argument that holds the key (default `idempotencyKey`). */
  readonly keyOption?: string;
  /** Instead of `keyOption`: the header, in that argument's `headers`, that holds the key. */
  readonly keyHeader?: string;
}

/** JSON schema of the `providers` option. */
export const providersSchema = {
  type: 'array',
  description: 'Extra functions or client methods that accept an idempotency key, and where it goes.',
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['from', 'methods'],
    properties: {
      from: { type: 'string', minLength: 1, description: 'Module the function or client class is imported from.' },
      methods: {
        type: 'array',
        minItems: 1,
        uniqueItems: true,
        items: { type: 'string', minLength: 1 },
        description: 'Function or method names that take a key (`default` for a default export).',
      },
      argument: { type: 'integer', minimum: 0, description: 'Index of the argument that carries the key (default 1).' },
      keyOption: { type: 'string', minLength: 1, description: 'Property of that argument holding the key (default `idempotencyKey`).' },
      keyHeader: { type: 'string', minLength: 1, description: 'Or: header, in that argument’s `headers`, holding the key.' },
    },
    not: { type: 'object', required: ['keyOption', 'keyHeader'] }, // one or the other
  },
} satisfies JSONSchema.JSONSchema4;

/** Where a provider call takes its key. */
export type KeyCarrier =
  /** A property of an options argument: Stripe's `{ idempotencyKey }`. */
  | { readonly kind: 'option'; readonly property: string }
  /** A header in the `headers` of a request config: `{ headers: { 'Idempotency-Key': key } }`. */
  | { readonly kind: 'header'; readonly header: string; readonly method: string };

/** A call to a provider that accepts an idempotency key. */
export interface KeyedProviderCall {
  readonly node: TSESTree.CallExpression;
  readonly provider: 'axios' | 'custom' | 'fetch' | 'stripe' | 'undici';
  readonly carrier: KeyCarrier;
  /** The call or `new Request(...)` whose argument holds the options or request config. */
  readonly target: Invocation;
  /** Index of that argument. */
  readonly argument: number;
  /** What to write for each missing argument before it: `{}` for Stripe's params, else `undefined`. */
  readonly filler: string;
  /** Stripe (before v18) reads its options from any trailing argument of only option keys: accept those too. */
  readonly keyInAnyArgument: boolean;
}

/** Methods of stripe-node (23.1) resources that send a POST, where Stripe honours `idempotencyKey`. */
/** Methods of stripe-node (23.1) resources that send a POST: the effects catalogue's Stripe entry. */
export const STRIPE_MUTATING_METHODS: ReadonlySet<string> = STRIPE_POST_METHODS;
// Stripe namespaces that are not API resources (`stripe.webhooks.constructEvent`), or whose POSTs
// take no key (`stripe.oauth.token`), and the one POST-named method that is a DELETE.
const STRIPE_EXEMPT_NAMESPACES = new Set(['errors', 'oauth', 'webhooks']);
const STRIPE_EXEMPT_CALLS = new Set(['subscriptions.cancel']);
/** Methods that take no id before their params (most others take one; these take two). */
const STRIPE_NO_ID: ReadonlySet<string> = new Set(NO_ID);
const STRIPE_TWO_IDS: ReadonlySet<string> = new Set(TWO_IDS);
/** Keys stripe-node reads from an options argument: a literal with only these keys is the options. */


/** HTTP methods that create or change something and so need a key (DELETE is idempotent by definition). */
const KEYED_HTTP_METHODS = new Set(['PATCH', 'POST', 'PUT']);
const AXIOS_VERBS = new Map([
  ['post', 'POST'], ['put', 'PUT'], ['patch', 'PATCH'], ['postForm', 'POST'], ['putForm', 'PUT'], ['patchForm', 'PATCH'],
  ['get', 'GET'], ['delete', 'DELETE'], ['head', 'HEAD'], ['options', 'OPTIONS'],
]);
const GLOBAL_FETCH = new Set(['fetch', 'globalThis.fetch', 'window.fetch', 'self.fetch']);
const FETCH_MODULES = new Set(['cross-fetch', 'isomorphic-fetch', 'node-fetch']);

/**
 * Builds the recogniser for one file: built-in Stripe, fetch, undici and axios, plus `providers`.
 * The configured providers are tried first, so that they can say more about a module than the defaults.
 */
export function createProviderRecogniser(
  sourceCode: SourceCode,
  providers: readonly KeyedProvider[] = [],
): (node: TSESTree.CallExpression) => KeyedProviderCall | undefined {
  return (node) => {
    const origin = resolveOrigin(sourceCode, node.callee);
    if (!origin) return undefined;
    for (const provider of providers) {
      const call = asCustomCall(node, origin, provider);
      if (call) return call;
    }
    return asStripeCall(node, origin) ?? asHttpCall(sourceCode, node, origin);
  };
}

function asCustomCall(node: TSESTree.CallExpression, origin: Origin, provider: KeyedProvider): KeyedProviderCall | undefined {
  if (origin.source !== normalizeModuleName(provider.from)) return undefined;
  const path = origin.kind === 'import' ? origin.path : origin.members;
  const method = path.length === 0 ? 'default' : path.at(-1);
  if (method === undefined || !provider.methods.includes(method)) return undefined;
  const carrier: KeyCarrier =
    provider.keyHeader === undefined
      ? { kind: 'option', property: provider.keyOption ?? 'idempotencyKey' }
      : { kind: 'header', header: provider.keyHeader, method: 'POST' };
  return { node, provider: 'custom', carrier, target: node, argument: provider.argument ?? 1, filler: 'undefined', keyInAnyArgument: false };
}

/** `stripe.<resource>[.<sub>...].<method>(...)` on a Stripe client, for a method that sends a POST. */
function asStripeCall(node: TSESTree.CallExpression, origin: Origin): KeyedProviderCall | undefined {
  if (origin.kind !== 'instance' || origin.source !== 'stripe' || !['', 'Stripe'].includes(origin.factory)) return undefined;
  const { members } = origin;
  const method = members.at(-1);
  const resource = members.slice(0, -1).join('.');
  if (method === undefined || members.length < 2 || members.length > 5) return undefined;
  if (STRIPE_EXEMPT_NAMESPACES.has(members[0] ?? '') || STRIPE_EXEMPT_CALLS.has(`${resource}.${method}`)) return undefined;
  if (!STRIPE_MUTATING_METHODS.has(method)) return undefined;
  const ids = STRIPE_NO_ID.has(method) ? 0 : STRIPE_TWO_IDS.has(method) ? 2 : 1;
  // The params literal, where one is written, fixes the position better than the method's name.
  const paramsIndex = node.arguments.findIndex(
    (argument) => argument.type === AST_NODE_TYPES.ObjectExpression && !isStripeOptions(argument),
  );
  const argument = paramsIndex === -1 ? ids + 1 : paramsIndex + 1;
  const carrier: KeyCarrier = { kind: 'option', property: 'idempotencyKey' };
  return { node, provider: 'stripe', carrier, target: node, argument, filler: '{}', keyInAnyArgument: true };
}

/** A literal of only the keys stripe-node reads as request options (`idempotencyKey`, `stripeAccount`, ...). */
export function isStripeOptions(object: TSESTree.ObjectExpression): boolean {
  return (
    object.properties.length > 0 &&
    object.properties.every((p) => p.type === AST_NODE_TYPES.Property && STRIPE_OPTION_KEYS.has(getPropertyKeyName(p) ?? ''))
  );
}

/** fetch, undici and axios requests whose method is POST, PUT or PATCH (statically known). */
function asHttpCall(sourceCode: SourceCode, node: TSESTree.CallExpression, origin: Origin): KeyedProviderCall | undefined {
  const request = getHttpRequest(sourceCode, node, origin);
  if (!request) return undefined;
  const config = request.target.arguments[request.argument];
  const method = request.method ?? getConfigMethod(sourceCode, config, request.defaultMethod);
  if (method === undefined || !KEYED_HTTP_METHODS.has(method)) return undefined;
  return {
    node,
    provider: request.provider,
    carrier: { kind: 'header', header: IDEMPOTENCY_HEADER, method },
    target: request.target,
    argument: request.argument,
    filler: 'undefined',
    keyInAnyArgument: false,
  };
}

interface HttpRequest {
  readonly provider: 'axios' | 'fetch' | 'undici';
  readonly target: Invocation;
  readonly argument: number;
  /** The method fixed by the function (`axios.post`), else read from the config. */
  readonly method?: string;
  readonly defaultMethod: string;
}

function getHttpRequest(sourceCode: SourceCode, node: TSESTree.CallExpression, origin: Origin): HttpRequest | undefined {
  const path = origin.kind === 'import' ? withoutDefault(origin.path).join('.') : undefined;
  const isFetch =
    (origin.kind === 'import' && origin.source === GLOBAL_SOURCE && GLOBAL_FETCH.has(path ?? '')) ||
    (origin.kind === 'import' && origin.source === 'undici' && path === 'fetch') ||
    (origin.kind === 'import' && FETCH_MODULES.has(origin.source) && path === '');
  if (isFetch) return getFetchRequest(sourceCode, node, origin.source === 'undici' ? 'undici' : 'fetch');
  if (origin.kind === 'import' && origin.source === 'undici' && path === 'request') {
    return { provider: 'undici', target: node, argument: 1, defaultMethod: 'GET' };
  }
  if (origin.source !== 'axios') return undefined;
  // An axios instance behaves as the default export: callable, with the verb methods and `request`.
  const member =
    origin.kind === 'import' ? path
    : ['create', 'Axios', 'AxiosInstance', 'AxiosStatic'].includes(origin.factory) ? origin.members.join('.')
    : undefined;
  if (member === '') {
    const configFirst = resolveObject(sourceCode, node.arguments[0]) !== undefined || node.arguments.length < 2;
    return { provider: 'axios', target: node, argument: configFirst ? 0 : 1, defaultMethod: 'GET' };
  }
  if (member === 'request') return { provider: 'axios', target: node, argument: 0, defaultMethod: 'GET' };
  const verb = member === undefined ? undefined : AXIOS_VERBS.get(member);
  if (verb === undefined) return undefined;
  const hasData = verb === 'POST' || verb === 'PUT' || verb === 'PATCH';
  return { provider: 'axios', target: node, argument: hasData ? 2 : 1, method: verb, defaultMethod: verb };
}

/** `fetch(url, init)`, or `fetch(new Request(url, init))` when no init follows the request. */
function getFetchRequest(sourceCode: SourceCode, node: TSESTree.CallExpression, provider: 'fetch' | 'undici'): HttpRequest {
  const [input, init] = node.arguments;
  const request = input && !init ? resolveConst(sourceCode, input) : undefined;
  if (request?.type === AST_NODE_TYPES.NewExpression) {
    const reference = resolveReference(sourceCode, request.callee);
    const isRequest =
      (reference?.source === GLOBAL_SOURCE && reference.path.join('.') === 'Request') ||
      (reference?.source === 'undici' && reference.path.join('.') === 'Request');
    if (isRequest) return { provider, target: request, argument: 1, defaultMethod: 'GET' };
  }
  return { provider, target: node, argument: 1, defaultMethod: 'GET' };
}

/** The upper-cased `method` of a request config; `undefined` when it is not statically known. */
function getConfigMethod(sourceCode: SourceCode, config: TSESTree.Node | undefined, defaultMethod: string): string | undefined {
  if (!config) return defaultMethod;
  const object = resolveObject(sourceCode, config);
  if (!object) return undefined;
  const property = findProperty(object, 'method');
  if (!property) return hasSpread(object) ? undefined : defaultMethod;
  return staticString(sourceCode, property.value)?.toUpperCase();
}

/** The callee as written, for messages: `stripe.refunds.create`, `fetch`, `api.post`. */
export function describeCallee(call: Pick<KeyedProviderCall, 'node'>, sourceCode: SourceCode): string {
  const text = sourceCode.getText(call.node.callee).replace(/\s+/g, '');
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
