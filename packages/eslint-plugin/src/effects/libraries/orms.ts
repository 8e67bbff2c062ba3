import type { EffectLibrary, EffectOperation } from './catalogue.js';
import { calls, creates, sqlCalls } from './define.js';

/**
 * Prisma Client: `prisma.<model>.<operation>(args)`. An update is relative when its `data` uses an
 * atomic operator (`{ increment }`, `{ decrement }`, `{ multiply }`, `{ divide }`, `{ push }`) or
 * creates a related record; an upsert names its conflict target (`where`) and is absolute when its
 * `update` data is.
 */
export const prisma: EffectLibrary = {
  sideEffects: 'internal_write',
  name: 'Prisma',
  modules: ['@prisma/client', '@prisma/client/edge', '@prisma/client/*'],
  clients: ['PrismaClient'],
  clientMethods: ['$extends'],
  transactionMethods: ['$transaction'],
  neutral: ['$connect', '$disconnect', '$on', '$use', '$transaction'],
  operations: [
    ...sqlCalls(0, '$executeRaw', '$executeRawUnsafe', '$queryRaw', '$queryRawUnsafe'),
    ...creates('none', 'creates a row', '*.create', '*.createMany', '*.createManyAndReturn'),
    { call: '*.update', kind: 'write', from: { from: 'update', argument: 0, property: 'data', style: 'prisma' } },
    { call: '*.updateMany', kind: 'write', from: { from: 'update', argument: 0, property: 'data', style: 'prisma' } },
    { call: '*.updateManyAndReturn', kind: 'write', from: { from: 'update', argument: 0, property: 'data', style: 'prisma' } },
    { call: '*.upsert', kind: 'write', from: { from: 'upsert', argument: 0, target: true, set: 'update', style: 'prisma' } },
    ...calls('absolute', '*.delete', '*.deleteMany'),
    ...calls('read', '*.find*', '*.count', '*.aggregate', '*.groupBy'),
  ],
};

/**
 * Drizzle ORM: `db.insert(t).values(v)` (with `.onConflictDoNothing({ target })`,
 * `.onConflictDoUpdate({ target, set })`, `.onDuplicateKeyUpdate({ set })`), `db.update(t).set(v)`,
 * `db.delete(t)`, `db.select()`, `db.query.<table>.findMany()`, `db.execute(sql…)`.
 */
export const drizzle: EffectLibrary = {
  sideEffects: 'internal_write',
  name: 'Drizzle',
  modules: ['drizzle-orm/*'],
  clients: ['drizzle'],
  transactionMethods: ['transaction'],
  neutral: ['$client', 'batch'],
  operations: [
    {
      call: 'insert',
      kind: 'create',
      key: 'none',
      does: 'inserts a row',
      chain: {
        onConflictDoNothing: { from: 'upsert', argument: 0, target: 'target', style: 'set' },
        onConflictDoUpdate: { from: 'upsert', argument: 0, target: 'target', set: 'set', style: 'set' },
        onDuplicateKeyUpdate: { from: 'upsert', argument: 0, set: 'set', style: 'set' },
      },
    },
    { call: 'update', kind: 'write', chain: { set: { from: 'update', argument: 0, style: 'set' } } },
    ...calls('absolute', 'delete'),
    ...calls('read', 'select', 'selectDistinct', 'selectDistinctOn', 'query.*.find*', '$count'),
    ...sqlCalls(0, 'execute', 'run', 'all', 'get', 'values'),
  ],
};

/** Kysely: `db.insertInto(t).values(v)`, `db.updateTable(t).set(v)`, `db.deleteFrom(t)`, `db.selectFrom(t)`. */
export const kysely: EffectLibrary = {
  sideEffects: 'internal_write',
  name: 'Kysely',
  modules: ['kysely'],
  clients: ['Kysely'],
  transactionMethods: ['transaction.execute', 'connection.execute'],
  neutral: ['destroy', 'transaction', 'connection', 'withSchema'],
  operations: [
    {
      call: 'insertInto',
      kind: 'create',
      key: 'none',
      does: 'inserts a row',
      chain: { onConflict: 'absolute', onDuplicateKeyUpdate: { from: 'upsert', argument: 0, style: 'set' } },
    },
    ...calls('write', 'replaceInto', 'mergeInto'),
    { call: 'updateTable', kind: 'write', chain: { set: { from: 'update', argument: 0, style: 'set' } } },
    ...calls('absolute', 'deleteFrom'),
    ...calls('read', 'selectFrom', 'selectNoFrom'),
  ],
};

/**
 * Knex: `knex(config)` gives the client, and calling it starts a query: `db('users').insert(v)`,
 * `.where(…).update(v)`, `.increment('n', 1)`, `.onConflict('id').merge()`, `.del()`, `.select()`.
 */
export const knex: EffectLibrary = {
  sideEffects: 'internal_write',
  name: 'Knex',
  modules: ['knex'],
  clients: ['default', 'knex'],
  types: ['Knex'],
  transactionMethods: ['transaction'],
  neutral: ['destroy', 'transaction', 'schema'],
  operations: [
    ...sqlCalls(0, 'raw'),
    { call: '**.insert', kind: 'create', key: 'none', does: 'inserts a row', chain: { merge: 'absolute', ignore: 'absolute' } },
    { call: '**.upsert', kind: 'write' },
    { call: '**.update', kind: 'write', from: { from: 'update', argument: 0, style: 'set' } },
    ...calls('relative', '**.increment', '**.decrement'),
    ...calls('absolute', '**.del', '**.delete', '**.truncate'),
    ...calls('read', '**.select', '**.first', '**.pluck', '**.count', '**.min', '**.max', '**.sum', '**.avg'),
  ],
};

/**
 * TypeORM: a repository or entity manager (`dataSource.getRepository(User)`, `dataSource.manager`,
 * an injected `Repository<User>`): `insert`, `save` (an insert or an update, not visible which),
 * `update(criteria, values)`, `upsert(values, conflictPaths)`, `increment`, `delete`, `find…`.
 */
export const typeorm: EffectLibrary = {
  sideEffects: 'internal_write',
  name: 'TypeORM',
  modules: ['typeorm'],
  clients: ['DataSource', 'getRepository', 'getManager', 'getConnection'],
  types: ['Repository', 'EntityManager', 'DataSource', 'MongoRepository', 'TreeRepository'],
  clientMethods: ['getRepository', 'getTreeRepository', 'getMongoRepository', 'manager', 'withRepository'],
  transactionMethods: ['transaction', 'manager.transaction'],
  neutral: ['initialize', 'destroy', 'createQueryBuilder', 'transaction'],
  operations: [
    ...sqlCalls(0, 'query', 'manager.query'),
    ...creates('none', 'inserts a row', '**.insert'),
    { call: '**.update', kind: 'write', from: { from: 'update', argument: 1, style: 'set' } },
    { call: '**.upsert', kind: 'absolute' },
    ...calls('write', '**.save'),
    ...calls('relative', '**.increment', '**.decrement'),
    ...calls('absolute', '**.delete', '**.remove', '**.softDelete', '**.softRemove', '**.restore', '**.clear'),
    ...calls('read', '**.find*', '**.count*', '**.exist*', '**.sum', '**.average', '**.minimum', '**.maximum'),
  ],
};

/** Supabase: `supabase.from(t).insert(v)`, `.update(v)`, `.upsert(v)`, `.delete()`, `.select()`; `storage.from(b)`. */
export const supabase: EffectLibrary = {
  sideEffects: 'internal_write',
  name: 'Supabase',
  modules: ['@supabase/supabase-js'],
  clients: ['createClient'],
  types: ['SupabaseClient'],
  neutral: ['channel', 'removeChannel', 'auth.onAuthStateChange'],
  operations: [
    ...creates('none', 'inserts a row', 'from.insert'),
    // Its conflict target defaults to the primary key, which the row may or may not carry.
    ...calls('write', 'from.upsert', 'rpc', 'storage.from.update'),
    { call: 'from.update', kind: 'write', from: { from: 'update', argument: 0, style: 'set' } },
    ...calls('absolute', 'from.delete', 'storage.from.upload', 'storage.from.remove', 'storage.from.move', 'storage.from.copy'),
    ...calls('read', 'from.select', 'storage.from.download', 'storage.from.list', 'storage.from.getPublicUrl', 'storage.from.createSignedUrl'),
  ],
};

// An update document is relative when it uses `$inc`, `$push`, `$mul`, `$pop` or `$bit`, absolute
// when it only sets (`$set`, `$unset`, `$addToSet`, `$pull`, `$min`, `$max`, or a plain document,
// which Mongoose reads as `$set`).
const update = (call: string): EffectOperation => ({ call, kind: 'write', from: { from: 'update', argument: 1, style: 'mongo' } });

/** The MongoDB driver: `new MongoClient(url)`, `client.db(name).collection(name).<operation>(…)`. */
export const mongodb: EffectLibrary = {
  sideEffects: 'internal_write',
  name: 'MongoDB',
  modules: ['mongodb'],
  clients: ['MongoClient', 'MongoClient.connect'],
  types: ['Db', 'Collection'],
  clientMethods: ['db', 'collection', 'connect'],
  neutral: ['close', 'on', 'startSession', 'watch'],
  operations: [
    ...creates('none', 'inserts a document', 'insertOne', 'insertMany'),
    ...['updateOne', 'updateMany', 'findOneAndUpdate'].map(update),
    ...calls('absolute', 'replaceOne', 'findOneAndReplace', 'deleteOne', 'deleteMany', 'findOneAndDelete', 'createIndex', 'drop', 'dropIndex'),
    ...calls('write', 'bulkWrite'),
    ...calls('read', 'find', 'findOne', 'aggregate', 'countDocuments', 'estimatedDocumentCount', 'distinct', 'listIndexes', 'listCollections'),
  ],
};

/**
 * Mongoose: a model (`mongoose.model('User', schema)`, `model(...)`, `connection.model(...)`) and
 * its static operations; `new User(doc).save()` inserts, `(await User.findById(id)).save()` writes.
 */
export const mongoose: EffectLibrary = {
  sideEffects: 'internal_write',
  name: 'Mongoose',
  modules: ['mongoose'],
  clients: ['model', 'createConnection', 'connection'],
  types: ['Model'],
  clientMethods: ['model'],
  neutral: ['connect', 'disconnect', 'on', 'startSession'],
  operations: [
    ...creates('none', 'inserts a document', 'create', 'insertMany', 'new.save'),
    ...['updateOne', 'updateMany', 'findOneAndUpdate', 'findByIdAndUpdate'].map(update),
    ...calls('absolute', 'replaceOne', 'findOneAndReplace', 'deleteOne', 'deleteMany', 'findByIdAndDelete', 'findOneAndDelete', 'findByIdAndRemove'),
    ...calls('write', 'bulkWrite', 'bulkSave'),
    { call: 'findById', kind: 'read', chain: { save: 'write' } },
    { call: 'findOne', kind: 'read', chain: { save: 'write' } },
    ...calls('read', 'find', 'countDocuments', 'estimatedDocumentCount', 'exists', 'aggregate', 'distinct'),
  ],
};
