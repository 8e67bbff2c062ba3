import type { EffectLibrary } from './catalogue.js';
import { calls, commandCall, creates } from './define.js';

const SENDS = 'sends an email';

/** Resend: `resend.emails.send(payload, { idempotencyKey })` (since May 2025; batches too). */
export const resend: EffectLibrary = {
  sideEffects: 'message_out',
  name: 'Resend',
  modules: ['resend'],
  clients: ['Resend'],
  operations: [
    ...creates({ property: 'idempotencyKey', argument: 1 }, SENDS, 'emails.send', 'emails.create', 'batch.send', 'batch.create'),
    ...creates('none', 'sends a broadcast', 'broadcasts.send'),
    ...creates('none', 'creates a resource', '*.create'),
    ...calls('absolute', '*.update', '*.remove', '*.delete', 'emails.cancel'),
    ...calls('read', '*.get', '*.list'),
  ],
};

/** SendGrid: the `@sendgrid/mail` default instance, or `new MailService()`; no deduplication key. */
export const sendgrid: EffectLibrary = {
  sideEffects: 'message_out',
  name: 'SendGrid',
  modules: ['@sendgrid/mail'],
  clients: ['', 'MailService'],
  neutral: ['setApiKey', 'setClient', 'setTwilioEmailAuth', 'setTimeout', 'setSubstitutionWrappers', 'setDefaultRequest'],
  operations: creates('none', SENDS, 'send', 'sendMultiple', 'default.send', 'default.sendMultiple'),
};

/** Postmark: `new postmark.ServerClient(token).sendEmail(…)`; no deduplication key. */
export const postmark: EffectLibrary = {
  sideEffects: 'message_out',
  name: 'Postmark',
  modules: ['postmark'],
  clients: ['ServerClient', 'AccountClient', 'Client'],
  operations: [
    ...creates('none', SENDS, 'sendEmail*'),
    ...creates('none', 'creates a resource', 'create*'),
    ...calls('absolute', 'edit*', 'delete*'),
    ...calls('read', 'get*'),
  ],
};

/** Nodemailer: `nodemailer.createTransport(options).sendMail(message)`; no deduplication key. */
export const nodemailer: EffectLibrary = {
  sideEffects: 'message_out',
  name: 'Nodemailer',
  modules: ['nodemailer'],
  clients: ['createTransport'],
  types: ['Transporter'],
  // `createTransport({ streamTransport: true })` renders the message (as the Gmail MCP server does
  // to build the MIME it hands to the Gmail API) and sends nothing.
  offlineOptions: ['streamTransport', 'jsonTransport'],
  neutral: ['verify', 'close', 'use', 'on'],
  operations: creates('none', SENDS, 'sendMail'),
};

/** Mailgun: `new Mailgun(FormData).client({ … }).messages.create(domain, data)`; no deduplication key. */
export const mailgun: EffectLibrary = {
  sideEffects: 'message_out',
  name: 'Mailgun',
  modules: ['mailgun.js'],
  clients: ['default'],
  clientMethods: ['client'],
  operations: [...creates('none', SENDS, 'messages.create'), ...calls('read', '*.get', '*.list')],
};

/** Amazon SES (v1 and v2 clients): `client.send(new SendEmailCommand(input))`; SES takes no deduplication key. */
export const ses: EffectLibrary = {
  sideEffects: 'message_out',
  name: 'Amazon SES',
  modules: ['@aws-sdk/client-ses', '@aws-sdk/client-sesv2'],
  clients: ['SESClient', 'SES', 'SESv2Client', 'SESv2'],
  neutral: ['destroy', 'middlewareStack.add'],
  commands: ['SendEmailCommand', 'SendRawEmailCommand', 'SendTemplatedEmailCommand', 'SendBulkTemplatedEmailCommand', 'SendBulkEmailCommand'].map(
    (name) => ({ name, kind: 'create', key: 'none', does: SENDS }),
  ),
  operations: [commandCall(), ...creates('none', SENDS, 'sendEmail', 'sendRawEmail', 'sendTemplatedEmail', 'sendBulkTemplatedEmail', 'sendBulkEmail')],
};

/** Twilio: `twilio(sid, token).messages.create(…)`, `calls.create(…)`; no deduplication key for either. */
export const twilio: EffectLibrary = {
  sideEffects: 'message_out',
  name: 'Twilio',
  modules: ['twilio'],
  clients: ['default', 'Twilio'],
  operations: [
    ...creates('none', 'sends a message', 'messages.create', '**.messages.create'),
    ...creates('none', 'places a call', 'calls.create', '**.calls.create'),
    ...creates('none', 'creates a resource', '**.create'),
    ...calls('absolute', '**.update', '**.remove'),
    ...calls('read', '**.fetch', '**.list', '**.each', '**.page'),
  ],
};

/** Slack's Web API client: `new WebClient(token).chat.postMessage(…)`; no deduplication key. */
export const slack: EffectLibrary = {
  sideEffects: 'message_out',
  name: 'Slack',
  modules: ['@slack/web-api'],
  clients: ['WebClient'],
  operations: [
    ...creates('none', 'posts a message', 'chat.postMessage', 'chat.postEphemeral', 'chat.scheduleMessage', 'chat.meMessage'),
    ...creates('none', 'uploads a file', 'files.upload', 'files.uploadV2'),
    ...creates('none', 'creates a channel', 'conversations.create'),
    // Slack refuses a second identical reaction (`already_reacted`): nothing is added twice.
    ...calls('absolute', 'chat.update', 'chat.delete', 'reactions.add', 'reactions.remove', 'pins.add', 'pins.remove', 'conversations.archive'),
    ...calls('read', '**.list', '**.history', '**.replies', '**.info', '**.members', '**.get*', '**.lookupByEmail', 'search.*'),
  ],
};

/** Notion: `new Client({ auth }).pages.create(…)`; appending blocks adds them again on every call. */
export const notion: EffectLibrary = {
  name: 'Notion',
  modules: ['@notionhq/client'],
  clients: ['Client'],
  operations: [
    ...creates('none', 'creates a page', 'pages.create'),
    ...creates('none', 'creates a comment', 'comments.create'),
    ...creates('none', 'creates a database', 'databases.create', 'dataSources.create'),
    ...calls('relative', 'blocks.children.append'),
    ...calls('absolute', 'pages.update', 'pages.properties.update', 'blocks.update', 'blocks.delete', 'databases.update', 'dataSources.update'),
    ...calls('read', '**.retrieve', '**.list', 'databases.query', 'dataSources.query', 'search'),
  ],
};

/**
 * Octokit (`octokit`, `@octokit/rest`, `@octokit/core`): REST methods by their verb
 * (`rest.issues.create`, `issues.createComment`, `pulls.merge`), `request('POST /repos/…')` by its
 * route, `graphql(query)` by whether it is a mutation. GitHub takes no deduplication key.
 */
export const octokit: EffectLibrary = {
  name: 'Octokit',
  modules: ['octokit', '@octokit/rest', '@octokit/core'],
  clients: ['Octokit', 'App'],
  neutral: ['hook.*', 'log.*', 'auth'],
  operations: [
    { call: 'request', kind: 'unknown', from: { from: 'http', route: 0 }, key: 'none' },
    { call: 'graphql', kind: 'unknown', from: { from: 'graphql', argument: 0 } },
    ...calls('read', 'paginate', 'paginate.iterator'),
    // A file written by path and blob SHA: the second call's SHA is stale and fails.
    ...calls('absolute', '**.createOrUpdate*'),
    ...creates('none', 'creates a GitHub resource', '**.create*'),
    ...calls('absolute', '**.update*', '**.delete*', '**.remove*', '**.add*', '**.set*', '**.merge*', '**.lock', '**.unlock'),
    ...calls('read', '**.get*', '**.list*', '**.search*', '**.check*', '**.compare*'),
  ],
};

/**
 * Google's API clients (`googleapis`): `google.gmail({ version, auth }).users.messages.send(…)`,
 * `google.calendar(…).events.insert(…)`, `google.drive(…).files.create(…)`. Sending and inserting
 * make something new each call (Gmail takes no deduplication key; Calendar's `requestId` is for
 * conference data only); updates, patches, label changes and deletes are absolute.
 */
export const googleapis: EffectLibrary = {
  name: 'Google APIs',
  modules: ['googleapis', '@googleapis/gmail', '@googleapis/calendar', '@googleapis/drive', '@googleapis/sheets'],
  clients: ['google.gmail', 'google.calendar', 'google.drive', 'google.sheets', 'google.docs', 'google.tasks', 'gmail', 'calendar', 'drive', 'sheets'],
  sideEffects: 'external_write',
  operations: [
    ...creates('none', 'sends an email', 'users.messages.send', 'users.drafts.send'),
    ...creates('none', 'creates a Google resource', '**.insert', '**.create', '**.import', '**.copy', 'spreadsheets.values.append'),
    ...calls('absolute', '**.update', '**.patch', '**.modify', '**.batchModify', '**.delete', '**.trash', '**.untrash', '**.batchDelete', '**.batchUpdate', '**.clear'),
    ...calls('read', '**.list', '**.get', '**.watch', '**.query', '**.export', 'users.getProfile'),
  ],
};
