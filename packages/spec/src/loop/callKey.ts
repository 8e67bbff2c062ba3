/**
 * The idempotency key of one call of a tool that has no key of its own: a framework-native tool
 * with a declared policy, or an MCP tool called over the wire.
 *
 * The seed: "The key must be deterministic from the work, not random" (`key = f"{run_id}:{item_id}:refund"`).
 * For a tool that does not say which of its arguments name the item, the work is the whole call:
 * the durable run, the tool and its arguments. Two calls of the same tool with the same arguments
 * in the same run are the same work (a retry, a resume, a redelivery, the model asking again after
 * losing context); anything else is other work. The framework's tool-call id and the JSON-RPC
 * request id are never part of it: both are new on every attempt.
 *
 * @module
 */
import { hash } from 'node:crypto';
import { vouchDurable } from '../durable.js';
import { InputNotFingerprintableError } from '../errors.js';
import { fingerprint } from '../fingerprint.js';
import { assertValidKey, MAX_KEY_LENGTH, type DeterministicKey } from '../key.js';

/** The key's version tag, so that a future derivation can never collide with today's keys. */
const CALL_KEY_VERSION = 'c1';

/**
 * Derives the idempotency key of a call from the durable run, the tool's name and the call's
 * arguments: `c1:<run id>:<tool>:<fingerprint>`, where the fingerprint is the SHA-256 (hex) of
 * the arguments' RFC 8785 canonical JSON (`fingerprint`), so key order and number spelling do not
 * matter. When the run id and tool name are too long for the 255-character limit (Stripe's, and
 * {@link MAX_KEY_LENGTH}), the part before the fingerprint becomes its own SHA-256:
 * `c1:h:<sha256(run id, tool)>:<fingerprint>`. Pure: the same inputs give the same key in any
 * process, so an MCP client and a server, or a process before and after a restart, agree.
 *
 * Pass the arguments as the tool receives them after the framework's validation (defaults
 * filled in); a caller that only has the raw arguments (an MCP client) derives its own key from
 * those and sends it, rather than expecting the server to derive the same one.
 *
 * @param run - the durable run (`openRun`), or anything with its `id`; never a tool-call id.
 * @param tool - the tool's name.
 * @param args - the call's arguments, plain JSON data.
 * @returns the key, branded `DeterministicKey`.
 * @throws InputNotFingerprintableError if `args` is not plain JSON data (a `Map`, a `bigint`,
 *   `NaN`, a cycle ...).
 * @throws TypeError if the run id or the tool name is not a non-empty string.
 */
export function callKey(run: { readonly id: string }, tool: string, args: unknown): DeterministicKey {
  const runId = (run as { id?: unknown } | null | undefined)?.id;
  if (typeof runId !== 'string' || runId === '') {
    throw new TypeError(`callKey: run must have a non-empty string id (from openRun); got ${JSON.stringify(runId) ?? String(runId)}.`);
  }
  if (typeof tool !== 'string' || tool === '') throw new TypeError('callKey: the tool name must be a non-empty string.');
  let print: string;
  try {
    print = fingerprint(args);
  } catch (error) {
    throw new InputNotFingerprintableError(tool, (error as Error).message);
  }
  const readable = `${CALL_KEY_VERSION}:${runId}:${tool}:${print}`;
  if (readable.length <= MAX_KEY_LENGTH) return assertValidKey(vouchDurable(readable));
  // JSON of the pair, so that no run id and tool name can run together into another pair's text.
  const scope = hash('sha256', JSON.stringify([runId, tool]), 'hex');
  return assertValidKey(vouchDurable(`${CALL_KEY_VERSION}:h:${scope}:${print}`));
}
