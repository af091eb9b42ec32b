import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getFreePort, waitFor } from '@redisx/testing';
import { WriteCollector } from '../src/remote-write/testing/write-collector';
import { writeSample } from './support/remote-write-sample';
import { startServerProcess, type ServerProcess } from './support/server-process';

/** Every sample lies within the last few minutes. */
const start = Date.now() - 5 * 60_000;
let pushed = 0;

/** Remote-writes `count` samples of `forwarded_sample`, one request each, numbered on; their statuses. */
async function push(server: ServerProcess, count: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) {
    const n = pushed++;
    statuses.push(
      await writeSample(server.url, { __name__: 'forwarded_sample' }, n, start + n * 1000),
    );
  }
  return statuses;
}

/**
 * `remote_write` reads the metric store's log and keeps its position there: the real server,
 * forwarding what it is remote-written to a receiver while checkpointing every second, is killed
 * with SIGKILL twice while the receiver is down, with samples acknowledged and not yet sent; once
 * both are back, every sample it acknowledged arrives.
 */
describe('remote write resumes from the log after kill -9', () => {
  let dir: string;
  let config: string;
  let rules: string;
  let port: number;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'am-remote-write-resume-'));
    config = join(dir, 'alertmanager.yml');
    rules = join(dir, 'prometheus.yml');
    port = await getFreePort();
    await writeFile(config, 'route:\n  receiver: none\nreceivers:\n  - name: none\n');
    await writeFile(
      rules,
      `remote_write:\n  - url: http://127.0.0.1:${port}/receive\n    name: peer\n    queue_config: {batch_send_deadline: 50ms, min_backoff: 50ms, max_backoff: 200ms}\n`,
    );
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('delivers every acknowledged sample once sender and receiver are back', async () => {
    const storage = join(dir, 'storage');
    const args = [
      '--web.enable-remote-write-receiver',
      `--rules.config.file=${rules}`,
      '--data.maintenance-interval=1s',
    ];
    const receiver = new WriteCollector();
    let server = await startServerProcess(config, args, storage);
    try {
      // Receiver up: the first samples are forwarded as they come.
      await receiver.start(port);
      expect(await push(server, 20)).toEqual(Array(20).fill(204));
      await waitFor('the first samples', () => receiver.samples.length >= 20);
      // Receiver down: samples are acknowledged and wait in the log, over a few checkpoints.
      await receiver.stop();
      expect(await push(server, 20)).toEqual(Array(20).fill(204));
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await server.process.stop('SIGKILL');
      server = await startServerProcess(config, args, storage);
      expect(await push(server, 10)).toEqual(Array(10).fill(204));
      await server.process.stop('SIGKILL');
      // Both back.
      server = await startServerProcess(config, args, storage);
      await receiver.start(port);
      const arrived = () => new Set(receiver.samples.map((s) => s.v));
      await waitFor('every acknowledged sample', () => arrived().size === pushed);
      expect([...arrived()].sort((a, b) => a - b)).toEqual([...Array(pushed).keys()]);
      for (const s of receiver.samples) expect(s.t).toBe(start + s.v * 1000);
    } finally {
      await server.process.stop('SIGKILL');
      await receiver.stop();
    }
  }, 120_000);
});
