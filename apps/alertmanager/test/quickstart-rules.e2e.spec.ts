import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getFreePort, startProcess, waitFor } from '@redisx/testing';
import { ALERTMANAGER_BIN, hasListened } from './support/server-process';

const CONFIG_DIR = join(__dirname, '..', 'config');

/** A Prometheus API answer, loosely typed for assertions. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Answer = { data: any };

/**
 * What `npm start` runs: the quick-start configuration with the bundled rules and scrape jobs
 * (only the port differs, so the test does not need 9093): the seventeen rules of the
 * specification in their seven groups are listed and evaluated without errors, and the server
 * scrapes its own `/metrics`.
 */
describe('the quick start with its rules', () => {
  let dir: string;
  let url: string;
  let proc: ReturnType<typeof startProcess>;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'am-quickstart-'));
    const port = await getFreePort();
    url = `http://127.0.0.1:${port}`;
    // Every interval cut to 1s (the redis group's own 15s too), so a round takes a second.
    const config = (await readFile(join(CONFIG_DIR, 'prometheus', 'quickstart.yml'), 'utf8'))
      .replace('127.0.0.1:9093', `127.0.0.1:${port}`)
      .replace(/(scrape_interval|evaluation_interval): 15s/g, '$1: 1s')
      .replace('../rules/', 'rules/');
    await writeFile(join(dir, 'prometheus.yml'), config);
    const rules = await readFile(join(CONFIG_DIR, 'rules', 'redisx.rules.yml'), 'utf8');
    await mkdir(join(dir, 'rules'));
    await writeFile(
      join(dir, 'rules', 'redisx.rules.yml'),
      rules.replace(/interval: 15s/g, 'interval: 1s'),
    );
    proc = startProcess(process.execPath, [
      ALERTMANAGER_BIN,
      `--config.file=${join(CONFIG_DIR, 'quickstart.yml')}`,
      `--rules.config.file=${join(dir, 'prometheus.yml')}`,
      `--storage.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
    ]);
    await waitFor('the server', async () => {
      if (proc.child.exitCode !== null) throw new Error(proc.output());
      return hasListened(proc) && (await fetch(`${url}/-/ready`)).status === 200;
    });
  });

  afterAll(async () => {
    await proc?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const get = async (path: string) => (await (await fetch(`${url}${path}`)).json()) as Answer;

  it('lists and evaluates the seventeen rules of the specification', async () => {
    await waitFor('every rule evaluated', async () => {
      const answer = await get('/api/v1/rules');
      return answer.data.groups.every((g: { rules: { health: string }[] }) =>
        g.rules.every((r) => r.health === 'ok'),
      );
    });
    const { data } = await get('/api/v1/rules');
    // By file, then by name, as Prometheus lists them.
    expect(data.groups.map((g: { name: string }) => g.name)).toEqual([
      'api_alerts',
      'cache_alerts',
      'lock_alerts',
      'rate_limit_alerts',
      'redis_alerts',
      'stream_alerts',
      'system_alerts',
    ]);
    expect(data.groups.flatMap((g: { rules: unknown[] }) => g.rules)).toHaveLength(17);
  });

  it('scrapes its own metrics', async () => {
    await waitFor('its own up', async () => {
      const answer = await get('/api/v1/query?query=up%7Bjob%3D%22alertmanager%22%7D');
      return answer.data.result[0]?.value[1] === '1';
    });
    const answer = await get(
      '/api/v1/query?query=prometheus_rule_group_rules%7Bjob%3D%22alertmanager%22%7D',
    );
    expect(answer.data.result).toHaveLength(7);
  });
});
