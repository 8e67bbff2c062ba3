import type { EffectLibrary, EffectOperation, KeySlot } from './catalogue.js';

// HTTP clients, judged by the request's method: GET, HEAD and OPTIONS read; PUT and DELETE are
// absolute (RFC 9110 §9.2.2: idempotent methods); POST creates; PATCH writes, idempotent or not
// depending on the patch. A POST passes a deduplication key in the `Idempotency-Key` header (the
// IETF httpapi Idempotency-Key draft; Stripe, Adyen, Square and others read it).

/** The header the IETF draft names; any key-named header counts as passing one. */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
const header = (argument: number): KeySlot => ({ header: IDEMPOTENCY_HEADER, argument });

/**
 * API hosts whose servers are documented to deduplicate POSTs by the `Idempotency-Key` header, by
 * the provider's name: a request there with the header is as keyed as the provider's SDK call.
 * Stripe: "Idempotent requests" (docs.stripe.com/api/idempotent_requests), keys kept at least 24 hours.
 */
export const KEY_HONOURING_HOSTS: Readonly<Record<string, string>> = { 'api.stripe.com': 'Stripe' };

/** The module {@link GLOBAL_SOURCE} of the ast layer stands for: globals such as `fetch`. */
const GLOBALS = '<global>';

const request = (call: string, config: number): EffectOperation => ({
  call,
  kind: 'unknown',
  from: { from: 'http', config, defaultMethod: 'GET' },
  key: header(config),
});
const verb = (call: string, method: string, keyArgument: number): EffectOperation => ({
  call,
  kind: 'unknown',
  from: { from: 'http', method, config: keyArgument },
  key: header(keyArgument),
});
/** `client.get(url, config)` … `client.post(url, data, config)`, as axios spells them. */
const dataVerbs = (bodyFirst: boolean): EffectOperation[] => [
  ...['get', 'delete', 'head', 'options'].map((name) => verb(name, name.toUpperCase(), 1)),
  ...['post', 'put', 'patch'].flatMap((name) => [verb(name, name.toUpperCase(), bodyFirst ? 2 : 1), verb(`${name}Form`, name.toUpperCase(), 2)]),
];

/** `fetch(input, init)`: the global, and the modules that export it. */
export const fetchApi: EffectLibrary = {
  name: 'fetch',
  genericHttp: true,
  modules: [GLOBALS, 'node-fetch', 'cross-fetch', 'isomorphic-fetch'],
  clients: [''],
  operations: ['fetch', 'globalThis.fetch', 'window.fetch', 'self.fetch', ''].map((call) => request(call, 1)),
};

/** undici: `fetch`, `request(url, { method })`, and `new Client(origin).request({ method, path })`. */
export const undici: EffectLibrary = {
  name: 'undici',
  genericHttp: true,
  modules: ['undici'],
  clients: ['', 'Client', 'Pool', 'Agent'],
  neutral: ['close', 'destroy'],
  operations: [request('fetch', 1), request('request', 1)],
};

/** axios: `axios(config)`, `axios(url, config)`, `axios.request(config)`, the verb methods, and `axios.create()` instances. */
export const axios: EffectLibrary = {
  name: 'axios',
  genericHttp: true,
  modules: ['axios'],
  clients: ['', 'create', 'Axios'],
  types: ['AxiosInstance', 'AxiosStatic'],
  neutral: ['interceptors.*', 'defaults.*', 'isAxiosError', 'isCancel'],
  operations: [request('', 0), request('request', 0), ...dataVerbs(true)],
};

/** got and ky: `got(url, { method })`, `got.post(url, options)`; their body goes in the options. */
export const gotAndKy: EffectLibrary = {
  name: 'got',
  genericHttp: true,
  modules: ['got', 'ky'],
  clients: ['', 'extend', 'create'],
  operations: [request('', 1), ...['get', 'delete', 'head', 'post', 'put', 'patch'].map((name) => verb(name, name.toUpperCase(), 1))],
};
