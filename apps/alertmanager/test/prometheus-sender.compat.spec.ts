import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  describeWhen,
  getFreePort,
  type RunningProcess,
  startProcess,
  waitFor,
} from '@redisx/testing';
import { startServerProcess, type ServerProcess } from './support/server-process';
import { WebhookCollector } from './support/webhook-collector';
import { installedCommand } from './support/installed-command';

/**
 * A real Prometheus (Debian's, when installed) configured to send its alerts to this server, as
 * users run it: its alerts arrive through API v2 and are notified to the webhook.
 */
const prometheus = installedCommand('prometheus');
const describeWithPrometheus = describeWhen(
  !!prometheus,
  'Prometheus sender test skipped: prometheus is not installed',
);

describeWithPrometheus('Prometheus sending alerts to the server', () => {
  let dir: string;
  let server: ServerProcess;
  let prom: RunningProcess;
  const collector = new WebhookCollector();

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'am-prom-'));
    await collector.start();
    await writeFile(
      join(dir, 'alertmanager.yml'),
      `route:
  receiver: hook
  group_by: ['alertname']
  group_wait: 500ms
receivers:
  - name: hook
    webhook_configs:
      - url: ${collector.url}/hook
`,
    );
    server = await startServerProcess(join(dir, 'alertmanager.yml'));
    await writeFile(
      join(dir, 'rules.yml'),
      `groups:
  - name: always
    interval: 1s
    rules:
      - alert: AlwaysFiring
        expr: vector(1)
        labels:
          severity: warning
        annotations:
          summary: 'value {{ $value }}'
`,
    );
    await writeFile(
      join(dir, 'prometheus.yml'),
      `global:
  evaluation_interval: 1s
rule_files: ['${join(dir, 'rules.yml')}']
alerting:
  alertmanagers:
    - static_configs:
        - targets: ['127.0.0.1:${server.port}']
`,
    );
    const port = await getFreePort();
    prom = startProcess(prometheus, [
      `--config.file=${join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(dir, 'tsdb')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      // The first evaluation can fire before the alertmanager is discovered; resend soon.
      '--rules.alert.resend-delay=1s',
    ]);
  }, 30_000);

  afterAll(async () => {
    await prom?.stop('SIGTERM');
    await server?.stop();
    await collector.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('receives the alert through API v2 and notifies it', async () => {
    await collector.waitFor('/hook', 1, 20_000);
    const [delivery] = collector.to('/hook');
    expect(delivery.body).toMatchObject({
      receiver: 'hook',
      status: 'firing',
      groupLabels: { alertname: 'AlwaysFiring' },
    });
    expect(delivery.body.alerts[0]).toMatchObject({
      labels: { alertname: 'AlwaysFiring', severity: 'warning' },
      annotations: { summary: 'value 1' },
      endsAt: '0001-01-01T00:00:00Z',
    });
    expect(delivery.body.alerts[0].generatorURL).toMatch(/^http:\/\/.+\/graph\?g0\.expr=vector/);

    let listed: { labels: Record<string, string>; endsAt: string }[] = [];
    await waitFor('the alert in GET /api/v2/alerts', async () => {
      listed = (await (await fetch(`${server.url}/api/v2/alerts`)).json()) as typeof listed;
      return listed.length === 1;
    });
    // Prometheus sends an explicit end a few evaluation intervals ahead, and keeps pushing it.
    expect(Date.parse(listed[0].endsAt)).toBeGreaterThan(Date.now());
  }, 30_000);
});
