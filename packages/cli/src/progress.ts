import { SingleBar } from 'cli-progress';

/** A progress bar on a terminal stream: files scanned of the total. */
export interface Progress {
  readonly update: (done: number, total: number) => void;
  readonly stop: () => void;
}

/**
 * A progress bar (`retrysafe audit ████░░░░ 120/400 files`) on `stream`, which should be a
 * terminal: the caller shows it only when stderr is one, so piped and CI output stays clean.
 * It is cleared when the run ends.
 */
export function createProgress(stream: NodeJS.WritableStream): Progress {
  const bar = new SingleBar({
    stream: stream as NodeJS.WriteStream,
    format: 'retrysafe audit {bar} {value}/{total} files',
    barsize: 30,
    clearOnComplete: true,
    hideCursor: true,
    noTTYOutput: true,
    fps: 10,
  });
  let started = false;
  return {
    update(done, total) {
      if (!started) {
        bar.start(total, 0);
        started = true;
      }
      bar.update(done);
    },
    stop() {
      if (started) bar.stop();
    },
  };
}
