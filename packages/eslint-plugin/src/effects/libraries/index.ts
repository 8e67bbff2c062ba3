import type { EffectLibrary } from './catalogue.js';
import { mongodb, mongoose } from './orms.js';
import { betterSqlite3, libsql, mysql, sqlite3 } from './databases.js';
import { neon, pg, postgresJs, vercelPostgres } from './databases.js';
import { prisma } from './orms.js';
import { drizzle, knex, kysely, supabase, typeorm } from './orms.js';
import { axios, fetchApi, gotAndKy, undici } from './http.js';
import { notion, slack, twilio } from './messaging.js';
import { mailgun, nodemailer, postmark, resend, sendgrid, ses } from './messaging.js';
import { octokit } from './messaging.js';
import { googleapis } from './messaging.js';
import { paypal, square } from './payments.js';
import { stripe } from './payments.js';
import { bullmq, inngest, sns, sqs } from './queues.js';
import { dynamodb, s3 } from './storage.js';
import { fs } from './storage.js';
import { ioredis, nodeRedis, upstashRedis } from './storage.js';

export { SQL_FRAGMENT_MODULES, SQL_TAGS, SQL_TEXT_METHODS } from '../../sql/index.js';
export { IDEMPOTENCY_HEADER, KEY_HONOURING_HOSTS } from './http.js';
export { NO_ID as STRIPE_NO_ID, STRIPE_OPTION_KEYS, STRIPE_POST_METHODS, TWO_IDS as STRIPE_TWO_IDS } from './payments.js';

/** The built-in catalogue, one entry per library (docs/effects.md lists them). */
export const BUILT_IN_LIBRARIES: readonly EffectLibrary[] = [
  // Databases
  pg, postgresJs, vercelPostgres, neon, mysql, betterSqlite3, sqlite3, libsql,
  prisma, drizzle, kysely, knex, typeorm, supabase, mongodb, mongoose,
  // Key-value, files, cloud storage
  ioredis, nodeRedis, upstashRedis, fs, dynamodb, s3,
  // Payments
  stripe, square, paypal,
  // Messages: mail, chat, SMS, documents, code hosting
  resend, sendgrid, postmark, nodemailer, mailgun, ses, twilio, slack, notion, octokit, googleapis,
  // Queues and events
  bullmq, inngest, sqs, sns,
  // HTTP
  fetchApi, undici, axios, gotAndKy,
];

export * from './catalogue.js';
export { NO_ID, TWO_IDS } from './payments.js';
