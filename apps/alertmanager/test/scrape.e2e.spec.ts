import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '@redisx/testing';
import { startServerProcess, type ServerProcess } from './support/server-process';
import { WebhookCollector } from './support/webhook-collector';

/** A Prometheus API answer, loosely typed for assertions. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Answer = { status: string; data: any };

/**
 * The server scrapes a loopback exporter of the specification's metric families and evaluates a
 * rule of the specification on what it scraped: the rule goes pending, fires after `for`, reaches
 * a webhook through the routing tree, and resolves when the exporter recovers; the targets API
 * and `up` follow the exporter, and a series the exporter stops serving goes stale.
 */
describe('scraping a loopback exporter', () => {
  let dir: string;
  let hook: WebhookCollector;
  let server: ServerProcess;
  let exporter: Server;
  let exporterAddress = '';
  /** What the exporter serves now: the cache size, and whether an extra series is there. */
  const state = { cacheSize: 100, extra: true, failing: false };

  const get = async (path: string) =>
    (await (await fetch(`${server.url}${path}`)).json()) as Answer;

  beforeAll(async () => {
    exporter = createServer((_req, res) => {
      if (state.failing) return void res.writeHead(500).end('broken');
      const lines = [
        '# HELP myapp_redis_cache_size Entries in the cache.',
        '# TYPE myapp_redis_cache_size gauge',
        `myapp_redis_cache_size{cache="orders"} ${state.cacheSize}`,
        ...(state.extra ? ['# TYPE extra_series gauge', 'extra_series 1'] : []),
      ];
      res
        .writeHead(200, { 'content-type': 'text/plain; version=0.0.4' })
        .end(`${lines.join('\n')}\n`);
    });
    await new Promise<void>((resolve) => exporter.listen(0, '127.0.0.1', resolve));
    exporterAddress = `127.0.0.1:${(exporter.address() as AddressInfo).port}`;

    dir = await mkdtemp(join(tmpdir(), 'am-scrape-'));
    hook = await new WebhookCollector().start();
    await writeFile(
      join(dir, 'am.yml'),
      `route:\n  receiver: hook\n  group_wait: 0s\n  group_interval: 1s\nreceivers:\n  - name: hook\n    webhook_configs:\n      - url: ${hook.url}/alerts\n        send_resolved: true\n`,
    );
    await writeFile(
      join(dir, 'cache.rules.yml'),
      `groups:\n  - name: cache_alerts\n    interval: 1s\n    rules:\n      - alert: CacheFull\n        expr: myapp_redis_cache_size > 50000\n        for: 3s\n        labels: {severity: warning}\n        annotations:\n          description: 'The cache holds {{ $value }} entries (threshold 50000).'\n`,
    );
    await writeFile(
      join(dir, 'prometheus.yml'),
      `global:\n  scrape_interval: 1s\n  scrape_timeout: 500ms\n  evaluation_interval: 1s\nrule_files: [cache.rules.yml]\nscrape_configs:\n  - job_name: app\n    static_configs:\n      - targets: ['${exporterAddress}']\n        labels: {env: test}\n`,
    );
    server = await startServerProcess(join(dir, 'am.yml'), [
      `--rules.config.file=${join(dir, 'prometheus.yml')}`,
    ]);
  });

  afterAll(async () => {
    await server?.stop();
    await hook.stop();
    await new Promise((resolve) => exporter.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  it('scrapes the target with its labels and reports it up', async () => {
    await waitFor('a scrape', async () => {
      const answer = await get('/api/v1/query?query=myapp_redis_cache_size');
      return answer.data.result.length === 1;
    });
    const answer = await get('/api/v1/query?query=myapp_redis_cache_size');
    expect(answer.data.result[0].metric).toEqual({
      __name__: 'myapp_redis_cache_size',
      cache: 'orders',
      env: 'test',
      instance: exporterAddress,
      job: 'app',
    });
    const up = await get('/api/v1/query?query=up');
    expect(up.data.result[0].value[1]).toBe('1');
    const targets = await get('/api/v1/targets');
    expect(targets.data.activeTargets[0]).toMatchObject({
      scrapePool: 'app',
      scrapeUrl: `http://${exporterAddress}/metrics`,
      health: 'up',
      lastError: '',
      labels: { env: 'test', instance: exporterAddress, job: 'app' },
      scrapeInterval: '1s',
      scrapeTimeout: '500ms',
    });
  });

  it('marks a series the exporter stops serving stale', async () => {
    state.extra = false;
    await waitFor('extra_series to go stale', async () => {
      const answer = await get('/api/v1/query?query=extra_series');
      return answer.data.result.length === 0;
    });
  });

  it('fires CacheFull after for, through the routing tree, and resolves it', async () => {
    state.cacheSize = 60_000;
    await waitFor('the pending alert', async () => {
      const rules = await get('/api/v1/rules');
      return rules.data.groups[0]?.rules[0]?.state === 'pending';
    });
    const [firing] = await hook.waitFor('/alerts', 1);
    expect(firing.body.status).toBe('firing');
    expect(firing.body.alerts[0].labels).toEqual({
      alertname: 'CacheFull',
      cache: 'orders',
      env: 'test',
      instance: exporterAddress,
      job: 'app',
      severity: 'warning',
    });
    expect(firing.body.alerts[0].annotations['description']).toBe(
      'The cache holds 60000 entries (threshold 50000).',
    );
    state.cacheSize = 100;
    await waitFor('the resolution', async () =>
      hook.to('/alerts').some((d) => d.body.status === 'resolved'),
    );
  });

  it('reports a failing target down with the error', async () => {
    state.failing = true;
    await waitFor('up to go to 0', async () => {
      const up = await get('/api/v1/query?query=up');
      return up.data.result[0]?.value[1] === '0';
    });
    const targets = await get('/api/v1/targets');
    expect(targets.data.activeTargets[0]).toMatchObject({
      health: 'down',
      lastError: 'server returned HTTP status 500 Internal Server Error',
    });
    state.failing = false;
  });
});
