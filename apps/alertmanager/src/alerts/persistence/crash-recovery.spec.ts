import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { openAlertStore } from './open-alert-store';
import { recordingLogger } from '../../logging/testing/recording-logger';

// The durability promise: a process killed with SIGKILL loses at most the alerts acknowledged in
// the last second before the kill. A child writes alerts and reports each acknowledgement; we
// note when each arrived, kill it, and look for every alert acknowledged over a second earlier.
it('keeps every alert acknowledged more than a second before a SIGKILL', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'alert-crash-'));
  try {
    const child = spawn(process.execPath, [join(__dirname, 'testdata', 'alert-writer.js'), dir], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const acked: Array<{ n: number; at: number }> = [];
    let ready = 0;
    const killed = new Promise<number>((resolve) => {
      createInterface({ input: child.stdout }).on('line', (line) => {
        if (line === 'ready') ready = Date.now();
        const m = /^ack (\d+)$/.exec(line);
        if (m) acked.push({ n: Number(m[1]), at: Date.now() });
        if (ready && Date.now() - ready > 2500 && child.exitCode === null && !child.killed) {
          child.kill('SIGKILL');
          resolve(Date.now());
        }
      });
    });
    const killedAt = await killed;
    await new Promise((resolve) => child.once('exit', resolve));

    const store = await openAlertStore({
      dir,
      clock: { now: Date.now },
      logger: recordingLogger(),
    });
    const present = new Set([...store.list()].map((a) => Number(a.labels['n'])));
    const required = acked.filter((a) => a.at < killedAt - 1000);
    expect(required.length).toBeGreaterThan(100);
    expect(required.filter((a) => !present.has(a.n))).toEqual([]);
    await store.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
