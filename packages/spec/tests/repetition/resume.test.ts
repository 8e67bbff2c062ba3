/**
 * The seed's fourth source of repetition, end to end: run resumption. An agent process (a real
 * child process, an AI SDK loop over the guarded refund) is SIGKILLed after the refund landed and
 * was recorded, before its own checkpoint. It is started again for the same job: `openRun` gives
 * it the same run id from the store, it resumes from its stored conversation (which does not show
 * the refund), and the scripted model asks for the refund again. The ledger counts one, and the
 * resumed run is told it was a replay.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startProviderStandIn } from '../helpers/ledger.js';
import { REFUND } from './agent.js';
import { spawnFixture } from '../helpers/tsChild.js';

const dir = mkdtempSync(join(tmpdir(), 'retrysafe-resume-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function agentProcess(args: object, until?: RegExp): Promise<{ lines: string[]; kill: () => void }> {
  const proc = spawnFixture('agent-child.ts', args);
  let out = '';
  let err = '';
  proc.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return new Promise((resolve, reject) => {
    const done = () => resolve({ lines: out.trim().split('\n'), kill: () => proc.kill('SIGKILL') });
    proc.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (until?.test(out)) done();
    });
    proc.on('exit', (code, signal) => (code === 0 || signal === 'SIGKILL' ? done() : reject(new Error(`agent exited with ${code ?? signal}: ${err}`))));
  });
}

it('SIGKILL after the refund, resumed from the stored run: one refund, the resumed run reads replayed: true', async () => {
  const provider = await startProviderStandIn();
  try {
    const args = { dbPath: join(dir, 'dedup.db'), providerUrl: provider.url, jobId: `job_resume_${process.pid}`, checkpoint: join(dir, 'conversation.json') };
    const crashed = await agentProcess({ ...args, mode: 'crash' }, /CRASH_POINT/);
    crashed.kill();
    expect(provider.effects()).toHaveLength(1);

    const resumed = await agentProcess({ ...args, mode: 'resume' });
    const report = JSON.parse(resumed.lines.at(-1)!) as { runId: string; resumed: boolean; read: unknown[] };
    expect(report.resumed).toBe(true);
    expect(report.read).toEqual([{ type: 'json', value: { result: { refundId: 're_1', ...REFUND }, replayed: true } }]);
    expect(provider.effects()).toHaveLength(1);
    expect(provider.effects()[0]?.key).toMatch(new RegExp(`^c1:${report.runId}:issue_refund:`));
  } finally {
    await provider.close();
  }
});
