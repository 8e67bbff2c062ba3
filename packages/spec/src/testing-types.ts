/**
 * Test helpers for the type level. Not for production: a production run context comes from
 * `openRun(store, origin)`, which persists the run id so that it survives a resume.
 *
 * @packageDocumentation
 */
import { vouchDurable } from './durable.js';
import type { RunContext } from './run.js';

/**
 * Builds a {@link RunContext} from a literal id, for tests only. It vouches for `id` without
 * persisting it, which is exactly what production code must not do: a run id made up at start-up is
 * a new id after a resume, and every key built from it changes.
 *
 * @param id - the run id to use, such as `'run-1'`.
 */
export function runContextForTests(id: string): RunContext {
  return { id: vouchDurable(id) };
}
