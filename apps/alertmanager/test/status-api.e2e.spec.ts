import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServerProcess, type ServerProcess } from './support/server-process';

const AM_CONFIG = 'route:\n  receiver: none\nreceivers:\n  - name: none\n';

/**
 * `/api/v1/status/config` shows the Prometheus-style file as last loaded successfully, and
 * `/api/v1/status/runtimeinfo` whether the last reload succeeded; `/api/v1/status/flags` the
 * command line the server runs with.
 */
describe('the status API across reloads', () => {
  let dir: string;
  let server: ServerProcess;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'am-status-'));
    await writeFile(join(dir, 'am.yml'), AM_CONFIG);
    await writeFile(join(dir, 'prometheus.yml'), 'global:\n  scrape_interval: 20s\n');
    server = await startServerProcess(join(dir, 'am.yml'), [
      `--rules.config.file=${join(dir, 'prometheus.yml')}`,
      '--storage.tsdb.retention.time=30d',
      '--storage.tsdb.retention.size=2GB',
    ]);
  }, 20_000);

  afterAll(async () => {
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  async function status(endpoint: string): Promise<Record<string, unknown>> {
    const res = await fetch(`${server.url}/api/v1/status/${endpoint}`);
    expect(res.status).toBe(200);
    return ((await res.json()) as { data: Record<string, unknown> }).data;
  }

  const interval = async () =>
    /scrape_interval: (\w+)/.exec(String((await status('config'))['yaml']))?.[1];

  it('answers the flags and the retention the server runs with', async () => {
    const flags = await status('flags');
    expect(flags['rules.config.file']).toBe(join(dir, 'prometheus.yml'));
    expect(flags['storage.tsdb.retention.time']).toBe('30d');
    expect(flags['storage.tsdb.retention.size']).toBe('2GiB');
    expect(flags['version']).toBeUndefined();
    expect((await status('runtimeinfo'))['storageRetention']).toBe('30d or 2GiB');
  });

  it('keeps the configuration in force when a reload fails, and says the reload failed', async () => {
    expect(await interval()).toBe('20s');
    await writeFile(join(dir, 'prometheus.yml'), 'global:\n  scrape_interval: 5s\n  bogus: 1\n');
    expect((await fetch(`${server.url}/-/reload`, { method: 'POST' })).status).toBe(500);
    expect(await interval()).toBe('20s');
    expect((await status('runtimeinfo'))['reloadConfigSuccess']).toBe(false);
  });

  it('shows the new configuration once a reload succeeds', async () => {
    await writeFile(join(dir, 'prometheus.yml'), 'global:\n  scrape_interval: 5s\n');
    expect((await fetch(`${server.url}/-/reload`, { method: 'POST' })).status).toBe(200);
    expect(await interval()).toBe('5s');
    expect((await status('runtimeinfo'))['reloadConfigSuccess']).toBe(true);
  });
});
