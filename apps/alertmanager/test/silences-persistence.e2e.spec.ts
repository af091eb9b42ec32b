import { appendFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServerProcess, type ServerProcess } from './support/server-process';
import { waitFor } from '@redisx/testing';
import { apiCall, createSilence, listSilences, silenceOf } from './support/silences-client';

const TOTAL = 1_000;
const CLIENTS = 8;
const KILLS = 5;

/** One config for every server here: nothing is ever sent. */
const CONFIG = 'route:\n  receiver: hook\nreceivers:\n  - name: hook\n';

/**
 * The acceptance test of durability: 1,000 silences are created by 8 concurrent clients while
 * the server is killed with SIGKILL at random moments and restarted on the same storage. Every
 * silence whose create was answered 200 must be there at the end.
 */
describe('silences survive kill -9 at random moments', () => {
  let dir: string;
  let config: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'am-silences-crash-'));
    config = join(dir, 'alertmanager.yml');
    await writeFile(config, CONFIG);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it(`keeps all acknowledged creates of ${TOTAL} across ${KILLS} kills`, async () => {
    const storage = join(dir, 'data');
    const acknowledged = new Set<string>();
    let next = 0;
    let interrupted = 0;
    let server: ServerProcess | undefined;

    // Each client creates silences until all are sent or the server dies under it.
    const client = async (url: string) => {
      while (next < TOTAL) {
        const i = next++;
        try {
          const response = await fetch(`${url}/api/v2/silences`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify(silenceOf('instance', `host-${i}`)),
          });
          const body = (await response.json()) as { silenceID: string };
          if (response.status === 200) acknowledged.add(body.silenceID);
        } catch {
          interrupted++;
          next = Math.min(next, i); // Not acknowledged: send it again after the restart.
          return;
        }
      }
    };

    for (let round = 0; round <= KILLS; round++) {
      server = await startServerProcess(config, [], storage);
      const clients = Array.from({ length: CLIENTS }, () => client(server?.url ?? ''));
      if (round < KILLS) {
        // A random moment while creates are in flight (after 20 to 150 more were answered);
        // the last round runs to the end.
        const target = acknowledged.size + 20 + Math.floor(Math.random() * 130);
        await waitFor('creates in flight', () => acknowledged.size >= target, 20_000, 2);
        await server.process.stop('SIGKILL');
      }
      await Promise.all(clients);
    }
    const present = new Set((await listSilences(server?.url ?? '')).map((s) => s.id));
    await server?.stop();
    const lost = [...acknowledged].filter((id) => !present.has(id));
    expect(lost).toEqual([]);
    expect(acknowledged.size).toBeGreaterThanOrEqual(TOTAL);
    expect(interrupted).toBeGreaterThan(0);
  });
});

/** Silences on disk: across a restart, across `kill -9` right after a 200, and a corrupt log. */
describe('silences persistence', () => {
  let dir: string;
  let config: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'am-silences-disk-'));
    config = join(dir, 'alertmanager.yml');
    await writeFile(config, CONFIG);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it.each(['SIGTERM', 'SIGKILL'] as const)(
    'keeps every acknowledged silence after a %s',
    async (signal) => {
      const storage = join(dir, signal);
      const first = await startServerProcess(config, [], storage);
      const ids = await Promise.all(
        Array.from({ length: 20 }, (_, i) => createSilence(first.url, silenceOf('n', String(i)))),
      );
      await apiCall(first.url, 'DELETE', `/silence/${ids[0]}`);
      await first.process.stop(signal);
      const second = await startServerProcess(config, [], storage);
      const listed = await listSilences(second.url);
      expect(listed.map((s) => s.id).sort()).toEqual([...ids].sort());
      expect(listed.find((s) => s.id === ids[0])?.status.state).toBe('expired');
      await second.stop();
    },
  );

  it('starts with the intact silences when the log has a corrupt tail, and reports it', async () => {
    const storage = join(dir, 'corrupt');
    const first = await startServerProcess(config, [], storage);
    const id = await createSilence(first.url, silenceOf('n', 'kept'));
    await first.process.stop('SIGKILL');
    await appendFile(join(storage, 'silences-0.log'), Buffer.from('garbage that is not a record'));
    const second = await startServerProcess(config, [], storage);
    expect((await listSilences(second.url)).map((s) => s.id)).toEqual([id]);
    expect(second.process.output()).toMatch(/Ignoring a torn or corrupt tail of the silences/);
    await second.stop();
  });
});
