import type { EffectLibrary, EffectOperation, KeySlot } from './catalogue.js';
import { calls, creates } from './define.js';

// stripe-node (23.1): `new Stripe(key).<resource>[.<sub>…].<method>(…)`. Every method that sends a
// POST honours `idempotencyKey` in its request options, which follow the ids and the params (or
// sit in any later argument of only option keys). Creates and refunds make a new object on each
// call without a key; updates and deletes are absolute; other POSTs (capture, confirm, pay…) change
// state in ways a second call may or may not repeat.

/** POST methods that take no id before their params (most take one; those below take two). */
export const NO_ID = ['create', 'createForceCapture', 'createFromCalculation', 'createUnlinkedRefund', 'deleteWhere', 'recipientVerifications', 'reportPayment'];
export const TWO_IDS = [
  'updateBalanceTransaction', 'updateCapability', 'updateExternalAccount', 'updateLineItem', 'updatePerson', 'updateRefund',
  'updateReversal', 'updateSource', 'verifySource',
];
/** The other POST methods (one id before the params). */
export const ONE_ID = [
  'accept', 'acknowledge', 'activate', 'addLines', 'advance', 'applyCustomerBalance', 'approve', 'archive', 'attach', 'attachPayment',
  'cancel', 'cancelAction', 'capture', 'close', 'collectInputs', 'collectPaymentMethod', 'confirm', 'confirmMicrodeposits',
  'confirmPaymentIntent', 'createBalanceTransaction', 'createExternalAccount', 'createFeature', 'createFundingInstructions',
  'createLoginLink', 'createPerson', 'createRefund', 'createReversal', 'createSource', 'createTaxId', 'createUsageRecord', 'credit',
  'deactivate', 'decline', 'deliverCard', 'detach', 'disable', 'disconnect', 'enable', 'expire', 'fail', 'failCard', 'finalizeAmount',
  'finalizeInvoice', 'finalizeQuote', 'fundCashBalance', 'increment', 'incrementAuthorization', 'markUncollectible', 'migrate', 'pause',
  'pay', 'ping', 'post', 'presentPaymentMethod', 'processPaymentIntent', 'processSetupIntent', 'reactivate', 'redact', 'refresh',
  'refreshFxQuote', 'refreshRecipientVerification', 'refreshRegulatoryReceipt', 'refund', 'refundPayment', 'reject', 'release',
  'removeLines', 'reportPaymentAttempt', 'reportPaymentAttemptCanceled', 'reportPaymentAttemptFailed', 'reportPaymentAttemptGuaranteed',
  'reportPaymentAttemptInformational', 'reportRefund', 'respond', 'resume', 'returnCard', 'returnInboundTransfer',
  'returnOutboundPayment', 'returnOutboundTransfer', 'reverse', 'sendInvoice', 'sendMicrodeposits', 'setReaderDisplay', 'shipCard',
  'submit', 'submitCard', 'subscribe', 'succeed', 'succeedInputCollection', 'timeoutInputCollection', 'unarchive', 'uninstall',
  'unreject', 'unsubscribe', 'update', 'updateCashBalance', 'updateFeatures', 'updateLines', 'validate', 'verify',
  'verifyMicrodeposits', 'voidCreditNote', 'voidGrant', 'voidInvoice',
];
/** Every method of a Stripe resource that sends a POST, where Stripe honours `idempotencyKey`. */
export const STRIPE_POST_METHODS: ReadonlySet<string> = new Set([...NO_ID, ...TWO_IDS, ...ONE_ID]);

/** Keys stripe-node reads from an options argument. */
export const STRIPE_OPTION_KEYS: ReadonlySet<string> = new Set([
  'apiKey', 'idempotencyKey', 'stripeAccount', 'apiVersion', 'maxNetworkRetries', 'timeout', 'apiBase', 'host', 'authenticator',
  'stripeContext', 'headers', 'additionalHeaders', 'streaming',
]);

const key = (ids: number): KeySlot => ({ property: 'idempotencyKey', argument: ids + 1, optionsAnywhere: true });

function kindOf(method: string): Pick<EffectOperation, 'does' | 'kind'> {
  if (method.startsWith('create') || method === 'refund' || method === 'refundPayment' || method === 'credit') {
    return { kind: 'create', does: method.startsWith('create') ? 'creates a Stripe object' : 'refunds money' };
  }
  if (method === 'sendInvoice') return { kind: 'create', does: 'sends the invoice' };
  if (method === 'update' || method.startsWith('update') || method === 'deleteWhere') return { kind: 'absolute' };
  return { kind: 'write' };
}

function posts(ids: number, methods: readonly string[]): EffectOperation[] {
  return methods.map((method) => ({ call: `**.${method}`, ...kindOf(method), key: key(ids) }));
}

export const stripe: EffectLibrary = {
  sideEffects: 'money_out',
  name: 'Stripe',
  modules: ['stripe'],
  clients: ['default', 'Stripe'],
  // Not API resources (`stripe.webhooks.constructEvent`), or POSTs that take no key (`oauth.token`).
  neutral: ['webhooks.*', 'errors.*', 'oauth.*', 'on', 'off', 'once', 'setAppInfo', 'getApiField', 'setTelemetryEnabled'],
  operations: [
    // A POST named cancel that Stripe serves as a DELETE: no key, and a second call changes nothing.
    { call: 'subscriptions.cancel', kind: 'absolute' },
    ...posts(0, NO_ID),
    ...posts(2, TWO_IDS),
    ...posts(1, ONE_ID),
    ...calls('absolute', '**.del', '**.delete*'),
    ...calls('read', '**.retrieve*', '**.list*', '**.search', '**.search*'),
  ],
};

/**
 * Square (`square` 40+: `new SquareClient({ token }).payments.create({ idempotencyKey, … })`; the
 * legacy `new Client().paymentsApi.createPayment({ idempotencyKey, … })`): the key is a field of the
 * request body, required by most creates.
 */
export const square: EffectLibrary = {
  sideEffects: 'money_out',
  name: 'Square',
  modules: ['square', 'square/legacy'],
  clients: ['SquareClient', 'Client'],
  operations: [
    ...creates({ property: 'idempotencyKey', argument: 0 }, 'takes a payment', 'payments.create', 'paymentsApi.createPayment'),
    ...creates({ property: 'idempotencyKey', argument: 0 }, 'refunds money', 'refunds.refundPayment', 'refundsApi.refundPayment'),
    ...creates({ property: 'idempotencyKey', argument: 0 }, 'creates a Square object', '**.create', '**.create*'),
    ...calls('absolute', '**.update*', '**.delete*', '**.cancel*', '**.complete*', '**.upsert*'),
    ...calls('read', '**.get', '**.get*', '**.list', '**.list*', '**.search', '**.search*', '**.retrieve*'),
  ],
};

/**
 * PayPal's server SDK (`@paypal/paypal-server-sdk`): `new OrdersController(client).createOrder({ body,
 * paypalRequestId })`; PayPal deduplicates on the `PayPal-Request-Id` the SDK sends from `paypalRequestId`.
 */
export const paypal: EffectLibrary = {
  sideEffects: 'money_out',
  name: 'PayPal',
  modules: ['@paypal/paypal-server-sdk'],
  clients: ['OrdersController', 'PaymentsController', 'VaultController', 'SubscriptionsController'],
  operations: [
    ...creates({ property: 'paypalRequestId', argument: 0 }, 'creates an order', 'createOrder'),
    ...creates({ property: 'paypalRequestId', argument: 0 }, 'refunds money', 'refundCapturedPayment'),
    // A capture of part of an authorization takes money again on every call.
    ...creates({ property: 'paypalRequestId', argument: 0 }, 'captures a payment', 'captureAuthorizedPayment'),
    ...creates({ property: 'paypalRequestId', argument: 0 }, 'creates a PayPal object', 'create*'),
    // An order is captured or authorized once: a second call fails with ORDER_ALREADY_CAPTURED.
    ...calls('absolute', 'captureOrder', 'authorizeOrder', 'void*', 'delete*', 'cancel*'),
    ...calls('write', 'patch*', 'update*', 'reauthorize*'),
    ...calls('read', 'get*', 'list*', 'search*'),
  ],
};
