import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getFreePort, startProcess, waitFor } from '@redisx/testing';
import { ALERTMANAGER_BIN, hasListened } from './support/server-process';
import { SpecMetricsExporter } from './support/spec-metrics-exporter';
import { WebhookCollector } from './support/webhook-collector';

const CONFIG_DIR = join(__dirname, '..', 'config');

/** A Prometheus API answer, loosely typed for assertions. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Answer = { data: any };

/**
 * What `npm start` runs: the quick-start configuration with the bundled rules and scrape jobs
 * (ports, intervals, rate windows and `for` cut to seconds, and the webhook pointed at the test's
 * receiver): the seventeen rules of the specification in their seven groups, and the server's
 * own trace rule in its group, are listed and evaluated without errors, the server scrapes its
 * own `/metrics`, and with an exporter of the specification's metric families crossing every
 * threshold, each of the eighteen alerts goes pending, fires, reaches the webhook through the
 * routing tree, and resolves when it recovers.
 */
describe('the quick start with its rules', () => {
  let dir: string;
  let url: string;
  let proc: ReturnType<typeof startProcess>;
  let exporter: SpecMetricsExporter;
  let hook: WebhookCollector;

  beforeAll(async () => {
    exporter = await new SpecMetricsExporter().start();
    hook = await new WebhookCollector().start();
    dir = await mkdtemp(join(tmpdir(), 'am-quickstart-'));
    const port = await getFreePort();
    url = `http://127.0.0.1:${port}`;
    // Every interval cut to 1s (the redis group's own 15s too), so a round takes a second; the
    // application's target is the test's exporter, beside a Redis exporter's.
    const config = (await readFile(join(CONFIG_DIR, 'prometheus', 'quickstart.yml'), 'utf8'))
      .replace('127.0.0.1:9093', `127.0.0.1:${port}`)
      .replace('127.0.0.1:3000', exporter.address)
      .replace(/(scrape_interval|evaluation_interval): 15s/g, '$1: 1s')
      .replaceAll('../rules/', 'rules/');
    const redisJob = `  - job_name: redis\n    metrics_path: /redis\n    static_configs:\n      - targets: ['${exporter.address}']\n`;
    await writeFile(join(dir, 'prometheus.yml'), `${config.trimEnd()}\n${redisJob}`);
    // Rate windows of 5s and a 2s `for`, so breaching and recovering take seconds, not minutes.
    await mkdir(join(dir, 'rules', 'server-only'), { recursive: true });
    for (const file of ['redisx.rules.yml', join('server-only', 'redisx-traces.rules.yml')]) {
      const rules = await readFile(join(CONFIG_DIR, 'rules', file), 'utf8');
      await writeFile(
        join(dir, 'rules', file),
        rules
          .replace(/interval: 15s/g, 'interval: 1s')
          .replace(/\[5m\]/g, '[5s]')
          .replace(/for: \d+m/g, 'for: 2s'),
      );
    }
    const alertmanager = (await readFile(join(CONFIG_DIR, 'quickstart.yml'), 'utf8'))
      .replace('http://127.0.0.1:5001/', `${hook.url}/quickstart`)
      .replace(/group_(wait|interval): 10s/g, 'group_$1: 1s');
    await writeFile(join(dir, 'alertmanager.yml'), alertmanager);
    proc = startProcess(process.execPath, [
      ALERTMANAGER_BIN,
      `--config.file=${join(dir, 'alertmanager.yml')}`,
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
    await exporter?.stop();
    await hook?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const get = async (path: string) => (await (await fetch(`${url}${path}`)).json()) as Answer;

  it("lists and evaluates the seventeen rules of the specification and the server's own", async () => {
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
      'redis_trace_alerts',
    ]);
    expect(data.groups.flatMap((g: { rules: unknown[] }) => g.rules)).toHaveLength(18);
  });

  it('scrapes its own metrics', async () => {
    await waitFor('its own up', async () => {
      const answer = await get('/api/v1/query?query=up%7Bjob%3D%22alertmanager%22%7D');
      return answer.data.result[0]?.value[1] === '1';
    });
    const answer = await get(
      '/api/v1/query?query=prometheus_rule_group_rules%7Bjob%3D%22alertmanager%22%7D',
    );
    expect(answer.data.result).toHaveLength(8);
  });

  it('fires each of the eighteen alerts through the webhook, and resolves each', async () => {
    const { data } = await get('/api/v1/rules');
    const names: string[] = data.groups
      .flatMap((g: { rules: { name: string }[] }) => g.rules.map((r) => r.name))
      .sort();
    expect(names).toHaveLength(18);
    // Healthy numbers first: nothing fires.
    await waitFor('two healthy scrapes', async () => {
      const up = await get('/api/v1/query?query=up%7Bjob%3D%22redis%22%7D');
      return up.data.result[0]?.value[1] === '1';
    });
    expect((await get('/api/v1/alerts')).data.alerts).toEqual([]);

    exporter.mode = 'breaching';
    const seen = new Map<string, Set<string>>(names.map((n) => [n, new Set<string>()]));
    const notified = (status: 'firing' | 'resolved') =>
      new Set(
        hook
          .to('/quickstart')
          .flatMap((d) => d.body.alerts)
          .filter((a) => a.status === status)
          .map((a) => a.labels['alertname']),
      );
    await waitFor(
      'every alert firing at the webhook',
      async () => {
        for (const alert of (await get('/api/v1/alerts')).data.alerts) {
          seen.get(alert.labels.alertname)?.add(alert.state);
        }
        const firing = notified('firing');
        return names.every((n) => firing.has(n));
      },
      60_000,
      200,
    );
    for (const name of names)
      expect([name, [...(seen.get(name) ?? [])].sort()]).toEqual([name, ['firing', 'pending']]);
    const firing = hook.to('/quickstart').filter((d) => d.body.status === 'firing');
    expect(new Set(firing.map((d) => d.body.receiver))).toEqual(new Set(['local-webhook']));
    for (const delivery of firing) {
      expect(delivery.body.commonLabels['monitor']).toBe('redisx-quickstart');
    }

    exporter.mode = 'healthy';
    await waitFor(
      'every alert resolved at the webhook',
      () => {
        const resolved = notified('resolved');
        return names.every((n) => resolved.has(n));
      },
      60_000,
      200,
    );
    await waitFor(
      'no alert left in the rules',
      async () => (await get('/api/v1/alerts')).data.alerts.length === 0,
    );
  }, 150_000);
});
