import { appendFile, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getFreePort, startProcess, waitFor } from '@redisx/testing';
import { ALERTMANAGER_BIN, hasListened } from './support/server-process';

/**
 * The metric store lives under `--storage.path` beside the alerts and silences: the server opens
 * its log on start, reopens it after a restart, and starts even when a crash tore its tail.
 */
describe('the metric store under --storage.path', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'am-metrics-'));
    await writeFile(join(dir, 'am.yml'), 'route:\n  receiver: none\nreceivers:\n  - name: none\n');
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  async function start() {
    const port = await getFreePort();
    const proc = startProcess(process.execPath, [
      ALERTMANAGER_BIN,
      `--config.file=${join(dir, 'am.yml')}`,
      `--storage.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
    ]);
    await waitFor('the server', async () => {
      if (proc.child.exitCode !== null) throw new Error(proc.output());
      return hasListened(proc) && (await fetch(`http://127.0.0.1:${port}/-/ready`)).status === 200;
    });
    return proc;
  }

  it('is opened on start and survives a restart with a torn tail', async () => {
    const first = await start();
    await first.stop();
    const files = await readdir(join(dir, 'data'));
    expect(files).toContain('metrics-0.log');

    await appendFile(join(dir, 'data', 'metrics-0.log'), Buffer.from([0, 0, 0, 9, 1, 2, 3]));
    const second = await start();
    await second.stop();
    expect(second.output()).toMatch(/metric store/);
  });
});
