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
type Answer = { data: any };

/**
 * `--rules.datasource.url`: one server scrapes an exporter (the "larger system"), another
 * evaluates the rules against its query API: the alert fires and reaches the second server's
 * webhook; when the datasource goes away, the rule reports `err` with why.
 */
describe('rules against a remote datasource', () => {
  let dir: string;
  let exporter: Server;
  let hook: WebhookCollector;
  let datasource: ServerProcess | undefined;
  let evaluator: ServerProcess;

  beforeAll(async () => {
    exporter = createServer((_req, res) =>
      res
        .writeHead(200, { 'content-type': 'text/plain' })
        .end('myapp_redis_cache_size{cache="orders"} 60000\n'),
    );
    await new Promise<void>((resolve) => exporter.listen(0, '127.0.0.1', resolve));
    const target = `127.0.0.1:${(exporter.address() as AddressInfo).port}`;
    dir = await mkdtemp(join(tmpdir(), 'am-remote-'));
    hook = await new WebhookCollector().start();
    await writeFile(
      join(dir, 'silent.yml'),
      'route:\n  receiver: none\nreceivers:\n  - name: none\n',
    );
    await writeFile(
      join(dir, 'scraper.yml'),
      `global:\n  scrape_interval: 1s\n  scrape_timeout: 500ms\nscrape_configs:\n  - job_name: app\n    static_configs:\n      - targets: ['${target}']\n`,
    );
    datasource = await startServerProcess(join(dir, 'silent.yml'), [
      `--rules.config.file=${join(dir, 'scraper.yml')}`,
    ]);
    await writeFile(
      join(dir, 'am.yml'),
      `route:\n  receiver: hook\n  group_wait: 0s\nreceivers:\n  - name: hook\n    webhook_configs:\n      - url: ${hook.url}/alerts\n`,
    );
    await writeFile(
      join(dir, 'cache.rules.yml'),
      `groups:\n  - name: cache\n    interval: 1s\n    rules:\n      - alert: CacheFull\n        expr: myapp_redis_cache_size > 50000\n        annotations:\n          description: 'The cache holds {{ $value }} entries.'\n`,
    );
    await writeFile(
      join(dir, 'rules.yml'),
      `global:\n  evaluation_interval: 1s\nrule_files: [cache.rules.yml]\n`,
    );
    evaluator = await startServerProcess(join(dir, 'am.yml'), [
      `--rules.config.file=${join(dir, 'rules.yml')}`,
      `--rules.datasource.url=${datasource.url}`,
      '--rules.datasource.timeout=500ms',
    ]);
  });

  afterAll(async () => {
    await evaluator?.stop();
    await datasource?.stop();
    await hook.stop();
    await new Promise((resolve) => exporter.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  it("fires on the datasource's data and notifies through its own routing tree", async () => {
    const [delivery] = await hook.waitFor('/alerts', 1, 20_000);
    expect(delivery.body.alerts[0].labels).toMatchObject({
      alertname: 'CacheFull',
      cache: 'orders',
      job: 'app',
    });
    expect(delivery.body.alerts[0].annotations).toEqual({
      description: 'The cache holds 60000 entries.',
    });
  });

  it('marks the rule err, naming the datasource, when it stops answering', async () => {
    await datasource?.stop();
    datasource = undefined;
    let rule: { health: string; lastError?: string } | undefined;
    await waitFor('the rule to fail', async () => {
      const answer = (await (await fetch(`${evaluator.url}/api/v1/rules`)).json()) as Answer;
      rule = answer.data.groups[0].rules[0];
      return rule?.health === 'err';
    });
    expect(rule?.lastError).toMatch(
      /^remote datasource http:\/\/127\.0\.0\.1:\d+\/api\/v1\/query: (ECONNREFUSED|no answer within 0\.5s)$/,
    );
  });
});
