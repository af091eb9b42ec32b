import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '@redisx/testing';
import { isoIn, type PostableAlert } from './support/alerts-client';
import { startServerProcess, type ServerProcess } from './support/server-process';

const BATCHES = 300;
const BATCH = 20;
const CLIENTS = 8;
const KILLS = 5;

/** Nothing is ever sent: the alerts only have to be kept. */
const CONFIG = 'route:\n  receiver: hook\nreceivers:\n  - name: hook\n';

/** Batch `i`'s alerts: distinct instances, firing for an hour so none resolves meanwhile. */
function batchOf(i: number): PostableAlert[] {
  return Array.from({ length: BATCH }, (_, j) => ({
    labels: { alertname: 'Durable', instance: `host-${i}-${j}` },
    annotations: { summary: `batch ${i}` },
    endsAt: isoIn(3_600_000),
  }));
}

/** Posts batch `i` through API v2 (odd batches through v1); true when it was answered 200. */
async function post(url: string, i: number): Promise<boolean> {
  const path = i % 2 === 0 ? '/api/v2/alerts' : '/api/v1/alerts';
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(batchOf(i)),
  });
  await response.text();
  return response.status === 200;
}

async function instancesOf(url: string): Promise<Map<string, string>> {
  const response = await fetch(`${url}/api/v2/alerts`);
  const alerts = (await response.json()) as Array<{
    labels: Record<string, string>;
    annotations: Record<string, string>;
  }>;
  return new Map(alerts.map((a) => [a.labels['instance'], a.annotations['summary']]));
}

/**
 * An alert batch answered 200 is on disk: batches are posted by 8 concurrent clients while the
 * server is killed with SIGKILL at random moments and restarted on the same storage, and every
 * alert of every acknowledged batch must be there at the end, annotations included.
 */
describe('alerts survive kill -9 right after they are acknowledged', () => {
  let dir: string;
  let config: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'am-alerts-crash-'));
    config = join(dir, 'alertmanager.yml');
    await writeFile(config, CONFIG);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('keeps a batch when the server is killed the moment it answers', async () => {
    const storage = join(dir, 'single');
    const first = await startServerProcess(config, [], storage);
    expect(await post(first.url, 0)).toBe(true);
    await first.process.stop('SIGKILL');
    const second = await startServerProcess(config, [], storage);
    const present = await instancesOf(second.url);
    await second.stop();
    expect(batchOf(0).map((a) => present.get(a.labels['instance']))).toEqual(
      Array.from({ length: BATCH }, () => 'batch 0'),
    );
  });

  it(`keeps every acknowledged batch of ${BATCHES} across ${KILLS} kills`, async () => {
    const storage = join(dir, 'random');
    const acknowledged: number[] = [];
    let next = 0;
    let interrupted = 0;
    let server: ServerProcess | undefined;

    // Each client posts batches until all are sent or the server dies under it.
    const client = async (url: string) => {
      while (next < BATCHES) {
        const i = next++;
        try {
          if (await post(url, i)) acknowledged.push(i);
        } catch {
          interrupted++;
          return; // Not acknowledged; whether it was kept or not, nothing is asserted of it.
        }
      }
    };

    for (let round = 0; round <= KILLS; round++) {
      server = await startServerProcess(config, [], storage);
      const clients = Array.from({ length: CLIENTS }, () => client(server?.url ?? ''));
      if (round < KILLS) {
        // A random moment while batches are in flight (after 5 to 40 more were answered).
        const target = acknowledged.length + 5 + Math.floor(Math.random() * 35);
        await waitFor('batches in flight', () => acknowledged.length >= target, 20_000, 2);
        await server.process.stop('SIGKILL');
      }
      await Promise.all(clients);
    }
    const present = await instancesOf(server?.url ?? '');
    await server?.stop();
    const lost = acknowledged.flatMap((i) =>
      batchOf(i)
        .map((a) => a.labels['instance'])
        .filter((instance) => present.get(instance) !== `batch ${i}`),
    );
    expect(lost).toEqual([]);
    expect(acknowledged.length).toBeGreaterThan(BATCHES / 2);
    expect(interrupted).toBeGreaterThan(0);
  });
});
