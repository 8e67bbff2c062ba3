import type { JSONSchema } from '@typescript-eslint/utils';

import type { EffectKind } from '../../sql/index.js';

// The shape of the effects catalogue: what a library's calls do to the world when a tool is called
// twice. Each built-in library is one data module under libraries/; users add their own through the
// `libraries` option in the same shape (JSON), and the older `providers` option of
// require-key-passthrough is read as catalogue entries too (fromKeyedProviders), so there is one
// catalogue, not a second table of keyed providers.

/**
 * What a call does when it runs twice with the same arguments (the seed's classes, per operation):
 * - `read`: changes nothing (SELECT, `findUnique`, GET, `fs.readFile`, `stripe.*.retrieve`);
 * - `absolute`: an absolute write, naturally idempotent: the second call leaves the same state
 *   (`UPDATE … SET col = $1`, an upsert that sets values, PUT, DELETE, `SET`, `fs.writeFile`);
 * - `create`: makes a new resource or sends a new message each call unless a deduplication key
 *   makes the second one a replay (INSERT, POST, `stripe.*.create`, `sendMail`, `queue.add`);
 * - `relative`: applies a change relative to the current state, never safely repeatable
 *   (`col = col + …`, `{ increment }`, `$inc`, `INCR`, `LPUSH`, `fs.appendFile`);
 * - `write`: writes, but whether a repeat is harmless is not visible (a PATCH, an update whose data
 *   is built elsewhere, `INSERT … ON CONFLICT DO NOTHING` with no conflict target);
 * - `unknown`: a call of a catalogued library that the catalogue does not classify.
 */
export type { EffectKind };

/** How a relative operation changes state: the column or field, and the operator (`+`, `push`, `array_append`). */
export interface EffectChange {
  readonly column?: string | undefined;
  readonly operator?: string | undefined;
}

/** Where a call takes its deduplication key, if it takes one. */
export type KeySlot =
  /** A property of an options or params object: Stripe's `{ idempotencyKey }`, BullMQ's `{ jobId }`. */
  | {
      /** The property (a dotted path for a nested one: `opts.jobId`), or alternatives (`['jobId', 'deduplication']`). */
      readonly property: string | readonly string[];
      /** Index of the object argument. Default 1. An array there (a batch) passes a key when every element does. */
      readonly argument?: number;
      /** The options may also be any later argument made only of option keys (Stripe reads them so). */
      readonly optionsAnywhere?: boolean;
    }
  /** A header in the `headers` of a request config: `{ headers: { 'Idempotency-Key': key } }`. */
  | { readonly header: string; readonly argument?: number }
  /** The provider offers no deduplication key (SendGrid `send`, Twilio `messages.create`, `sendMail`). */
  | 'none';

/**
 * How an operation's kind is read from the call, when its name does not decide it. Each is a small
 * reader in the analysis; the data only says which one and where it looks.
 */
export type KindSource =
  /** SQL text at `argument` (a literal, a template's static parts, a `const`, or pg's `{ text }`); a tagged template is argument 0. */
  | { readonly from: 'sql'; readonly argument: number }
  /** An HTTP request: a fixed `method`, the `method` of the config at `config`, or a route string (`'POST /repos/{owner}/issues'`) at `route`. */
  | { readonly from: 'http'; readonly method?: string; readonly config?: number; readonly route?: number; readonly defaultMethod?: string }
  /** A GraphQL document at `argument`: a `mutation` writes, anything else reads. */
  | { readonly from: 'graphql'; readonly argument: number }
  /** A command: `new SendMessageCommand(input)` at `argument` (the library's `commands`), or a command name (`redis.call('INCR', k)`, `sendCommand(['INCR', k])`) looked up among its operations. */
  | { readonly from: 'command'; readonly argument: number }
  /** Update data at `argument` (its `property`, when given), read in the library's `style`. */
  | { readonly from: 'update'; readonly argument: number; readonly property?: string; readonly style: UpdateStyle }
  /**
   * An upsert: relative when a value it sets is relative, else absolute when it names its conflict
   * target (`target: true`: always; a string: the property of argument `argument` that holds it),
   * else `write` (a repeat is deduplicated only if some unique constraint happens to match).
   */
  | {
      readonly from: 'upsert';
      readonly argument: number;
      readonly target?: string | true;
      /** The property holding the values set on conflict; the whole argument when left out. */
      readonly set?: string;
      readonly style: UpdateStyle;
    };

/**
 * How update data says "relative": `prisma` (`{ increment }`, `{ push }`, a nested `create`), `mongo`
 * (`$inc`, `$push`, `$pop`, `$mul`; `$set`, `$addToSet`, `$pull` are absolute), `set` (column values
 * that are SQL fragments built from the same column, Drizzle's and Kysely's `sql` or `eb(col, '+', n)`),
 * `dynamodb` (an `UpdateExpression` with `ADD`, `col = col + :n` or `list_append`).
 */
export type UpdateStyle = 'dynamodb' | 'mongo' | 'prisma' | 'set';

/** One operation of a library: a method, function or command, and what it does. */
export interface EffectOperation {
  /**
   * The member path below the client (or below the module, for a library whose exports are called
   * directly), dot-separated: `refunds.create`, `chat.postMessage`, `writeFile`. `*` is any one
   * member, `**` any number (none included), and a member ending in `*` matches by prefix
   * (`create*`). The empty string is the client itself, called or used as a template tag.
   */
  readonly call: string;
  /** The kind when nothing more can be read (a `from` reader refines it). Default `unknown`. */
  readonly kind?: EffectKind;
  /** Where the kind is read from, when the name does not decide it. */
  readonly from?: KindSource;
  /** Where a deduplication key goes; `none` when the provider takes none. Left out: keys do not apply. */
  readonly key?: KeySlot;
  /**
   * Methods later in the same chain that change the kind: Drizzle's `.onConflictDoUpdate(...)`
   * after `db.insert(t).values(...)`, Knex's `.merge()`, `.set(...)` after `db.update(t)`.
   */
  readonly chain?: Readonly<Record<string, EffectKind | KindSource>>;
  /** What the operation does, for messages when it is a create: `sends an email`, `creates a payment`. */
  readonly does?: string;
  /** An absolute write that only adds (`mkdir`, `CREATE TABLE`): not destructive in MCP's sense. */
  readonly additive?: boolean;
}

/** A command class of a library that runs commands (`client.send(new SendMessageCommand(input))`). */
export interface EffectCommand {
  /** The class's export name, e.g. `SendMessageCommand`. */
  readonly name: string;
  readonly kind: EffectKind;
  /** Where the kind is read from the command's input (argument 0 of the constructor). */
  readonly from?: KindSource;
  /** Where a deduplication key goes in the command's input (argument 0 of the constructor). */
  readonly key?: KeySlot;
  readonly does?: string;
}

/** The seed's classes of side effect that a write can have. */
export type SideEffectClass = 'external_write' | 'internal_write' | 'message_out' | 'money_out';

/** One library in the catalogue. */
export interface EffectLibrary {
  /** Shown in messages and docs: `Stripe`, `pg`, `Prisma`. */
  readonly name: string;
  /** Module specifiers it is imported from (`node:` prefixes stripped); a trailing `/*` matches any subpath (`drizzle-orm/*`). */
  readonly modules: readonly string[];
  /**
   * Export paths whose call or `new` gives a client (`default` for `new Stripe(...)`, `Pool`,
   * `createClient`, `default.createTransport`); `*` for any export. The empty string makes the
   * module object and its named exports clients themselves (`fs.writeFile`, `axios.post`).
   */
  readonly clients: readonly string[];
  /** Methods of a client that give another client: `pool.connect()`, `client.db(name)`, `redis.multi()`. */
  readonly clientMethods?: readonly string[];
  /** Methods of a client whose callback's first parameter is a client: `prisma.$transaction(async (tx) => …)`. */
  readonly transactionMethods?: readonly string[];
  /** Exported type names whose annotated values are clients (`pool: Pool`, `db: PoolClient`); the `clients` count too. */
  readonly types?: readonly string[];
  /**
   * Calls (patterns, as `call`) that change nothing a retry could repeat: connection handling,
   * event handlers, a transaction wrapper whose contents are judged on their own.
   */
  readonly neutral?: readonly string[];
  /** Operations match without regard to letter case (node-redis has `hIncrBy` and `HINCRBY`). */
  readonly caseInsensitive?: boolean;
  /**
   * Options of a client's constructor or factory that make the client touch nothing outside the
   * process: a client made with one of these set to `true` in its options object (the call's first
   * argument, written in place) is neutral. Nodemailer's `streamTransport` and `jsonTransport`
   * render a message into a buffer instead of sending it.
   */
  readonly offlineOptions?: readonly string[];
  /**
   * What a write through it touches, in the seed's vocabulary, for the declarations the plugin
   * suggests: `internal_write` (the app's own database, files, cache), `external_write` (another
   * service's state), `money_out`, `message_out`. Default `external_write`.
   */
  readonly sideEffects?: SideEffectClass;
  /**
   * A generic HTTP client (fetch, undici, axios, got): a key it sends in a header reaches whatever
   * server the request names, and whether that server deduplicates by it is the server's choice
   * (the IETF Idempotency-Key draft leaves it to the resource), so the code shows only that the key
   * is sent. A provider's SDK (Stripe's `idempotencyKey`) and a configured `providers` entry are
   * known to honour their key and leave this out.
   */
  readonly genericHttp?: true;
  readonly commands?: readonly EffectCommand[];
  /** Tried in order: the first operation whose `call` matches decides. */
  readonly operations: readonly EffectOperation[];
}

const KINDS: readonly EffectKind[] = ['absolute', 'create', 'read', 'relative', 'unknown', 'write'];
const STYLES: readonly UpdateStyle[] = ['dynamodb', 'mongo', 'prisma', 'set'];
const name: JSONSchema.JSONSchema4 = { type: 'string', minLength: 1 };
const names: JSONSchema.JSONSchema4 = { type: 'array', items: name, uniqueItems: true };
const index: JSONSchema.JSONSchema4 = { type: 'integer', minimum: 0 };

// The schema's base URI, so that its `$ref`s resolve inside it wherever a rule's options place it.
const LIBRARIES_SCHEMA_ID = 'urn:retrysafe:effect-libraries';
/** A reference to one of the `definitions` of {@link effectLibrariesSchema}. */
const definition = (key: 'index' | 'keySlot' | 'kind' | 'kindSource' | 'name'): JSONSchema.JSONSchema4 => ({ $ref: `#/definitions/${key}` });

// The key slot and the kind source are used in several places (an operation, a command, a chain
// step): written once under `definitions` and referenced. ajv copies a referenced schema into each
// place that uses it unless it holds a `$ref` of its own: these two refer to `name` and `index`, so
// ajv compiles each of them once (a function the places call) instead of once per place. The rules
// that take `libraries` compile this schema themselves, once per process and only when the option
// is given (rules/utils/deepOptions.ts): their `meta.schema`, which ESLint compiles in every
// process, has `libraries` only as an array of objects.
const keySlotSchema: JSONSchema.JSONSchema4 = {
  description: 'Where the operation takes a deduplication key: a property of an argument, a header, or `none`.',
  oneOf: [
    { type: 'string', enum: ['none'] },
    {
      type: 'object',
      additionalProperties: false,
      required: ['property'],
      properties: {
        property: { oneOf: [definition('name'), { ...names, minItems: 1 }] },
        argument: definition('index'),
        optionsAnywhere: { type: 'boolean' },
      },
    },
    { type: 'object', additionalProperties: false, required: ['header'], properties: { header: definition('name'), argument: definition('index') } },
  ],
};

const kindSourceSchema: JSONSchema.JSONSchema4 = {
  type: 'object',
  additionalProperties: false,
  required: ['from'],
  properties: {
    from: { type: 'string', enum: ['sql', 'http', 'graphql', 'command', 'update', 'upsert'] },
    argument: definition('index'),
    method: definition('name'),
    config: definition('index'),
    route: definition('index'),
    defaultMethod: definition('name'),
    property: definition('name'),
    set: definition('name'),
    target: { oneOf: [definition('name'), { type: 'boolean', enum: [true] }] },
    style: { type: 'string', enum: [...STYLES] },
  },
};

const kindSchema: JSONSchema.JSONSchema4 = { type: 'string', enum: [...KINDS] };

/** JSON schema of the `libraries` option: extra catalogue entries, in {@link EffectLibrary}'s shape. */
export const effectLibrariesSchema = {
  id: LIBRARIES_SCHEMA_ID,
  type: 'array',
  description: 'Libraries, beyond the built-in catalogue, whose calls read, write, create or change state.',
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['name', 'modules', 'clients', 'operations'],
    properties: {
      name,
      modules: { ...names, minItems: 1 },
      clients: { type: 'array', items: { type: 'string' }, uniqueItems: true },
      clientMethods: names,
      transactionMethods: names,
      types: names,
      neutral: names,
      caseInsensitive: { type: 'boolean' },
      offlineOptions: names,
      sideEffects: { type: 'string', enum: ['external_write', 'internal_write', 'message_out', 'money_out'] },
      genericHttp: { type: 'boolean', enum: [true], description: 'A generic HTTP client: a key it sends in a header is honoured only where the server it calls deduplicates by it.' },
      commands: {
        type: 'array',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['name', 'kind'],
          properties: { name, kind: definition('kind'), from: definition('kindSource'), key: definition('keySlot'), does: name },
        },
      },
      operations: {
        type: 'array',
        minItems: 1,
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['call'],
          properties: {
            call: { type: 'string' },
            kind: definition('kind'),
            from: definition('kindSource'),
            key: definition('keySlot'),
            chain: { type: 'object', additionalProperties: { oneOf: [definition('kind'), definition('kindSource')] } },
            does: name,
            additive: { type: 'boolean' },
          },
        },
      },
    },
  },
  definitions: { index, name, kind: kindSchema, keySlot: keySlotSchema, kindSource: kindSourceSchema },
} satisfies JSONSchema.JSONSchema4;

/**
 * The `providers` option of require-key-passthrough (`{ from, methods, argument, keyOption,
 * keyHeader }`) as catalogue entries: a keyed provider is a library whose methods create and take a
 * key there. The rules that read effects accept the same `providers`, so one configuration extends both.
 */
export function fromKeyedProviders(
  providers: readonly { readonly from: string; readonly methods: readonly string[]; readonly argument?: number; readonly keyOption?: string; readonly keyHeader?: string }[],
): EffectLibrary[] {
  return providers.map((provider) => {
    const argument = provider.argument ?? 1;
    const key: KeySlot = provider.keyHeader === undefined ? { property: provider.keyOption ?? 'idempotencyKey', argument } : { header: provider.keyHeader, argument };
    return {
      name: provider.from,
      modules: [provider.from],
      // An imported function, or a method of any client the module makes.
      clients: ['', '*'],
      operations: provider.methods.map((method) => ({
        call: method === 'default' ? '' : `**.${method}`,
        kind: 'create',
        key,
        does: `calls \`${method}\`, which takes an idempotency key`,
      })),
    };
  });
}
