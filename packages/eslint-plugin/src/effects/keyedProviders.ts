import type { JSONSchema, TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES, ASTUtils } from '@typescript-eslint/utils';

import {
  findProperty,
  getMemberChain,
  GLOBAL_SOURCE,
  hasSpread,
  normalizeModuleName,
  resolveConst,
  resolveObject,
  resolveReference,
  staticString,
} from '../ast/index.js';
import { getKeyPositions, type KeyNameMatcher } from '../keys/index.js';

// Which calls reach a provider that deduplicates on a caller-supplied key, where that key goes, and
// whether a given call passes one. Decided from syntax and imports alone, like the tool recognisers:
// the SDKs are not installed where the rules run. The file is longer than most because Stripe's
// method list and the shapes of the three HTTP clients belong together.

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

/** How to add a missing key. */
export type KeyInsertion =
  /** Add the key property or header to this object literal. */
  | { readonly kind: 'property'; readonly object: TSESTree.ObjectExpression }
  /** Add `headers: { ... }` to this request config literal. */
  | { readonly kind: 'headers'; readonly object: TSESTree.ObjectExpression }
  /** Add the options or config as argument `index` of `call`, after `fillers` for the arguments before it. */
  | { readonly kind: 'argument'; readonly call: Invocation; readonly fillers: readonly string[] };

/** Whether a call passes a key, and the key's expression or how to add one. */
export type PassedKey =
  | { readonly kind: 'passed'; readonly value: TSESTree.Expression }
  /** No key; `insertion` is missing when there is no safe place to add one. */
  | { readonly kind: 'missing'; readonly insertion: KeyInsertion | undefined }
  /** The options or headers are not visible (spread, a parameter, built by a call). */
  | { readonly kind: 'unknown' };

/** Methods of stripe-node (23.1) resources that send a POST, where Stripe honours `idempotencyKey`. */
export const STRIPE_MUTATING_METHODS: ReadonlySet<string> = new Set([
  'accept', 'acknowledge', 'activate', 'addLines', 'advance', 'applyCustomerBalance', 'approve', 'archive', 'attach',
  'attachPayment', 'cancel', 'cancelAction', 'capture', 'close', 'collectInputs', 'collectPaymentMethod', 'confirm',
  'confirmMicrodeposits', 'confirmPaymentIntent', 'create', 'createBalanceTransaction', 'createExternalAccount',
  'createFeature', 'createForceCapture', 'createFromCalculation', 'createFundingInstructions', 'createLoginLink',
  'createPerson', 'createRefund', 'createReversal', 'createSource', 'createTaxId', 'createUnlinkedRefund', 'createUsageRecord',
  'credit', 'deactivate', 'decline', 'deleteWhere', 'deliverCard', 'detach', 'disable', 'disconnect', 'enable', 'expire',
  'fail', 'failCard', 'finalizeAmount', 'finalizeInvoice', 'finalizeQuote', 'fundCashBalance', 'increment',
  'incrementAuthorization', 'markUncollectible', 'migrate', 'pause', 'pay', 'ping', 'post', 'presentPaymentMethod',
  'processPaymentIntent', 'processSetupIntent', 'reactivate', 'recipientVerifications', 'redact', 'refresh',
  'refreshFxQuote', 'refreshRecipientVerification', 'refreshRegulatoryReceipt', 'refund', 'refundPayment', 'reject',
  'release', 'removeLines', 'reportPayment', 'reportPaymentAttempt', 'reportPaymentAttemptCanceled',
  'reportPaymentAttemptFailed', 'reportPaymentAttemptGuaranteed', 'reportPaymentAttemptInformational', 'reportRefund',
  'respond', 'resume', 'returnCard', 'returnInboundTransfer', 'returnOutboundPayment', 'returnOutboundTransfer', 'reverse',
  'sendInvoice', 'sendMicrodeposits', 'setReaderDisplay', 'shipCard', 'submit', 'submitCard', 'subscribe', 'succeed',
  'succeedInputCollection', 'timeoutInputCollection', 'unarchive', 'uninstall', 'unreject', 'unsubscribe', 'update',
  'updateBalanceTransaction', 'updateCapability', 'updateCashBalance', 'updateExternalAccount', 'updateFeatures',
  'updateLineItem', 'updateLines', 'updatePerson', 'updateRefund', 'updateReversal', 'updateSource', 'validate', 'verify',
  'verifyMicrodeposits', 'verifySource', 'voidCreditNote', 'voidGrant', 'voidInvoice',
]);
// Stripe namespaces that are not API resources (`stripe.webhooks.constructEvent`), or whose POSTs
// take no key (`stripe.oauth.token`), and the one POST-named method that is a DELETE.
const STRIPE_EXEMPT_NAMESPACES = new Set(['errors', 'oauth', 'webhooks']);
const STRIPE_EXEMPT_CALLS = new Set(['subscriptions.cancel']);
/** Methods that take no id before their params (most others take one; these take two). */
const STRIPE_NO_ID = new Set([
  'create', 'createForceCapture', 'createFromCalculation', 'createUnlinkedRefund', 'deleteWhere', 'recipientVerifications', 'reportPayment',
]);
const STRIPE_TWO_IDS = new Set([
  'updateBalanceTransaction', 'updateCapability', 'updateExternalAccount', 'updateLineItem', 'updatePerson', 'updateRefund',
  'updateReversal', 'updateSource', 'verifySource',
]);
/** Keys stripe-node reads from an options argument: a literal with only these keys is the options. */
const STRIPE_OPTION_KEYS = new Set([
  'apiKey', 'idempotencyKey', 'stripeAccount', 'apiVersion', 'maxNetworkRetries', 'timeout', 'apiBase', 'host',
  'authenticator', 'stripeContext', 'headers', 'additionalHeaders', 'streaming',
]);

/** HTTP methods that create or change something and so need a key (DELETE is idempotent by definition). */
const KEYED_HTTP_METHODS = new Set(['PATCH', 'POST', 'PUT']);
const AXIOS_VERBS = new Map([
  ['post', 'POST'], ['put', 'PUT'], ['patch', 'PATCH'], ['postForm', 'POST'], ['putForm', 'PUT'], ['patchForm', 'PATCH'],
  ['get', 'GET'], ['delete', 'DELETE'], ['head', 'HEAD'], ['options', 'OPTIONS'],
]);
const GLOBAL_FETCH = new Set(['fetch', 'globalThis.fetch', 'window.fetch', 'self.fetch']);
const FETCH_MODULES = new Set(['cross-fetch', 'isomorphic-fetch', 'node-fetch']);
const IDEMPOTENCY_HEADER = 'Idempotency-Key';
/** Names an imported Stripe client goes by when the module that creates it is the app's own. */
const STRIPE_CLIENT_NAME = /^stripe(Client)?$/i;

/** A value produced by a constructor or factory: `new Stripe(...)`, `axios.create()`, `x: Stripe`. */
interface Instance {
  readonly source: string;
  /** Export path of the class or factory, without a leading `default`. */
  readonly factory: string;
  /** Members read below the instance, the called method last: `['refunds', 'create']`. */
  readonly members: readonly string[];
}

/** What a callee is: an imported function or member, or a member of an instance. */
type Origin =
  | { readonly kind: 'import'; readonly source: string; readonly path: readonly string[] }
  | ({ readonly kind: 'instance' } & Instance);

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

function isStripeOptions(object: TSESTree.ObjectExpression): boolean {
  return (
    object.properties.length > 0 &&
    object.properties.every((p) => p.type === AST_NODE_TYPES.Property && STRIPE_OPTION_KEYS.has(propertyName(p) ?? ''))
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

/**
 * Whether `call` passes a key where its provider reads one. For headers, any key name of
 * `matchKeyName` counts (in any letter case), set in the config literal, in `new Headers(...)`, or on
 * a headers variable with `headers.set(...)` / `headers[name] = ...`.
 */
export function findPassedKey(call: KeyedProviderCall, sourceCode: SourceCode, matchKeyName: KeyNameMatcher): PassedKey {
  const { target, argument } = call;
  const args = target.arguments;
  if (args.slice(0, argument + 1).some((a) => a.type === AST_NODE_TYPES.SpreadElement)) return { kind: 'unknown' };
  if (call.carrier.kind === 'option') {
    const property = call.carrier.property;
    for (const [index, candidate] of args.entries()) {
      const object = resolveObject(sourceCode, candidate);
      if (index !== argument && !(call.keyInAnyArgument && object && isStripeOptions(object))) continue;
      const found = findProperty(object, property);
      if (found) return { kind: 'passed', value: found.value as TSESTree.Expression };
    }
  }
  const configNode = args[argument];
  if (!configNode) {
    // One filler at most (Stripe's params, axios's data): a missing id or URL is not ours to invent.
    const fillers = Array.from({ length: argument - args.length }, () => call.filler);
    const insertion: KeyInsertion | undefined = fillers.length <= 1 ? { kind: 'argument', call: target, fillers } : undefined;
    return { kind: 'missing', insertion };
  }
  const config = resolveObject(sourceCode, configNode);
  if (!config) return { kind: 'unknown' };
  if (call.carrier.kind === 'option') {
    return hasSpread(config) ? { kind: 'unknown' } : { kind: 'missing', insertion: { kind: 'property', object: config } };
  }
  const headers = findProperty(config, 'headers');
  if (!headers) {
    return hasSpread(config) ? { kind: 'unknown' } : { kind: 'missing', insertion: { kind: 'headers', object: config } };
  }
  const header = call.carrier.header;
  return findHeaderKey(sourceCode, headers.value, (name) => matchKeyName(name) ?? (sameHeader(name, header) ? name : undefined));
}

/** A key among headers given as an object, `new Headers(...)`, an array of pairs, or a variable set later. */
function findHeaderKey(sourceCode: SourceCode, node: TSESTree.Node, matchKeyName: KeyNameMatcher, depth = 0): PassedKey {
  const setLater = node.type === AST_NODE_TYPES.Identifier ? findHeaderSetOn(sourceCode, node, matchKeyName) : undefined;
  if (setLater) return { kind: 'passed', value: setLater };
  const value = resolveConst(sourceCode, node);
  const context = { sourceCode, matchKeyName };
  if (value.type === AST_NODE_TYPES.ObjectExpression) {
    for (const property of value.properties) {
      const [position] = getKeyPositions(property, context);
      if (position) return { kind: 'passed', value: position.value };
    }
    return hasSpread(value) ? { kind: 'unknown' } : { kind: 'missing', insertion: { kind: 'property', object: value } };
  }
  if (value.type === AST_NODE_TYPES.NewExpression && depth < 2) {
    const [position] = getKeyPositions(value, context); // new Headers([['Idempotency-Key', key]])
    if (position) return { kind: 'passed', value: position.value };
    const [init] = value.arguments;
    if (!init) return { kind: 'missing', insertion: undefined };
    return init.type === AST_NODE_TYPES.SpreadElement ? { kind: 'unknown' } : findHeaderKey(sourceCode, init, matchKeyName, depth + 1);
  }
  if (value.type === AST_NODE_TYPES.ArrayExpression) return findKeyInHeaderArray(sourceCode, value, matchKeyName);
  return { kind: 'unknown' };
}

/** undici's flat `['name', value, ...]` and the entries form `[['name', value], ...]`. */
function findKeyInHeaderArray(sourceCode: SourceCode, array: TSESTree.ArrayExpression, matchKeyName: KeyNameMatcher): PassedKey {
  const elements = array.elements;
  for (const [index, element] of elements.entries()) {
    if (!element || element.type === AST_NODE_TYPES.SpreadElement) return { kind: 'unknown' };
    const pair = element.type === AST_NODE_TYPES.ArrayExpression ? element.elements : [element, elements[index + 1]];
    const [name, value] = pair;
    const headerName = name && name.type !== AST_NODE_TYPES.SpreadElement ? staticString(sourceCode, name) : undefined;
    if (headerName !== undefined && matchKeyName(headerName) !== undefined && value && value.type !== AST_NODE_TYPES.SpreadElement) {
      return { kind: 'passed', value };
    }
  }
  return { kind: 'missing', insertion: undefined };
}

/** `headers.set('Idempotency-Key', v)` or `headers['Idempotency-Key'] = v` on the variable `node` reads. */
function findHeaderSetOn(sourceCode: SourceCode, node: TSESTree.Identifier, matchKeyName: KeyNameMatcher): TSESTree.Expression | undefined {
  const variable = ASTUtils.findVariable(sourceCode.getScope(node), node);
  for (const reference of variable?.references ?? []) {
    const member = reference.identifier.parent;
    if (member?.type !== AST_NODE_TYPES.MemberExpression || member.object !== reference.identifier) continue;
    const user = member.parent;
    if (user.type !== AST_NODE_TYPES.CallExpression && user.type !== AST_NODE_TYPES.AssignmentExpression) continue;
    const [position] = getKeyPositions(user, { sourceCode, matchKeyName });
    if (position) return position.value;
  }
  return undefined;
}

/**
 * Resolves a callee to an import (`fetch`, `axios.post`, `undici.request`) or to a member of an
 * instance: a variable initialised with `new X(...)`, `X(...)`, `X.create(...)` or
 * `require('m')(...)`, or declared with a type imported from a module (`stripe: Stripe`).
 */
function resolveOrigin(sourceCode: SourceCode, callee: TSESTree.Node): Origin | undefined {
  const chain = getMemberChain(callee);
  const imported = resolveReference(sourceCode, callee);
  if (imported) {
    // `import { stripe } from './lib/stripe'`: the app's own client module, known by its name alone.
    const [root, ...members] = chain ?? [];
    const isStripeClient = imported.source !== GLOBAL_SOURCE && imported.source !== 'stripe' && STRIPE_CLIENT_NAME.test(root?.name ?? '');
    return isStripeClient ? { kind: 'instance', source: 'stripe', factory: '', members } : { kind: 'import', ...imported };
  }
  if (!chain) return undefined;
  const [root, ...members] = chain;
  const variable = ASTUtils.findVariable(sourceCode.getScope(root), root);
  const def = variable?.defs[0];
  if (!variable || !def || variable.defs.length !== 1) return undefined;
  const name = def.name;
  const typeAnnotation =
    name.type === AST_NODE_TYPES.Identifier ? name.typeAnnotation?.typeAnnotation : undefined;
  const fromType = typeAnnotation && instanceOfType(sourceCode, typeAnnotation);
  if (fromType) return { kind: 'instance', ...fromType, members };
  if (def.type !== 'Variable' || def.node.id !== name || !def.node.init) return undefined;
  const fromValue = instanceOfValue(sourceCode, def.node.init);
  return fromValue && { kind: 'instance', ...fromValue, members };
}

function instanceOfValue(sourceCode: SourceCode, init: TSESTree.Expression): Omit<Instance, 'members'> | undefined {
  const value = unwrapValue(init);
  if (value.type !== AST_NODE_TYPES.NewExpression && value.type !== AST_NODE_TYPES.CallExpression) return undefined;
  const callee = unwrapValue(value.callee);
  const required = callee.type === AST_NODE_TYPES.CallExpression ? requiredModule(callee) : undefined;
  if (required !== undefined) return { source: required, factory: '' };
  const reference = resolveReference(sourceCode, callee);
  return reference && { source: reference.source, factory: withoutDefault(reference.path).join('.') };
}

function instanceOfType(sourceCode: SourceCode, type: TSESTree.TypeNode): Omit<Instance, 'members'> | undefined {
  if (type.type === AST_NODE_TYPES.TSUnionType) {
    return type.types.map((member) => instanceOfType(sourceCode, member)).find(Boolean); // `Stripe | undefined`
  }
  if (type.type !== AST_NODE_TYPES.TSTypeReference) return undefined;
  const names: string[] = [];
  let typeName: TSESTree.EntityName = type.typeName;
  while (typeName.type === AST_NODE_TYPES.TSQualifiedName) {
    names.unshift(typeName.right.name);
    typeName = typeName.left;
  }
  if (typeName.type !== AST_NODE_TYPES.Identifier) return undefined;
  const reference = resolveReference(sourceCode, typeName);
  if (!reference || reference.source === GLOBAL_SOURCE) return undefined;
  return { source: reference.source, factory: withoutDefault([...reference.path, ...names]).join('.') };
}

function requiredModule(call: TSESTree.CallExpression): string | undefined {
  const [argument] = call.arguments;
  const isRequire = call.callee.type === AST_NODE_TYPES.Identifier && call.callee.name === 'require';
  if (!isRequire || argument?.type !== AST_NODE_TYPES.Literal || typeof argument.value !== 'string') return undefined;
  return normalizeModuleName(argument.value);
}

function unwrapValue(node: TSESTree.Node): TSESTree.Node {
  switch (node.type) {
    case AST_NODE_TYPES.AwaitExpression:
      return unwrapValue(node.argument);
    case AST_NODE_TYPES.ChainExpression:
    case AST_NODE_TYPES.TSAsExpression:
    case AST_NODE_TYPES.TSNonNullExpression:
    case AST_NODE_TYPES.TSSatisfiesExpression:
      return unwrapValue(node.expression);
    default:
      return node;
  }
}

function withoutDefault(path: readonly string[]): readonly string[] {
  return path[0] === 'default' ? path.slice(1) : path;
}

function sameHeader(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

function propertyName(property: TSESTree.Property): string | undefined {
  if (property.key.type === AST_NODE_TYPES.Identifier && !property.computed) return property.key.name;
  return property.key.type === AST_NODE_TYPES.Literal ? String(property.key.value) : undefined;
}

/** The callee as written, for messages: `stripe.refunds.create`, `fetch`, `api.post`. */
export function describeCallee(call: KeyedProviderCall, sourceCode: SourceCode): string {
  const text = sourceCode.getText(call.node.callee).replace(/\s+/g, '');
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
