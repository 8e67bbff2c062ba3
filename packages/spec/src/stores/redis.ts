/**
 * `@retrysafe/spec/stores/redis`: the dedup store on Redis through ioredis (5 or 6).
 *
 * Each record is one string key holding the record's JSON, with a `PX` expiry at its `expiresAt`.
 * The claim is one plain `SET key record NX PX ttl GET` that creates the record if the key is free
 * or returns the existing one, so that a first call's claim and a whole replay are one command
 * and no script; only a record found in progress (a concurrent call, a lapsed lock) is then read
 * again by a script that judges it by the server's clock. Reclaiming a free record is a compare-and-set in Lua (the script swaps the value only if
 * it is still exactly what the caller last saw); recording an outcome (complete, release, renew)
 * swaps it only while the record still names the holder's owner token. One round trip each. Every
 * script decides, stamps and sets `PX` by the server's clock as the key's `PX` anchors it (unless
 * `clock: 'caller'`; see RECORD_TIMES), so a renewal extends the key's `PX` with its lock; the
 * holder's write, the one every first call sends, is stamped by the store in the record's frame
 * before it leaves (stampHeld) and its script only compares the token and sets (HELD_WRITE).
 *
 * Redis Cluster and Valkey: every command and script of a call touches one key, and every key
 * carries its record's identity as a hash tag (`retrysafe:dedup:{<namespace>:<tool>:<key>}`), so a
 * record and anything a later script keeps beside it hash to one slot. Pass `nodes` (or your own
 * ioredis `Cluster` as `client`) for a cluster; Valkey speaks the same protocol and scripts.
 *
 * Durability is the server's, not ours: with `appendonly no` (and no RDB save) a Redis restart
 * forgets every record, so the store refuses such a server on first use (`DurabilityConfigError`)
 * unless `allowVolatile: true`; `appendonly yes` with `appendfsync everysec` can lose the last second of
 * claims and results on a server crash, `appendfsync always` none. Replication is asynchronous,
 * so a failover can lose acknowledged writes. Records carry a TTL, so an eviction policy other
 * than `noeviction` may drop them under memory pressure. A lost record means a retry runs the
 * effect again with the same key, which a provider that dedupes by key still absorbs.
 *
 * @module
 */
import { createHash } from 'node:crypto';
import { Cluster, Redis } from 'ioredis';
import { DurabilityConfigError } from '../errors.js';
import { createDedupStore, isExpired, mergeRun, type DedupStoreBackend, type InsertOrRead, type RecordRead } from './protocol.js';
import type { DedupRecord, DedupStore, RecordId, RunRecord, StoreInfo, StoredRun } from './types.js';

/** Options for `createRedisStore`: give a URL, a cluster's nodes, or your own ioredis client. */
export interface RedisStoreOptions {
  /** e.g. `redis://127.0.0.1:6379` (Redis or Valkey). The store creates and later quits its own client. */
  readonly url?: string;
  /**
   * Redis Cluster (or Valkey cluster): URLs of some of its nodes, e.g.
   * `['redis://10.0.0.1:6379', 'redis://10.0.0.2:6379']`; the store creates and later quits an
   * ioredis `Cluster` client, which finds the other nodes itself.
   */
  readonly nodes?: readonly string[];
  /** Use your client instead, a `Redis` or a `Cluster` (the store does not quit it). */
  readonly client?: Redis | Cluster;
  /** Prefix of every key the store writes; default `retrysafe:`. */
  readonly keyPrefix?: string;
  /** Connection timeout for a client the store creates, ms; default 5000. */
  readonly connectTimeoutMs?: number;
  /**
   * Longest wait for any one command's reply on a client the store creates, ms; default 10000.
   * A server that accepts the connection and then answers nothing (frozen, or cut off behind a
   * proxy) would otherwise hold the call forever: past the bound the command fails and the call
   * fails closed with `StoreUnavailableError`, nothing run. A claim that timed out may still have
   * reached the server: its retry recognises its own owner token (docs/runtime.md, leases).
   */
  readonly commandTimeoutMs?: number;
  /**
   * Whose clock decides expiry and locks. `'store'` (default): the server's, as each key's `PX`
   * counts it down (read with `PTTL` inside the scripts that judge a record), so that clock skew
   * between application machines cannot make one reclaim another's live claim or purge a live
   * record; a fresh record is stamped by the store's estimate of the server's clock (one `TIME`).
   * `'caller'`: the times the runner passes (its `now` option), for tests that move a clock.
   */
  readonly clock?: 'store' | 'caller' | undefined;
  /**
   * Coalesce the commands that concurrent calls send while the server is busy into one socket write
   * (default true; a `Redis` client, not a `Cluster`). With fewer than 8 commands of this client
   * awaiting replies, each command is written at once, so the server works on it while the client
   * goes on with the other calls; from 8 on, the store corks the client's socket until the next tick
   * (before the event loop waits for I/O), so the commands made meanwhile leave in one write, which
   * costs the server no idle time since it has work queued. Measured on one quiet machine
   * (docs/performance.md section 2): corking every tick made 8 callers take turns with the server
   * (0.54-0.67x of Powertools over ioredis on first calls), writing every command cost 64 callers
   * one write system call each. The commands and their order are unchanged.
   */
  readonly coalesceWrites?: boolean;
  /**
   * Accept a server without persistence (`save ""` and `appendonly no`), whose restart forgets
   * every record so that a retry runs the effect again; default false: such a server is refused
   * with `DurabilityConfigError` on first use. Opt in for tests, or where losing the records on a
   * restart is acceptable (a keyed provider then still dedupes the rerun).
   */
  readonly allowVolatile?: boolean;
}

// A dedup record's text starts with its four times in a fixed order (`encodeRecord`), so a script
// can read and restamp them without parsing JSON.
//
// Clock frames. A record's times are all in one frame, the one its key was created in: the
// server's clock as the store read or estimated it when the claim created the key (the claim is a
// plain `SET NX PX GET`, stamped with the last `TIME` the store read plus the local time since).
// The key's `PX` is always set to the record's expiresAt minus the writer's time in that frame,
// so the server's clock, in the record's frame, is its expiresAt minus the key's `PTTL`: a script
// judges and stamps a record by that (`clock`), so expiry and locks follow the server's clock
// whatever the estimate's error, and every later write keeps the record's frame. Under `clock:
// 'caller'` the time is the script's last argument instead.
const RECORD_TIMES = `
local HEAD = '^{"createdAt":(%-?%d+),"updatedAt":(%-?%d+),"expiresAt":(%-?%d+),"lockExpiresAt":([%-%dnul]+),'
local function clock(caller, text)
  if caller ~= '' then return tonumber(caller) end
  if text then
    local _, e, _, _, x = string.find(text, HEAD)
    local pttl = redis.call('PTTL', KEYS[1])
    if e and pttl > 0 then return tonumber(x) - pttl end
  end
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local function fmt(n) if n == nil then return 'null' end return string.format('%.0f', n) end
local function num(text) if text == 'null' then return nil end return tonumber(text) end
-- The record to write carries times from the caller's clock at its updatedAt: move each time it
-- sets by the same amount so that updatedAt is now; a time it leaves as stored (in old) stays.
local function stamp(text, old, now)
  local _, e, c, u, x, l = string.find(text, HEAD)
  if not e then error('retrysafe: record text without its times') end
  local shift = now - tonumber(u)
  local oc, ox, ol
  if old then
    local _, oe, c2, _, x2, l2 = string.find(old, HEAD)
    if oe then oc, ox, ol = c2, x2, l2 end
  end
  local function moved(v, o) if v == o then return num(v) end local n = num(v) if n == nil then return nil end return n + shift end
  local expires = moved(x, ox)
  local lock = moved(l, ol)
  -- A record never expires (nor its key's PX) before its lease, whatever mix of clocks it carried.
  if lock ~= nil and lock > expires then expires = lock end
  local times = {fmt(moved(c, oc)), fmt(now), fmt(expires), fmt(lock)}
  local value = '{"createdAt":' .. times[1] .. ',"updatedAt":' .. times[2] .. ',"expiresAt":' .. times[3] ..
    ',"lockExpiresAt":' .. times[4] .. ',' .. string.sub(text, e + 1)
  return value, math.max(1, expires - now), times
end
`;
// Read a record together with the server's time in its frame.
const READ_RECORD = `${RECORD_TIMES}
local cur = redis.call('GET', KEYS[1])
return {cur, fmt(clock(ARGV[1], cur))}`;
// Swap a record only if it is still exactly what the caller last read; PX follows its expiresAt.
const SWAP_RECORD = `${RECORD_TIMES}
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return false end
local value, px = stamp(ARGV[2], ARGV[1], clock(ARGV[3], ARGV[1]))
redis.call('SET', KEYS[1], value, 'PX', px)
return value`;
// Delete a dedup record only if it is still exactly what the sweep read and it has expired by the
// store's clock (in its frame: while the key lives, never) and no live lock holds it (isExpired).
const DEL_IF_EXPIRED = `${RECORD_TIMES}
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
local now = clock(ARGV[2], ARGV[1])
local _, e, _, _, x, l = string.find(ARGV[1], HEAD)
if not e then return 0 end
local lock = num(l)
if tonumber(x) > now or (lock ~= nil and lock > now) then return 0 end
return redis.call('DEL', KEYS[1])`;
// Swap a run record only if it is still exactly what the caller last read, keeping a PX expiry.
const CAS_SET = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
  return 1
end
return 0`;
const CAS_DEL = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0`;
// The holder's write (complete, release, renew) for a record held without a known clock frame
// (see HELD_WRITE): replace the record only while it still ends with the holder's owner token
// (ARGV[1], `,"owner":"<token>"}`; see ownerSuffix), stamped as SWAP_RECORD does.
const SET_IF_HELD = `${RECORD_TIMES}
local cur = redis.call('GET', KEYS[1])
if not cur or string.sub(cur, -string.len(ARGV[1])) ~= ARGV[1] then return false end
local value, px, times = stamp(ARGV[2], cur, clock(ARGV[3], cur))
redis.call('SET', KEYS[1], value, 'PX', px)
return times`;
// The holder's write as it is sent almost always: set the record (ARGV[2], PX ARGV[3]) only while
// the stored one still ends with the holder's owner token (ARGV[1]). A reclaim gives the record a
// new token and a completion or release removes it, so a holder whose lock lapsed and was taken
// over is refused, as with a compare of the whole record, but the holder sends ~50 bytes instead
// of the record it last saw. The client stamped the times and the PX in the record's clock frame
// (stampHeld), so the script reads no PTTL and parses nothing: GETRANGE reads only the token's
// bytes. A plain SET of the same value costs about as much; the stamping script cost 1.24x
// Powertools' two SETs per first call, this one 1.05-1.09x (sequential, interleaved, shared Redis).
const HELD_WRITE = `
if redis.call('GETRANGE', KEYS[1], -string.len(ARGV[1]), -1) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return 1`;
const OPEN_RUN_TRIES = 10;
/** Most namespaces, and tools per namespace, whose encoded key start a store keeps (see dedupKey). */
const SCOPE_CACHE = 256;

/**
 * Create the Redis dedup store. Nothing connects until the first call (or `ready()`). A client
 * the store creates retries a command across one reconnection at most, so an unreachable server
 * fails the call quickly and the runner does not run the effect.
 *
 * On first use the store checks that the server persists its data (`CONFIG GET save` and
 * `appendonly`, or `INFO persistence` where CONFIG is renamed) and refuses one that does not with
 * `DurabilityConfigError` (code `durability_config`, reason `volatile_store`): nothing runs, every
 * later call of the store fails the same way, and a client the store created is disconnected then
 * (`close()` is still safe to call; a client you passed is left as it is).
 * Pass `allowVolatile: true` to accept it.
 */
export function createRedisStore(options: RedisStoreOptions): DedupStore {
  return createDedupStore(redisBackend(options));
}

function redisBackend(options: RedisStoreOptions): DedupStoreBackend {
  const ownClient = options.client === undefined;
  if (options.url !== undefined && typeof options.url !== 'string') {
    throw new TypeError(`createRedisStore: url must be a string (redis://127.0.0.1:6379), got ${typeof options.url}`);
  }
  if (ownClient && !options.url && !options.nodes?.length) {
    throw new TypeError('createRedisStore needs `url` (e.g. redis://127.0.0.1:6379), `nodes` (a cluster) or `client`');
  }
  const client = options.client ?? createClient(options);
  const prefix = options.keyPrefix ?? 'retrysafe:';
  const storeClock = (options.clock ?? 'store') === 'store';
  // The script's clock argument: empty for the server's TIME, else the caller's time.
  const clockArg = (callerNow: number) => (storeClock ? '' : String(callerNow));
  // A cluster client the store creates queues nothing offline (else a command waits for a cluster
  // that is down, forever): it connects on the first command, then fails fast while it reconnects.
  const connection = watchConnection(client, ownClient && client instanceof Cluster, options.coalesceWrites ?? true, reachTarget(options));
  const info: StoreInfo = {
    kind: 'redis',
    location: `${describeTarget(options)} (keys ${prefix}*)`,
    durable: true,
    checkHint: `Check that Redis is running and reachable at ${describeTarget(options)}. For durable records the server needs appendonly yes and maxmemory-policy noeviction.`,
  };
  // Every command waits for the persistence check once (one round trip on first use), then not at all.
  // A refusal is final for this store (every later call gets the same error), so a client the
  // store created is let go at once: a process that catches the error and never calls close() is
  // not kept alive by the connection (new-user trial 8: such a script hung until killed).
  const persistence = options.allowVolatile === true ? undefined : persistenceGate(client, connection.run, info, ownClient ? () => disconnectNow(client) : undefined);
  const run = <T>(op: () => Promise<T>): Promise<T> =>
    persistence === undefined || persistence.passed ? connection.run(op) : persistence.check().then(() => connection.run(op));
  const script = scriptRunner(client);
  const cas = (key: string, expected: string, next: string, pxMs: number) =>
    script(CAS_SET, key, [expected, next, String(Math.max(1, Math.ceil(pxMs)))]).then((n) => n === 1);
  // The identity is the hash tag: encodeURIComponent leaves no brace in it, so the tag ends where it should.
  // The key's start for one namespace and tool, encoded once (a runner has few of each; bounded, so
  // a store that sees many tool names keeps no more than SCOPE_CACHE of them).
  const scopes = new Map<string, Map<string, string>>();
  const scopeOf = (namespace: string, tool: string): string => {
    let tools = scopes.get(namespace);
    if (tools === undefined) {
      if (scopes.size >= SCOPE_CACHE) scopes.clear();
      scopes.set(namespace, (tools = new Map()));
    }
    let scope = tools.get(tool);
    if (scope === undefined) {
      if (tools.size >= SCOPE_CACHE) tools.clear();
      tools.set(tool, (scope = `${prefix}dedup:{${enc(namespace)}:${enc(tool)}:`));
    }
    return scope;
  };
  const dedupKey = (id: RecordId) => `${scopeOf(id.namespace, id.tool)}${enc(id.key)}}`;
  const runKey = (stored: StoredRun) => `${prefix}run:{${enc(stored.namespace)}:${enc(stored.origin)}}`;

  // Every record this store hands out is a RedisRecord, which keeps (privately) the exact text it
  // was read as, so that the reclaim's compare-and-set compares byte for byte, and where a record
  // this store wrote and may be held stands in its clock frame (its Anchor), so that the holder's
  // write is stamped by the client (stampHeld) and its script only compares and sets (HELD_WRITE).
  // Records come back from the scripts restamped (by the server's clock), each with its text.
  // A record without them (a copy, or one another store made) takes the slower path, not a wrong one.
  // This store instance, as its records' anchors name it.
  const self = {};
  // The anchor of a record this store writes now, under the store's clock (under the caller's, the caller's time is the frame).
  const anchorAt = (at: number, key: string): Anchor | undefined => (storeClock ? { at, key, store: self } : undefined);
  const swap = (expected: DedupRecord, next: DedupRecord) =>
    run(async () => {
      const old = RedisRecord.textOf(expected) ?? encodeRecord(expected);
      const sent = performance.now();
      const key = dedupKey(expected);
      const value = await script(SWAP_RECORD, key, [old, encodeRecord(next), clockArg(next.updatedAt)]);
      if (typeof value !== 'string') return undefined;
      // The script stamped it by the server's clock in its frame, a moment after `sent`.
      return decodeRecord(value, expected, anchorAt(sent, key));
    });

  const readRecord = async (id: RecordId, key = dedupKey(id)): Promise<RecordRead> => {
    if (!storeClock) {
      const value = await client.get(key);
      return { record: value === null ? undefined : decodeRecord(value, id) };
    }
    const [value, now] = (await script(READ_RECORD, key, [''])) as [string | null, string];
    return { record: typeof value === 'string' ? decodeRecord(value, id) : undefined, now: Number(now) };
  };
  const serverClock = clockEstimate(client);
  const claimFast = async (fresh: DedupRecord): Promise<InsertOrRead> => {
    const sent = performance.now();
    const key = dedupKey(fresh);
    const record = inFrame(fresh, storeClock ? serverClock.now() : fresh.updatedAt, anchorAt(sent, key));
    const old = await client.set(key, encodeRecord(record), 'PX', Math.max(1, record.expiresAt - record.updatedAt), 'NX', 'GET');
    if (old === null) return { inserted: true, record };
    const found = decodeRecord(old, fresh);
    if (!storeClock) return { inserted: false, record: found };
    if (found.status !== 'in_progress' || found.fingerprint !== fresh.fingerprint) return { inserted: false, record: found, now: found.updatedAt };
    return { inserted: false, ...(await readRecord(fresh, key)) };
  };

  return {
    info,
    async ready() {
      // Under the store's clock, TIME both proves the connection and seeds the clock estimate.
      await run(async () => (storeClock ? serverClock.seed() : void (await client.ping())));
    },
    // The claim is one plain command, `SET key record NX PX ttl GET`: it stores the fresh record if
    // the key is free (a first call) or returns the record there (a replay), with no script.
    // Only a record in progress needs the store's clock to judge its lock: a second round trip
    // (READ_RECORD) reads it with the server's time in its frame. A completed or mismatched
    // record's decision depends on the time only through its expiry, and a key that still exists
    // has not expired by the server's clock (its PX), so it is judged at its own last write.
    insertOrRead: (fresh) =>
      storeClock && serverClock.offset === undefined
        ? run(() => serverClock.seed()).then(() => run(() => claimFast(fresh)))
        : run(() => claimFast(fresh)),
    read: (id) => run(() => readRecord(id)),
    swap,
    writeIfHeld: (held, next) =>
      run(async () => {
        if (held.owner === undefined) return undefined; // nobody holds it: nothing to write as its holder
        // An anchor another store instance set (another prefix or server) is not this store's frame.
        const found = RedisRecord.anchorOf(held);
        const anchor = found?.store === self ? found : undefined;
        const key = anchor?.key ?? dedupKey(held);
        const suffix = ownerSuffix(held.owner);
        const sent = performance.now();
        if (!storeClock || anchor !== undefined) {
          // The frame's clock now: the caller's time under `clock: 'caller'`, else the held
          // record's updatedAt plus the monotonic time since the frame's clock read it.
          const now = anchor === undefined ? next.updatedAt : Math.round(held.updatedAt + (sent - anchor.at));
          const record = stampHeld(next, held, now, anchorAt(sent, key));
          const px = Math.max(1, record.expiresAt - now);
          if ((await script(HELD_WRITE, key, [suffix, encodeRecord(record), String(px)])) !== 1) return undefined;
          return record;
        }
        // A record held without a known frame (found by a re-sent claim as its own): the server
        // stamps it, reading its frame from its key's PTTL.
        const times = await script(SET_IF_HELD, key, [suffix, encodeRecord(next), '']);
        // The script answers with the times it stamped, not the record: the rest is `next`'s, and
        // encodeRecord gives the stored text again (for a later compare).
        if (!Array.isArray(times)) return undefined;
        return withStampedTimes(next, times as string[], { at: sent, key, store: self });
      }),
    // Redis expires keys itself (PX, by the server's clock); this sweep removes what has expired
    // by the store's clock (the server's TIME, or the caller's `now` under `clock: 'caller'`).
    purgeExpired: (now) =>
      run(async () => sweepExpired(client, script, prefix, storeClock ? timeMs(await client.time()) : now, clockArg(now))),
    upsertRun: (fresh) => run(() => upsertRun(client, cas, runKey(fresh), fresh)),
    async close() {
      connection.stop();
      if (!ownClient) return;
      if (client.status === 'ready') await quitAndWait(client);
      else disconnectNow(client);
    },
  };
}

/**
 * Where a record this store wrote stands (kept by its RedisRecord): the local monotonic time
 * (`performance.now()`, ms) at which its clock frame read the record's updatedAt, and its Redis key.
 */
interface Anchor {
  readonly at: number;
  readonly key: string;
  /** The store instance (its backend) that set it: a record passed to another store is not anchored there. */
  readonly store: object;
}

/**
 * QUIT a ready client and resolve once its socket has closed (ioredis' `end`), not when the
 * server's `OK` arrives: the socket closes a moment after the reply, and a process that checked
 * what was left right after `close()` still found it open (`TCPSocketWrap`) on a loaded machine.
 * A server that answers QUIT and keeps the socket open is cut off after 1000 ms.
 */
async function quitAndWait(client: Redis | Cluster): Promise<void> {
  let cutOff: ReturnType<typeof setTimeout> | undefined;
  const ended = new Promise<void>((resolve) => {
    client.once('end', resolve);
    cutOff = setTimeout(() => {
      client.disconnect();
      resolve();
    }, 1000);
  });
  try {
    await client.quit();
    if (client.status !== 'end') await ended;
  } finally {
    clearTimeout(cutOff);
  }
}

/**
 * Disconnect a client that is not ready, leaving nothing queued or armed. A `Redis` client that
 * is waiting to reconnect (its socket already failed) keeps, after a plain `disconnect()`, the
 * commands queued meanwhile and their `commandTimeout` timers: no socket is left to close and
 * flush the queue, so a call in flight hung until its command timed out. Starting the reconnection
 * and cancelling it in the same tick makes ioredis end the client and fail what it queued
 * ("Connection is closed."); no socket is opened (the connector checks for the cancel first).
 */
function disconnectNow(client: Redis | Cluster): void {
  if (client instanceof Redis && client.status === 'reconnecting') client.connect().catch(() => undefined);
  client.disconnect();
}

/**
 * Remembers the client's last connection error, and `run` reports it in place of a command's
 * rejection: ioredis rejects with only "Connection is closed" or "Reached the max retries per
 * request limit", not the socket error behind it. The error `run` throws then leads with the cause,
 * `cannot reach redis at redis://127.0.0.1:6390: connect ECONNREFUSED 127.0.0.1:6390`, and has the
 * socket error (its `code`: ECONNREFUSED, ENOTFOUND, ETIMEDOUT...) as `cause`; the runner wraps it
 * in `StoreUnavailableError`. A reply from the server (`ReplyError`) is not a connection problem
 * and passes unchanged.
 */
function watchConnection(client: Redis | Cluster, connectFirst: boolean, coalesce: boolean, target: string) {
  let lastConnectionError: Error | undefined;
  let connecting: Promise<void> | undefined;
  const cork = coalesce && client instanceof Redis ? corker(client) : undefined;
  const onError = (error: Error) => {
    lastConnectionError = error;
  };
  const onReady = () => {
    lastConnectionError = undefined;
  };
  client.on('error', onError);
  client.on('ready', onReady);
  // The error a command failed with, led by the connection error behind it (see above).
  const explain = (error: unknown): never => {
    const cause = lastConnectionError;
    if (cause && error instanceof Error && error.name !== 'ReplyError') {
      throw new Error(`cannot reach ${target}: ${describeConnectionError(cause)}`, { cause });
    }
    throw error;
  };
  const start = <T>(op: () => Promise<T>): Promise<T> => {
    cork?.();
    return op();
  };
  return {
    // Not an async function: the command's own promise with one rejection handler (an async
    // wrapper cost a promise and a resumption more, on every command of every call).
    run<T>(op: () => Promise<T>): Promise<T> {
      // A lazy client connects on its first command, queued meanwhile; a cluster client without
      // an offline queue is connected first.
      if (connectFirst && client.status === 'wait') {
        const connected = (connecting ??= client.connect().finally(() => {
          connecting = undefined;
        }));
        return connected.then(() => start(op)).catch(explain);
      }
      let pending: Promise<T>;
      try {
        pending = start(op);
      } catch (error) {
        return Promise.reject(error).catch(explain);
      }
      return pending.catch(explain);
    },
    stop() {
      client.off('error', onError);
      client.off('ready', onReady);
    },
  };
}

/**
 * A connection error as a user can act on it. A cluster client's is ioredis' "Failed to refresh
 * slots cache." (ClusterAllFailedError): it asked every node it knows for the slot map and none
 * answered; the nodes' socket errors (ECONNREFUSED...) stay inside ioredis, on connections it
 * makes and drops for that question.
 */
function describeConnectionError(error: Error): string {
  if (error.name === 'ClusterAllFailedError') return 'no node answered (ioredis: Failed to refresh slots cache)';
  return error.message;
}

/**
 * How many commands of one client may await replies before the store corks its socket (see
 * `coalesceWrites`): below it the server may be idle, so a command is written at once; from it on
 * the server has queued work, and the commands of the rest of the tick leave in one write. 8 is the
 * policy measured best of 4, 8 and 16 at 8 and 64 callers (docs/performance.md section 2).
 */
const CORK_FROM_IN_FLIGHT = 8;

/**
 * Corks the connected client's socket until the next tick, once per tick, when at least
 * CORK_FROM_IN_FLIGHT of its commands await replies: the commands written meanwhile (by every call
 * that resumed in this tick) leave in one write. `process.nextTick` runs after the promise jobs of
 * the current turn and before the loop polls for I/O, so no command waits longer than the turn
 * that sent it.
 */
function corker(client: Redis): () => void {
  let corked: Redis['stream'] | undefined;
  const uncork = () => {
    const stream = corked;
    corked = undefined;
    stream?.uncork();
  };
  return () => {
    if (corked !== undefined || client.status !== 'ready' || client.commandQueue.length < CORK_FROM_IN_FLIGHT) return;
    corked = client.stream;
    corked.cork();
    process.nextTick(uncork);
  };
}

/**
 * Refuses a server that keeps nothing across a restart: `CONFIG GET save` empty and `CONFIG GET
 * appendonly` `no` (the server's own answer). Where CONFIG is not allowed (managed services often
 * rename it), `INFO persistence` decides: `aof_enabled:1` passes, anything else cannot be
 * confirmed durable and is refused too. A failed check (server unreachable) is retried on the
 * next command; a refusal is remembered.
 */
function persistenceGate(client: Redis | Cluster, run: <T>(op: () => Promise<T>) => Promise<T>, info: StoreInfo, onRefused?: () => void) {
  let checking: Promise<void> | undefined;
  const gate = {
    passed: false,
    check(): Promise<void> {
      checking ??= run(() => readPersistence(client)).then(
        (found) => {
          if (found.durable) {
            gate.passed = true;
            return;
          }
          onRefused?.();
          throw new DurabilityConfigError(
            'volatile_store',
            `The Redis server at ${info.location} keeps no records across a restart (${found.evidence}): a restart would forget every ` +
              'dedup record, and retries would run their effects again. Nothing ran. Turn persistence on (appendonly yes, with ' +
              'appendfsync everysec or always), or pass allowVolatile: true to createRedisStore to accept losing the records.',
            // What the check found, not what the store was built to be: this server is not durable.
            { ...info, durable: false },
          );
        },
        (error: unknown) => {
          checking = undefined; // unreachable: check again once the server is back
          throw error;
        },
      );
      return checking;
    },
  };
  return gate;
}

async function readPersistence(client: Redis | Cluster): Promise<{ durable: boolean; evidence: string }> {
  let save: string | undefined;
  let appendonly: string | undefined;
  try {
    // One parameter per CONFIG GET: Redis before 7 takes only one.
    save = ((await client.call('CONFIG', 'GET', 'save')) as string[])[1];
    appendonly = ((await client.call('CONFIG', 'GET', 'appendonly')) as string[])[1];
  } catch (error) {
    // CONFIG disabled or renamed (the server's reply error): fall back to INFO below. Anything
    // else (the server is unreachable) is the store's error to report.
    if (!(error instanceof Error) || error.name !== 'ReplyError') throw error;
  }
  if (save !== undefined && appendonly !== undefined) {
    return { durable: save.trim() !== '' || appendonly === 'yes', evidence: `CONFIG GET: save "${save}", appendonly ${appendonly}` };
  }
  const text = await client.info('persistence');
  const aof = /^aof_enabled:(\d)/m.exec(text)?.[1];
  return { durable: aof === '1', evidence: `CONFIG GET is not available and INFO persistence says aof_enabled:${aof ?? 'unknown'}` };
}

/**
 * Deletes the keys under `prefix` whose record or run says it expired at or before `now`. On a
 * cluster each primary is scanned in turn, and values are read one key per command (a multi-key
 * `MGET` would cross slots).
 */
async function sweepExpired(client: Redis | Cluster, script: ReturnType<typeof scriptRunner>, prefix: string, now: number, clockArg: string): Promise<number> {
  let purged = 0;
  for (const node of client instanceof Cluster ? client.nodes('master') : [client]) {
    purged += await sweepNode(node, client instanceof Cluster, script, prefix, now, clockArg);
  }
  return purged;
}

async function sweepNode(node: Redis, cluster: boolean, script: ReturnType<typeof scriptRunner>, prefix: string, now: number, clockArg: string): Promise<number> {
  const dedup = `${prefix}dedup:`;
  let purged = 0;
  let cursor = '0';
  do {
    const [next, keys] = await node.scan(cursor, 'MATCH', `${escapeGlob(prefix)}*`, 'COUNT', 500);
    cursor = next;
    if (keys.length === 0) continue;
    const values = cluster ? await getEach(node, keys) : await node.mget(...keys);
    for (const [i, value] of values.entries()) {
      const key = keys[i];
      if (value === null || value === undefined || key === undefined) continue;
      const { expiresAt, lockExpiresAt } = JSON.parse(value) as { expiresAt?: number; lockExpiresAt?: number | null };
      // Never a record whose lock is live (transitions.ts, isExpired). A dedup record that looks
      // expired is judged again on the server, in its own clock frame (DEL_IF_EXPIRED): its times
      // may be stamped by an estimate of the server's clock (clockEstimate).
      if (typeof expiresAt === 'number' && isExpired({ expiresAt, lockExpiresAt: lockExpiresAt ?? undefined }, now)) {
        purged += Number(await (key.startsWith(dedup) ? script(DEL_IF_EXPIRED, key, [value, clockArg]) : script(CAS_DEL, key, [value])));
      }
    }
  } while (cursor !== '0');
  return purged;
}

/** `mergeRun` with `SET NX PX GET` (one round trip to create or load) and a compare-and-set to extend. */
async function upsertRun(
  client: Redis | Cluster,
  cas: (key: string, expected: string, next: string, pxMs: number) => Promise<boolean>,
  key: string,
  fresh: StoredRun,
): Promise<RunRecord> {
  const text = JSON.stringify(fresh);
  for (let tries = 0; tries < OPEN_RUN_TRIES; tries += 1) {
    const old = await client.set(key, text, 'PX', fresh.expiresAt - fresh.createdAt, 'NX', 'GET');
    if (old === null) return { ...fresh, created: true };
    const existing = JSON.parse(old) as StoredRun;
    const merged = mergeRun(existing, fresh);
    if (!merged.created && merged.expiresAt === existing.expiresAt) return merged;
    const next: StoredRun = { namespace: merged.namespace, origin: merged.origin, id: merged.id, createdAt: merged.createdAt, expiresAt: merged.expiresAt };
    if (await cas(key, old, JSON.stringify(next), next.expiresAt - fresh.createdAt)) return merged;
  }
  throw new Error(`opening run ${key} did not settle after ${OPEN_RUN_TRIES} tries`);
}

/**
 * `fresh` moved to the clock frame that starts at `now` (every time by the same amount), with its
 * expiry at least its lock's, as the scripts' `stamp` does: the claim's `PX` is then expiresAt
 * minus updatedAt, which RECORD_TIMES' `clock` relies on.
 */
function inFrame(fresh: DedupRecord, now: number, anchor: Anchor | undefined): DedupRecord {
  const shift = now - fresh.updatedAt;
  const lock = fresh.lockExpiresAt === undefined ? undefined : fresh.lockExpiresAt + shift;
  const expires = fresh.expiresAt + shift;
  return withTimes(fresh, fresh.createdAt + shift, now, lock !== undefined && lock > expires ? lock : expires, lock, anchor);
}

/**
 * The server's clock as this process estimates it: the offset of one `TIME` (at the midpoint of
 * its round trip) from the local clock, read on first use and again, in the background, every
 * minute. It only stamps the records a claim creates; expiry and locks are judged on the server
 * (RECORD_TIMES), so an error in the estimate moves the times a record shows, never a decision.
 */
function clockEstimate(client: Redis | Cluster) {
  let seeding: Promise<void> | undefined;
  let seededAt = 0;
  const estimate = {
    offset: undefined as number | undefined,
    seed(): Promise<void> {
      seeding ??= (async () => {
        const sent = Date.now();
        const time = await client.time();
        const received = Date.now();
        estimate.offset = timeMs(time) - Math.round((sent + received) / 2);
        seededAt = received;
      })().finally(() => {
        seeding = undefined;
      });
      return seeding;
    },
    now(): number {
      const local = Date.now();
      if (local - seededAt > 60_000 && seeding === undefined) estimate.seed().catch(() => undefined);
      return local + (estimate.offset ?? 0);
    },
  };
  return estimate;
}

/**
 * `next` stamped at `now` in the held record's clock frame, as RECORD_TIMES' `stamp` does on the
 * server: `next` carries times from the caller's clock at its updatedAt, so each time it changed
 * from `held` moves by the same amount (now − next.updatedAt) and a time it kept stays; the expiry
 * is at least the lock. The key's PX is then expiresAt − now, which keeps the frame: a lock set
 * here lasts lockMs from the moment the server applies the write, whatever the frame's offset.
 */
function stampHeld(next: DedupRecord, held: DedupRecord, now: number, anchor: Anchor | undefined): DedupRecord {
  const shift = now - next.updatedAt;
  const moved = (value: number, was: number | undefined) => (value === was ? value : value + shift);
  const lock = next.lockExpiresAt === undefined ? undefined : moved(next.lockExpiresAt, held.lockExpiresAt);
  const expires = moved(next.expiresAt, held.expiresAt);
  return withTimes(next, moved(next.createdAt, held.createdAt), now, lock !== undefined && lock > expires ? lock : expires, lock, anchor);
}

/** `next` with the times a script stamped (createdAt, updatedAt, expiresAt, lockExpiresAt as text). */
function withStampedTimes(next: DedupRecord, [created, updated, expires, lock]: readonly string[], anchor: Anchor): DedupRecord {
  return withTimes(next, Number(created), Number(updated), Number(expires), lock === 'null' || lock === undefined ? undefined : Number(lock), anchor);
}

/** `next` with these times, field by field (a spread that then sets fields is slow on Node 20). */
function withTimes(next: DedupRecord, createdAt: number, updatedAt: number, expiresAt: number, lockExpiresAt: number | undefined, anchor: Anchor | undefined): DedupRecord {
  return new RedisRecord(next, next, createdAt, updatedAt, expiresAt, lockExpiresAt, undefined, anchor);
}

/**
 * A dedup record as this store hands it out: the record's fields, as a plain record has them (the
 * same own properties in the same order), and, privately, the exact text the record was read as
 * (for the reclaim's byte-for-byte compare) and its Anchor (for the holder's write). They were
 * kept in WeakMaps, an entry per record read or held (two per first call, one per replay): an
 * entry cost about 1.2 µs of CPU (decoding a replay's record took 3.1 µs with it, 1.85 µs with a
 * private field, Node 20), most of it the garbage collector's work on the WeakMap's ephemerons.
 * A copy of a record (a spread) carries neither, and takes the slower path (encodeRecord, SET_IF_HELD).
 */
class RedisRecord implements DedupRecord {
  readonly namespace: string;
  readonly tool: string;
  readonly key: string;
  readonly fingerprint: string;
  readonly status: DedupRecord['status'];
  readonly result: string | undefined;
  readonly resultError: string | undefined;
  readonly errors: DedupRecord['errors'];
  readonly attempts: number;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly expiresAt: number;
  readonly lockExpiresAt: number | undefined;
  readonly owner: string | undefined;
  readonly #text: string | undefined;
  readonly #anchor: Anchor | undefined;

  constructor(
    id: RecordId,
    r: Pick<DedupRecord, 'fingerprint' | 'status' | 'result' | 'resultError' | 'errors' | 'attempts' | 'owner'>,
    createdAt: number,
    updatedAt: number,
    expiresAt: number,
    lockExpiresAt: number | undefined,
    text: string | undefined,
    anchor: Anchor | undefined,
  ) {
    this.namespace = id.namespace;
    this.tool = id.tool;
    this.key = id.key;
    this.fingerprint = r.fingerprint;
    this.status = r.status;
    // JSON that a record was read from holds null where a field was undefined (older writers).
    this.result = r.result ?? undefined;
    this.resultError = r.resultError ?? undefined;
    this.errors = r.errors;
    this.attempts = r.attempts;
    this.createdAt = createdAt;
    this.updatedAt = updatedAt;
    this.expiresAt = expiresAt;
    this.lockExpiresAt = lockExpiresAt;
    this.owner = r.owner ?? undefined;
    this.#text = text;
    this.#anchor = anchor;
  }

  /** The exact text `record` was read as, if this store read it. */
  static textOf(record: DedupRecord): string | undefined {
    return record instanceof RedisRecord ? record.#text : undefined;
  }

  /** Where `record` stands in its clock frame, if this store wrote it under the store's clock. */
  static anchorOf(record: DedupRecord): Anchor | undefined {
    return record instanceof RedisRecord ? record.#anchor : undefined;
  }
}

/**
 * Fixed field order, so that re-encoding a record the store handed out gives the stored string.
 * The record's identity (namespace, tool, key) is left out: its key holds it (`dedupKey`), and the
 * store knows it wherever it reads one. Records that still carry it decode the same.
 */
function encodeRecord(r: DedupRecord): string {
  // The times first and always present (lockExpiresAt as null), for the scripts' RECORD_TIMES.
  // Written out rather than JSON.stringify of an object literal (one object and one property walk
  // fewer per write, twice per first call): the text is the one JSON.stringify gives for the same
  // fields in this order (tests/redis-writes.test.ts compares them), undefined fields left out.
  // Times and attempts are finite numbers (JSON.stringify spells them as String does; a NaN or
  // infinite one would be a bug upstream, and is refused here rather than stored as `null`).
  let text = `{"createdAt":${num(r.createdAt)},"updatedAt":${num(r.updatedAt)},"expiresAt":${num(r.expiresAt)},"lockExpiresAt":${r.lockExpiresAt === undefined ? 'null' : num(r.lockExpiresAt)},"fingerprint":${JSON.stringify(r.fingerprint)},"status":${JSON.stringify(r.status)}`;
  if (r.result !== undefined) text += `,"result":${JSON.stringify(r.result)}`;
  if (r.resultError !== undefined) text += `,"resultError":${JSON.stringify(r.resultError)}`;
  text += `,"errors":${r.errors.length === 0 ? '[]' : JSON.stringify(r.errors)},"attempts":${num(r.attempts)}`;
  if (r.owner !== undefined) text += `,"owner":${JSON.stringify(r.owner)}`;
  return `${text}}`;
}

/** A record's number as JSON writes it; a number JSON cannot hold is a bug, refused before it is stored. */
function num(n: number): string {
  if (!Number.isFinite(n)) throw new TypeError(`retrysafe: a dedup record's time or attempt count is ${n}`);
  return String(n);
}

/**
 * How a held record's text ends: `owner` is the last field `encodeRecord` writes and is set only
 * while someone holds the lock, and no other field's JSON can end in `"}` followed by nothing, so
 * the suffix identifies the holder exactly.
 */
function ownerSuffix(owner: string): string {
  return `,"owner":${JSON.stringify(owner)}}`;
}

/**
 * The record a stored string holds, field by field (JSON leaves out what is undefined; a spread
 * that adds those fields back is slow on Node 20, and this runs on every claim that finds a record).
 */
function decodeRecord(value: string, id: RecordId, anchor?: Anchor): DedupRecord {
  const r = JSON.parse(value) as DedupRecord;
  return new RedisRecord(id, r, r.createdAt, r.updatedAt, r.expiresAt, r.lockExpiresAt ?? undefined, value, anchor);
}

/** A TIME reply in epoch ms. */
function timeMs([seconds, micros]: readonly (string | number)[]): number {
  return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
}

/** EVALSHA, falling back to EVAL once when the server has not cached the script yet. */
function scriptRunner(client: Redis | Cluster) {
  const shas = new Map<string, string>();
  // Not an async function (one promise fewer per script call): EVALSHA's promise, with a handler
  // that re-sends the script itself only when the server answers NOSCRIPT.
  return (lua: string, key: string, args: string[]): Promise<unknown> => {
    let sha = shas.get(lua);
    if (!sha) {
      sha = createHash('sha1').update(lua).digest('hex');
      shas.set(lua, sha);
    }
    return client.evalsha(sha, 1, key, ...args).catch((error: unknown) => {
      if (error instanceof Error && error.message.startsWith('NOSCRIPT')) {
        return client.eval(lua, 1, key, ...args);
      }
      throw error;
    });
  };
}

const enc = (part: string) => encodeURIComponent(part);
const escapeGlob = (text: string) => text.replace(/[*?[\]\\]/g, '\\$&');

/** The values of `keys` on one node, one `GET` each in a pipeline; a key that moved reads as absent. */
async function getEach(node: Redis, keys: readonly string[]): Promise<(string | null)[]> {
  const pipeline = node.pipeline();
  for (const key of keys) pipeline.get(key);
  const replies = (await pipeline.exec()) ?? [];
  return replies.map(([error, value]) => (error ? null : (value as string | null)));
}

function createClient(options: RedisStoreOptions): Redis | Cluster {
  const connectTimeout = options.connectTimeoutMs ?? 5000;
  const commandTimeout = options.commandTimeoutMs ?? 10_000;
  // ioredis' disconnect ends the last socket and arms a timer (disconnectTimeout, default 2 s)
  // to destroy it if it does not close; a socket that had already failed (ECONNREFUSED while the
  // server is down) never emits the close that clears the timer, so close() left the process
  // alive 2 s more (tests/redis-down.test.ts). 0: destroy it on the next turn; the store never
  // waits for a graceful end (its replies are answered or failed by then).
  const disconnectTimeout = 0;
  if (options.nodes?.length) {
    return new Cluster(
      options.nodes.map((node) => {
        const { hostname, port } = new URL(node);
        return { host: hostname, port: Number(port || 6379) };
      }),
      { lazyConnect: true, enableOfflineQueue: false, redisOptions: { maxRetriesPerRequest: 1, connectTimeout, commandTimeout, disconnectTimeout, ...credentials(options.nodes[0] as string) } },
    );
  }
  return new Redis(options.url as string, { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout, commandTimeout, disconnectTimeout });
}

/** The user name and password of a node URL, for every node of a cluster. */
function credentials(url: string): { username?: string; password?: string } {
  const { username, password } = new URL(url);
  return { ...(username && { username: decodeURIComponent(username) }), ...(password && { password: decodeURIComponent(password) }) };
}

/** Who a connection error could not reach: `redis at <url>`, or the cluster, or your client. */
function reachTarget(options: RedisStoreOptions): string {
  if (options.nodes?.length) return `the Redis Cluster at ${options.nodes.map(describeUrl).join(', ')}`;
  return options.url ? `redis at ${describeUrl(options.url)}` : describeTarget(options);
}

/** Where the store's server is, after `at` in its messages: the URL, or a cluster's node URLs. */
function describeTarget(options: RedisStoreOptions): string {
  if (options.nodes?.length) return `${options.nodes.map(describeUrl).join(', ')} (a cluster)`;
  return describeUrl(options.url);
}

function describeUrl(url: string | undefined): string {
  if (!url) return 'Redis (your client)';
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'Redis';
  }
}
