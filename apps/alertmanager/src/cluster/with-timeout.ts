/**
 * The command's answer, or a rejection once it has taken longer than `ms`; the command itself
 * goes on. Timers run before the event loop reads its sockets: after a busy stretch the timer
 * can be due while the answer already waits to be read, so the timeout is only decided after
 * one more read.
 */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => setImmediate(() => reject(new Error('timed out'))), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
