import * as parser from '@typescript-eslint/parser';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';

import { createEffectsAnalyser, type EffectsOptions, type HandlerEffects } from '../../src/effects/index.js';

// The effects analysis on its own: each row is a file whose function `handler` is analysed, and
// the effects it must list, written `kind library text [key]` (key: the create's key, yes / no /
// unknown), in order; `complete` says whether every call it reaches is known.

function analyse(code: string, options: EffectsOptions = {}): HandlerEffects | undefined {
  let result: HandlerEffects | undefined;
  const rule: TSESLint.RuleModule<string> = {
    defaultOptions: [],
    meta: { type: 'problem', schema: [], messages: {} },
    create(context) {
      const analyser = createEffectsAnalyser(context.sourceCode, options);
      const take = (node: TSESTree.Node): void => {
        result = analyser.analyseHandler(node);
      };
      return {
        'FunctionDeclaration[id.name="handler"]': take,
        'VariableDeclarator[id.name="handler"] > :function': take,
        'PropertyDefinition[key.name="handler"] > :function': take,
      };
    },
  };
  const linter = new Linter({ configType: 'flat' });
  const config = {
    languageOptions: { parser, parserOptions: { ecmaVersion: 'latest', sourceType: 'module' } },
    plugins: { test: { rules: { effects: rule } } },
    rules: { 'test/effects': 'error' },
  } as unknown as Linter.Config;
  const messages = linter.verify(code, config);
  const fatal = messages.find((message) => message.fatal);
  if (fatal) throw new Error(fatal.message);
  return result;
}

function listed(code: string, options?: EffectsOptions): string[] {
  return (analyse(code, options)?.effects ?? []).map((effect) =>
    [effect.kind, effect.library, effect.text, effect.keyPassed ?? ''].filter(Boolean).join(' '),
  );
}

interface Row {
  readonly name: string;
  readonly code: string;
  readonly effects: readonly string[];
  readonly complete?: boolean;
}

const PG = "import { Pool } from 'pg';\nconst pool = new Pool();\n";
const STRIPE = "import Stripe from 'stripe';\nconst stripe = new Stripe('sk');\n";

const rows: Row[] = [
  // A call whose result is read by property and index is the top of its chain (no call follows the reads).
  {
    name: 'pg: a query whose result is read at an index, (await pool.query(…)).rows[0]',
    code: `${PG}async function handler(id) { return (await pool.query('UPDATE t SET n = n + 1 WHERE id = $1 RETURNING n', [id])).rows[0]; }`,
    effects: ['relative pg UPDATE t SET n = n + 1'],
  },
  {
    name: 'pg: the same in an arrow\'s expression body, with a property read after the index',
    code: `${PG}const handler = async (id) => (await pool.query('SELECT n FROM t WHERE id = $1', [id])).rows[0].n;`,
    effects: ['read pg SELECT … FROM t'],
    complete: true,
  },
  // --- clients that touch nothing outside the process ---
  {
    name: 'Nodemailer: a stream transport renders the message and sends nothing (the Gmail MCP server builds its MIME so)',
    code: `import nodemailer from 'nodemailer';
export async function handler(message) {
  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true });
  const info = await transporter.sendMail(message);
  return info.message.toString();
}`,
    effects: [],
    complete: true,
  },
  {
    name: 'Nodemailer: an SMTP transport beside it still sends',
    code: `import nodemailer from 'nodemailer';
export async function handler(message) {
  const transporter = nodemailer.createTransport({ streamTransport: false, host: 'smtp.example.com' });
  await transporter.sendMail(message);
}`,
    effects: ['create Nodemailer transporter.sendMail no'],
  },
  // --- SQL through a driver, and by its text alone ---
  {
    name: 'pg: a relative UPDATE',
    code: `${PG}async function handler(id, n) { await pool.query('UPDATE customers SET points = points + $1 WHERE id = $2', [n, id]); }`,
    effects: ['relative pg UPDATE customers SET points = points + $1'],
    complete: true,
  },
  {
    name: 'pg: a pooled client from pool.connect(), a template with holes, and BEGIN/COMMIT',
    code: `${PG}async function handler(id, n) {
  const client = await pool.connect();
  await client.query('BEGIN');
  await client.query(\`UPDATE accounts SET balance = balance - \${n} WHERE id = \${id}\`);
  await client.query('COMMIT');
  client.release();
}`,
    effects: ['relative pg UPDATE accounts SET balance = balance - ${n}'],
    complete: true,
  },
  {
    name: 'pg: the statement in a constant, and pg\'s { text } form',
    code: `${PG}const INSERT = 'INSERT INTO comments (body) VALUES ($1)';
async function handler(body) { await pool.query(INSERT, [body]); await pool.query({ text: 'SELECT * FROM comments' }); }`,
    effects: ['create pg INSERT INTO comments no', 'read pg SELECT … FROM comments'],
  },
  {
    name: 'SQL by its text, whatever the receiver',
    code: "import { db } from './db';\nasync function handler(id) { return db.query('DELETE FROM sessions WHERE user_id = $1', [id]); }",
    effects: ['absolute SQL DELETE FROM sessions'],
  },
  {
    name: 'a sql-tagged template run in place (Postgres.js)',
    code: "import postgres from 'postgres';\nconst sql = postgres();\nasync function handler(id) { await sql`UPDATE t SET n = n + 1 WHERE id = ${id}`; }",
    effects: ['relative postgres UPDATE t SET n = n + 1'],
  },
  {
    name: 'SQL by its text further down a chain (a statement prepared, then run), the receiver from a local function',
    code: `function getDatabase() { return open(); }
async function handler(table, values) {
  const statement = \`INSERT INTO \${table} (a) VALUES (?)\`;
  return getDatabase().prepare(statement).run(...values);
}`,
    effects: ['create SQL INSERT INTO ${table} no'],
  },
  {
    name: 'a receiver with no evidence and text that is not SQL is unknown, and nothing is listed',
    code: "import { db } from './db';\nasync function handler(id) { await db.addPoints(id, 10); await db.query(build(id)); }",
    effects: [],
    complete: false,
  },
  // --- ORMs and query builders ---
  {
    name: 'Prisma: increment is relative, plain data absolute, upsert absolute, create',
    code: `import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();
async function handler(id, n) {
  await prisma.customer.update({ where: { id }, data: { points: { increment: n } } });
  await prisma.customer.update({ where: { id }, data: { status: 'vip' } });
  await prisma.setting.upsert({ where: { id }, create: { id, v: n }, update: { v: n } });
  await prisma.comment.create({ data: { body: 'x' } });
  await prisma.$transaction(async (tx) => { await tx.ledger.create({ data: { n } }); });
}`,
    effects: [
      'relative Prisma prisma.customer.update',
      'absolute Prisma prisma.customer.update',
      'absolute Prisma prisma.setting.upsert',
      'create Prisma prisma.comment.create no',
      'create Prisma tx.ledger.create no',
    ],
  },
  {
    name: 'Drizzle: insert, with a conflict target it is absolute; update with sql`${col} + 1` is relative',
    code: `import { drizzle } from 'drizzle-orm/node-postgres';
import { sql } from 'drizzle-orm';
import { users, ledger } from './schema';
const db = drizzle('postgres://');
async function handler(id) {
  await db.insert(ledger).values({ id });
  await db.insert(users).values({ id }).onConflictDoNothing({ target: users.id });
  await db.update(users).set({ points: sql\`\${users.points} + 1\` }).where(sql\`id = \${id}\`);
  await db.select().from(users);
}`,
    effects: ['create Drizzle db.insert no', 'absolute Drizzle db.insert', 'relative Drizzle db.update', 'read Drizzle db.select'],
  },
  {
    name: 'Knex: a client called with a table, increment, an upsert merge',
    code: `import knex from 'knex';
const db = knex({ client: 'pg' });
async function handler(id) {
  await db('users').where({ id }).increment('points', 1);
  await db('users').insert({ id }).onConflict('id').merge();
  await db('users').where({ id }).first();
}`,
    effects: ['relative Knex db(…).where(…).increment', 'absolute Knex db(…).insert', 'read Knex db(…).where(…).first'],
  },
  {
    name: 'Mongo: $inc is relative, $set and $addToSet absolute; Mongoose new Model().save()',
    code: `import { MongoClient } from 'mongodb';
import mongoose from 'mongoose';
const client = new MongoClient('mongodb://');
const User = mongoose.model('User', new mongoose.Schema({}));
async function handler(id) {
  const users = client.db('app').collection('users');
  await users.updateOne({ _id: id }, { $inc: { points: 1 } });
  await users.updateOne({ _id: id }, { $set: { a: 1 }, $addToSet: { tags: 'x' } });
  await new User({ id }).save();
}`,
    effects: ['relative MongoDB users.updateOne', 'absolute MongoDB users.updateOne', 'create Mongoose new User(…).save no'],
  },
  // --- key-value stores, files ---
  {
    name: 'Redis (ioredis and node-redis): INCR relative, SET absolute, GET read, a command by name',
    code: `import Redis from 'ioredis';
import { createClient } from 'redis';
const redis = new Redis();
const client = createClient();
async function handler(k) { await redis.incr(k); await client.hSet(k, 'a', '1'); await redis.get(k); await redis.call('LPUSH', k, 'x'); }`,
    effects: ['relative ioredis redis.incr', 'absolute redis client.hSet', 'read ioredis redis.get', 'relative ioredis redis.call(LPUSH)'],
    complete: true,
  },
  {
    name: 'fs: appendFile relative, writeFile absolute, readFile read (promises, namespace and named imports)',
    code: `import fs from 'node:fs';
import { writeFile } from 'node:fs/promises';
async function handler(p) { await fs.promises.appendFile(p, 'x'); await writeFile(p, 'x'); fs.readFileSync(p, 'utf8'); }`,
    effects: ['relative fs fs.promises.appendFile', 'absolute fs writeFile', 'read fs fs.readFileSync'],
  },
  // --- providers, and whether a key is passed ---
  {
    name: 'Stripe: a create with and without idempotencyKey, a retrieve, through a destructured resource',
    code: `${STRIPE}async function handler(id, key) {
  await stripe.refunds.create({ payment_intent: id }, { idempotencyKey: key });
  const { paymentIntents } = stripe;
  await paymentIntents.create({ amount: 1, currency: 'usd' });
  await stripe.customers.retrieve(id);
}`,
    effects: ['create Stripe stripe.refunds.create yes', 'create Stripe paymentIntents.create no', 'read Stripe stripe.customers.retrieve'],
  },
  {
    name: 'fetch: POST with and without Idempotency-Key, GET, PUT; a method not visible is unknown',
    code: `async function handler(url, init, key) {
  await fetch(url, { method: 'POST', headers: { 'Idempotency-Key': key } });
  await fetch(url, { method: 'POST', body: '{}' });
  await fetch(url);
  await fetch(url, { method: 'PUT' });
  await fetch(url, init);
}`,
    effects: ['create fetch fetch yes', 'create fetch fetch no', 'read fetch fetch', 'absolute fetch fetch', 'unknown fetch fetch'],
  },
  {
    name: 'axios verbs, and an instance from axios.create()',
    code: `import axios from 'axios';
const api = axios.create({ baseURL: 'https://x' });
async function handler() { await axios.post('/a', {}); await api.get('/b'); await api.delete('/c'); }`,
    effects: ['create axios axios.post no', 'read axios api.get', 'absolute axios api.delete'],
  },
  {
    name: 'mail and messages: Nodemailer, SendGrid, Resend (keyed), Twilio, Slack, SES',
    code: `import nodemailer from 'nodemailer';
import sgMail from '@sendgrid/mail';
import { Resend } from 'resend';
import twilio from 'twilio';
import { WebClient } from '@slack/web-api';
import { SESClient, SendEmailCommand } from '@aws-sdk/client-ses';
const mail = nodemailer.createTransport({});
const resend = new Resend('re');
const sms = twilio('a', 'b');
const slack = new WebClient('t');
const ses = new SESClient({});
async function handler(to, key) {
  await mail.sendMail({ to });
  await sgMail.send({ to });
  await resend.emails.send({ to }, { idempotencyKey: key });
  await sms.messages.create({ to });
  await slack.chat.postMessage({ channel: to, text: 'hi' });
  await ses.send(new SendEmailCommand({ Destination: { ToAddresses: [to] } }));
}`,
    effects: [
      'create Nodemailer mail.sendMail no',
      'create SendGrid sgMail.send no',
      'create Resend resend.emails.send yes',
      'create Twilio sms.messages.create no',
      'create Slack slack.chat.postMessage no',
      'create Amazon SES ses.send(SendEmailCommand) no',
    ],
  },
  {
    name: 'queues: BullMQ add with and without jobId, SQS with a dedup id, Inngest with an event id',
    code: `import { Queue } from 'bullmq';
import { SQSClient, SendMessageCommand } from '@aws-sdk/client-sqs';
import { Inngest } from 'inngest';
const queue = new Queue('q');
const sqs = new SQSClient({});
const inngest = new Inngest({ id: 'app' });
async function handler(id) {
  await queue.add('job', { id }, { jobId: id });
  await queue.add('job', { id });
  await sqs.send(new SendMessageCommand({ QueueUrl: 'u', MessageBody: 'b', MessageDeduplicationId: id }));
  await inngest.send({ name: 'x', data: {}, id });
}`,
    effects: ['create BullMQ queue.add yes', 'create BullMQ queue.add no', 'create Amazon SQS sqs.send(SendMessageCommand) yes', 'create Inngest inngest.send yes'],
  },
  // --- how the analysis reaches an operation ---
  {
    name: 'a helper function in the same file, with the HTTP method passed to it in an options object',
    code: `async function request(url, options = {}) { return fetch(url, { method: options.method ?? 'GET', headers: options.headers }); }
async function handler(id) { await request('/a', { method: 'POST' }); await request('/b'); }`,
    // The headers read a parameter's property: whether they carry a key is not visible.
    effects: ['create fetch fetch unknown', 'read fetch fetch'],
  },
  {
    name: 'a helper function in the same file, the method as a plain argument',
    code: `async function call(method, url) { return fetch(url, { method }); }
async function handler() { await call('POST', '/a'); await call('GET', '/b'); }`,
    effects: ['create fetch fetch no', 'read fetch fetch'],
  },
  {
    name: 'a helper shared by two tools: under the bindings of a call, only the branch that runs',
    code: `import nodemailer from 'nodemailer';
const mail = nodemailer.createTransport({});
async function act(action, message) {
  if (action === 'send') return mail.sendMail(message);
  return fetch('/drafts', { method: 'PUT', body: JSON.stringify(message) });
}
async function handler(message) { return act('send', message); }`,
    effects: ['create Nodemailer mail.sendMail no'],
  },
  {
    name: 'a method of an instance of a class in this file (the Slack server\'s SlackClient)',
    code: `class SlackClient {
  headers = { Authorization: 'Bearer x' };
  async postMessage(channel, text) {
    return fetch('https://slack.com/api/chat.postMessage', { method: 'POST', headers: this.headers, body: JSON.stringify({ channel, text }) });
  }
}
const slackClient = new SlackClient();
async function handler(channel) { return slackClient.postMessage(channel, 'hi'); }`,
    effects: ['create fetch fetch unknown'],
  },
  {
    name: 'a client held in a class field (this.stripe)',
    code: `${STRIPE}class Tools {
  stripe = new Stripe('sk');
  handler = async () => this.stripe.paymentIntents.create({ amount: 1, currency: 'usd' });
}`,
    effects: ['create Stripe this.stripe.paymentIntents.create no'],
  },
  {
    name: 'a parameter typed with a library class (pool: Pool)',
    code: "import type { Pool } from 'pg';\nasync function handler(pool: Pool, id: string) { await pool.query('UPDATE t SET n = n + 1 WHERE id = $1', [id]); }",
    effects: ['relative pg UPDATE t SET n = n + 1'],
  },
  {
    name: 'Google APIs: Gmail send creates, a label change is absolute, a list reads',
    code: `import { google } from 'googleapis';
const gmail = google.gmail({ version: 'v1' });
async function handler(raw, id) {
  await gmail.users.messages.send({ userId: 'me', requestBody: { raw } });
  await gmail.users.messages.modify({ userId: 'me', id, requestBody: { addLabelIds: ['STARRED'] } });
  await gmail.users.messages.list({ userId: 'me' });
}`,
    effects: ['create Google APIs gmail.users.messages.send no', 'absolute Google APIs gmail.users.messages.modify', 'read Google APIs gmail.users.messages.list'],
  },
  {
    name: 'a logging helper is not followed: its debug-file appends are not the tool\'s effects',
    code: `import { appendFileSync } from 'node:fs';
function log(message) { appendFileSync('/tmp/debug.log', message); }
async function handler(id) { log(\`called with \${id}\`); await fetch(\`/items/\${id}\`); }`,
    effects: ['read fetch fetch'],
    complete: true,
  },
  // New-user trial (audit-cases/fp-keys3.ts): a trace id from randomUUID() beside a keyed create.
  {
    name: 'a call that makes a random id or reads the clock (randomUUID from node:crypto, nanoid, dayjs()) is known and no effect',
    code: `import { randomUUID } from 'node:crypto';
import { nanoid } from 'nanoid';
import dayjs from 'dayjs';
async function handler(id) { const traceId = randomUUID(); const tag = nanoid(); const at = dayjs(); await fetch(\`/items/\${id}\`, { headers: { 'X-Request-Id': traceId, 'X-Tag': tag, 'X-At': String(at) } }); }`,
    effects: ['read fetch fetch'],
    complete: true,
  },
  {
    name: 'randomUUID() and crypto.randomUUID() alone leave the handler complete',
    code: `import { randomUUID } from 'node:crypto';
async function handler(id) { const traceId = randomUUID(); const other = crypto.randomUUID(); await fetch(\`/items/\${id}\`, { headers: { 'X-Request-Id': traceId + other } }); }`,
    effects: ['read fetch fetch'],
    complete: true,
  },
  {
    name: 'a libraries option adds a library',
    code: "import { Ledger } from 'acme-ledger';\nconst ledger = new Ledger();\nasync function handler(id) { await ledger.credit(id, 5); }",
    effects: ['relative acme credit ledger.credit'],
  },
];

describe('effects analysis', () => {
  for (const row of rows) {
    it(row.name, () => {
      const options: EffectsOptions =
        row.name.startsWith('a libraries option')
          ? { libraries: [{ name: 'acme credit', modules: ['acme-ledger'], clients: ['Ledger'], operations: [{ call: 'credit', kind: 'relative' }] }] }
          : {};
      const result = analyse(row.code, options);
      expect(listed(row.code, options)).toEqual(row.effects);
      if (row.complete !== undefined) expect(result?.complete).toBe(row.complete);
    });
  }

  it('sees a key looked up before a create (the handler may deduplicate it)', () => {
    const result = analyse(`${PG}async function handler(body, idempotencyKey) {
  const seen = await pool.query('SELECT id FROM comments WHERE idempotency_key = $1', [idempotencyKey]);
  if (seen.rowCount) return seen.rows[0];
  return pool.query('INSERT INTO comments (body) VALUES ($1)', [body]);
}`);
    expect(result?.keyLookup?.loc.start.line).toBe(4);
    expect(analyse(`${PG}async function handler(body) { return pool.query('INSERT INTO comments (body) VALUES ($1)', [body]); }`)?.keyLookup).toBeUndefined();
  });
});

// What the audit's question 1 names for a key sent to a generic HTTP endpoint: the header and the
// URL as written, and whether the URL's host is a provider documented to dedupe by the header.
describe('sentKey: a key a generic HTTP client sends', () => {
  const sent = (code: string) => analyse(code)?.effects.map((effect) => effect.sentKey);

  it.each([
    ['fetch(url, init): the URL string and the header', "async function handler(id) { await fetch('https://mail.example.test/send', { method: 'POST', headers: { 'Idempotency-Key': `m:${id}` } }); }", [{ header: 'Idempotency-Key', url: 'https://mail.example.test/send' }]],
    ['a URL built by a template, a header in another letter case', "async function handler(id, base) { await fetch(`${base}/send`, { method: 'POST', headers: { 'idempotency-key': id } }); }", [{ header: 'idempotency-key', url: '`${base}/send`' }]],
    ['axios(config): the config\'s url', "import axios from 'axios';\nasync function handler(id) { await axios({ url: 'https://x.test/a', method: 'POST', headers: { 'Idempotency-Key': id } }); }", [{ header: 'Idempotency-Key', url: 'https://x.test/a' }]],
    ["Stripe's API host is one that honours the header", "async function handler(id) { await fetch(`https://api.stripe.com/v1/refunds`, { method: 'POST', headers: { 'Idempotency-Key': id } }); }", [{ header: 'Idempotency-Key', url: 'https://api.stripe.com/v1/refunds', honouredBy: 'Stripe' }]],
    ['a host that only starts like it is not', "async function handler(id) { await fetch('https://api.stripe.com.example.test/v1', { method: 'POST', headers: { 'Idempotency-Key': id } }); }", [{ header: 'Idempotency-Key', url: 'https://api.stripe.com.example.test/v1' }]],
    ['no key sent, or a provider SDK: none', "import Stripe from 'stripe';\nconst stripe = new Stripe('sk');\nasync function handler(id) { await fetch('https://x.test', { method: 'POST' }); await stripe.refunds.create({}, { idempotencyKey: id }); }", [undefined, undefined]],
  ])('%s', (_shape, code, expected) => {
    expect(sent(code)).toEqual(expected);
  });
});
