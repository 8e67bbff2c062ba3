import type { EffectCommand, EffectLibrary, EffectOperation } from './catalogue.js';
import { calls, commandCall, creates } from './define.js';

/**
 * Node's `fs` (callback, `*Sync`, `fs.promises` and `fs/promises`) and fs-extra. Writing a file
 * replaces it (absolute); appending adds to it (relative); a new temporary directory is new each call.
 */
export const fs: EffectLibrary = {
  sideEffects: 'internal_write',
  name: 'fs',
  modules: ['fs', 'fs/promises', 'fs-extra', 'graceful-fs'],
  clients: [''],
  operations: [
    ...calls('relative', '**.appendFile*'),
    ...creates('none', 'creates a temporary directory', '**.mkdtemp*'),
    ...calls(
      'read',
      '**.readFile*', '**.readdir*', '**.stat*', '**.lstat*', '**.access*', '**.exists*', '**.realpath*', '**.readlink*', '**.opendir*',
      '**.createReadStream', '**.readJson*', '**.pathExists*', '**.watch*', '**.glob*',
    ),
    // Making a directory (or ensuring one) adds and never overwrites.
    ...calls('absolute', '**.mkdir*', '**.ensureDir*', '**.ensureFile*', '**.mkdirp*', '**.mkdirs*').map((operation) => ({ ...operation, additive: true })),
    ...calls(
      'absolute',
      '**.writeFile*', '**.rm*', '**.unlink*', '**.copyFile*', '**.cp*', '**.rename*', '**.chmod*', '**.chown*',
      '**.utimes*', '**.truncate*', '**.symlink*', '**.link*', '**.writeJson*', '**.outputFile*', '**.outputJson*', '**.remove*',
      '**.emptyDir*', '**.move*', '**.copy*',
    ),
    // `createWriteStream(path, { flags: 'a' })` appends: not visible from the name.
    ...calls('write', '**.createWriteStream', '**.write', '**.writeSync'),
  ],
};

// Redis commands by what a repeat does. Matched without regard to case: ioredis spells `hincrby`,
// node-redis `hIncrBy` and `HINCRBY`; `call` / `sendCommand` name the command as a string.
const READS = [
  'get', 'mget', 'getrange', 'strlen', 'exists', 'type', 'ttl', 'pttl', 'keys', 'scan', 'hget', 'hmget', 'hgetall', 'hkeys', 'hvals',
  'hlen', 'hexists', 'hscan', 'smembers', 'sismember', 'smismember', 'scard', 'srandmember', 'sscan', 'zrange', 'zrangebyscore',
  'zrevrange', 'zrevrangebyscore', 'zscore', 'zrank', 'zrevrank', 'zcard', 'zcount', 'zscan', 'lrange', 'lindex', 'llen', 'xrange',
  'xrevrange', 'xlen', 'xread', 'xinfo', 'pfcount', 'geopos', 'geodist', 'geosearch', 'dbsize', 'info', 'json.get', 'json.type', 'ping',
];
const ABSOLUTE = [
  'set', 'setex', 'psetex', 'setnx', 'mset', 'msetnx', 'hset', 'hmset', 'hsetnx', 'del', 'unlink', 'hdel', 'expire', 'pexpire',
  'expireat', 'pexpireat', 'persist', 'rename', 'renamenx', 'sadd', 'srem', 'smove', 'zadd', 'zrem', 'zremrangebyscore', 'zremrangebyrank',
  'lrem', 'lset', 'ltrim', 'getset', 'setrange', 'copy', 'geoadd', 'pfadd', 'xdel', 'xtrim', 'json.set', 'json.del', 'flushdb', 'flushall',
];
const RELATIVE = [
  'incr', 'incrby', 'incrbyfloat', 'decr', 'decrby', 'hincrby', 'hincrbyfloat', 'zincrby', 'lpush', 'rpush', 'lpushx', 'rpushx',
  'linsert', 'append', 'xadd', 'lpop', 'rpop', 'lmove', 'rpoplpush', 'blpop', 'brpop', 'spop', 'zpopmin', 'zpopmax', 'getdel',
  'json.numincrby', 'json.arrappend', 'json.strappend',
];

const operations: readonly EffectOperation[] = [
  ...calls('read', ...READS),
  ...calls('absolute', ...ABSOLUTE),
  ...calls('relative', ...RELATIVE),
  { call: 'publish', kind: 'create', key: 'none', does: 'publishes a message' },
  { call: 'spublish', kind: 'create', key: 'none', does: 'publishes a message' },
  { call: 'call', kind: 'unknown', from: { from: 'command', argument: 0 } },
  { call: 'sendCommand', kind: 'unknown', from: { from: 'command', argument: 0 } },
];

const shared = {
  sideEffects: 'internal_write',
  clientMethods: ['multi', 'pipeline', 'duplicate', 'connect', 'isolated'],
  neutral: ['on', 'once', 'off', 'quit', 'disconnect', 'connect', 'exec', 'watch', 'unwatch', 'subscribe', 'unsubscribe', 'select', 'close', 'destroy'],
  caseInsensitive: true,
  operations,
} as const;

/** ioredis: `new Redis(url)`, `new Redis.Cluster(nodes)`. */
export const ioredis: EffectLibrary = { name: 'ioredis', modules: ['ioredis'], clients: ['default', 'Redis', 'Cluster', 'default.Cluster'], ...shared };

/** node-redis: `await createClient({ url }).connect()`. */
export const nodeRedis: EffectLibrary = {
  name: 'redis',
  modules: ['redis', '@redis/client'],
  clients: ['createClient', 'createCluster'],
  types: ['RedisClientType'],
  ...shared,
};

/** Upstash's HTTP client: `new Redis({ url, token })`, `Redis.fromEnv()`. */
export const upstashRedis: EffectLibrary = {
  name: '@upstash/redis',
  modules: ['@upstash/redis', '@upstash/redis/cloudflare', '@upstash/redis/nodejs'],
  clients: ['Redis', 'Redis.fromEnv'],
  ...shared,
};

const command = (kind: EffectCommand['kind'], ...names: string[]): EffectCommand[] => names.map((name) => ({ name, kind }));
const UPDATE_EXPRESSION = { from: 'update', argument: 0, property: 'UpdateExpression', style: 'dynamodb' } as const;

/**
 * DynamoDB, low level and document client: `client.send(new UpdateCommand({ UpdateExpression }))`.
 * A put replaces the item (absolute); an update is relative when its expression uses `ADD`,
 * `#n = #n + :v` or `list_append`; a transaction dedupes on `ClientRequestToken`.
 */
export const dynamodb: EffectLibrary = {
  sideEffects: 'internal_write',
  name: 'DynamoDB',
  modules: ['@aws-sdk/client-dynamodb', '@aws-sdk/lib-dynamodb'],
  clients: ['DynamoDBClient', 'DynamoDB', 'DynamoDBDocumentClient.from', 'DynamoDBDocument.from', 'DynamoDBDocument'],
  neutral: ['destroy'],
  commands: [
    ...command('absolute', 'PutItemCommand', 'PutCommand', 'DeleteItemCommand', 'DeleteCommand', 'BatchWriteItemCommand', 'BatchWriteCommand'),
    { name: 'UpdateItemCommand', kind: 'write', from: UPDATE_EXPRESSION },
    { name: 'UpdateCommand', kind: 'write', from: UPDATE_EXPRESSION },
    ...['TransactWriteItemsCommand', 'TransactWriteCommand'].map(
      (name): EffectCommand => ({ name, kind: 'write', key: { property: 'ClientRequestToken', argument: 0 } }),
    ),
    ...command('read', 'GetItemCommand', 'GetCommand', 'QueryCommand', 'ScanCommand', 'BatchGetItemCommand', 'BatchGetCommand', 'TransactGetItemsCommand', 'TransactGetCommand'),
  ],
  operations: [
    commandCall(),
    ...calls('absolute', 'put', 'putItem', 'delete', 'deleteItem', 'batchWrite', 'batchWriteItem'),
    { call: 'update', kind: 'write', from: UPDATE_EXPRESSION },
    { call: 'updateItem', kind: 'write', from: UPDATE_EXPRESSION },
    ...calls('read', 'get', 'getItem', 'query', 'scan', 'batchGet', 'batchGetItem'),
  ],
};

/** Amazon S3: putting or deleting an object by key is absolute; a multipart upload is new each time. */
export const s3: EffectLibrary = {
  sideEffects: 'internal_write',
  name: 'Amazon S3',
  modules: ['@aws-sdk/client-s3'],
  clients: ['S3Client', 'S3'],
  neutral: ['destroy'],
  commands: [
    ...command('absolute', 'PutObjectCommand', 'CopyObjectCommand', 'DeleteObjectCommand', 'DeleteObjectsCommand', 'UploadPartCommand', 'CompleteMultipartUploadCommand', 'AbortMultipartUploadCommand', 'CreateBucketCommand', 'DeleteBucketCommand', 'PutObjectTaggingCommand'),
    { name: 'CreateMultipartUploadCommand', kind: 'create', key: 'none', does: 'starts an upload' },
    ...command('read', 'GetObjectCommand', 'HeadObjectCommand', 'ListObjectsCommand', 'ListObjectsV2Command', 'ListBucketsCommand', 'GetObjectTaggingCommand'),
  ],
  operations: [
    commandCall(),
    ...calls('absolute', 'putObject', 'copyObject', 'deleteObject', 'deleteObjects'),
    ...calls('read', 'getObject', 'headObject', 'listObjects', 'listObjectsV2'),
  ],
};
