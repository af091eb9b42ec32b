import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeSample } from './support/remote-write-sample';
import { startServerProcess, type ServerProcess } from './support/server-process';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Answer = { status: string; data: any };

const REQUESTS = 40;
/**
 * How each round sends its requests and how long it waits after the last `204` before the kill.
 * One round sends all of its requests at once, so that they share writes.
 */
const ROUNDS: ReadonlyArray<{ delayMs: number; concurrent: boolean }> = [
  { delayMs: 0, concurrent: false },
  { delayMs: 0, concurrent: true },
  { delayMs: 10, concurrent: false },
  { delayMs: 100, concurrent: false },
  { delayMs: 250, concurrent: false },
];

/** Sends sample `i` of round `round` (one sample, its own time); returns the answer's status. */
function push(server: ServerProcess, round: number, i: number, start: number) {
  const labels = { __name__: 'acknowledged_sample', round: String(round) };
  return writeSample(server.url, labels, i, start + i * 1000);
}

/**
 * A remote-write `204` is given once the samples' record is in the metric store's log: the real
 * server is killed with SIGKILL right after (or a little after) the last `204` of 40 requests of
 * one sample each, while it checkpoints every second, and started again on the same storage,
 * where every acknowledged sample must be back.
 */
describe('remote-written samples survive kill -9 right after they are acknowledged', () => {
  let dir: string;
  let config: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'am-remote-write-crash-'));
    config = join(dir, 'alertmanager.yml');
    await writeFile(config, 'route:\n  receiver: none\nreceivers:\n  - name: none\n');
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  // Six starts of the server: on a busy machine that may take longer than a spec's default time.
  it(`keeps all ${REQUESTS} samples of each of ${ROUNDS.length} killed rounds`, async () => {
    const storage = join(dir, 'storage');
    const args = ['--web.enable-remote-write-receiver', '--data.maintenance-interval=1s'];
    // Every round's samples lie within the last few minutes, so one range selects them all.
    const start = Date.now() - (ROUNDS.length + 1) * 60_000;
    for (const [round, { delayMs, concurrent }] of ROUNDS.entries()) {
      const server = await startServerProcess(config, args, storage);
      const indexes = Array.from({ length: REQUESTS }, (_, i) => i);
      const statuses: number[] = [];
      try {
        if (concurrent) {
          statuses.push(...(await Promise.all(indexes.map((i) => push(server, round, i, start)))));
        } else {
          for (const i of indexes) statuses.push(await push(server, round, i, start));
        }
        if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      } finally {
        await server.process.stop('SIGKILL');
      }
      expect(statuses).toEqual(indexes.map(() => 204));
    }

    const server = await startServerProcess(config, args, storage);
    try {
      const expr = `count_over_time(acknowledged_sample[${ROUNDS.length + 2}m])`;
      const res = await fetch(
        `${server.url}/api/v1/query?query=${encodeURIComponent(expr)}&time=${Date.now() / 1000}`,
      );
      const answer = (await res.json()) as Answer;
      const counts = Object.fromEntries(
        (answer.data.result as Array<{ metric: { round: string }; value: [number, string] }>).map(
          (r) => [r.metric.round, Number(r.value[1])],
        ),
      );
      expect(counts).toEqual(
        Object.fromEntries(ROUNDS.map((_, round) => [String(round), REQUESTS])),
      );
    } finally {
      await server.process.stop('SIGTERM');
    }
  }, 120_000);
});
