import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '@redisx/testing';
import { metricValue, startServerProcess, type ServerProcess } from './support/server-process';
import { WebhookCollector } from './support/webhook-collector';

/**
 * Alertmanagers listed in `alerting.alertmanagers[].file_sd_configs` are found again every
 * `refresh_interval`, as Prometheus's discovery finds them: one added to the file starts
 * receiving the rule alerts without a reload, one removed stops.
 */
describe('external Alertmanagers from file_sd_configs', () => {
  let dir: string;
  let hook: WebhookCollector;
  let server: ServerProcess;
  const targets = () => join(dir, 'alertmanagers.json');
  const discovered = async () =>
    metricValue(
      await (await fetch(`${server.url}/metrics`)).text(),
      'prometheus_notifications_alertmanagers_discovered',
    );

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'am-discovery-'));
    hook = await new WebhookCollector().start();
    await writeFile(join(dir, 'am.yml'), 'route:\n  receiver: none\nreceivers:\n  - name: none\n');
    await writeFile(
      join(dir, 'rules.yml'),
      'groups:\n  - name: always\n    interval: 1s\n    rules:\n      - alert: AlwaysOn\n        expr: vector(1)\n',
    );
    await writeFile(targets(), '[]');
    await writeFile(
      join(dir, 'prometheus.yml'),
      `global:\n  evaluation_interval: 1s\nrule_files: [rules.yml]\nalerting:\n  alertmanagers:\n    - file_sd_configs:\n        - files: [alertmanagers.json]\n          refresh_interval: 1s\n`,
    );
    server = await startServerProcess(join(dir, 'am.yml'), [
      `--rules.config.file=${join(dir, 'prometheus.yml')}`,
      // Firing alerts are sent again every second, so a new Alertmanager gets them at once.
      '--rules.alert.resend-delay=1s',
    ]);
  });

  afterAll(async () => {
    await server?.stop();
    await hook.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('starts sending to an Alertmanager added to the file, without a reload', async () => {
    expect(await discovered()).toBe(0);
    await writeFile(targets(), JSON.stringify([{ targets: [new URL(hook.url).host] }]));
    const [request] = await hook.waitFor('/api/v2/alerts', 1);
    expect((request.body as unknown as { labels: { alertname: string } }[])[0].labels).toEqual({
      alertname: 'AlwaysOn',
    });
    expect(await discovered()).toBe(1);
  });

  it('stops sending to one removed from the file', async () => {
    await writeFile(targets(), '[]');
    await waitFor('the Alertmanager to be dropped', async () => (await discovered()) === 0);
    // A request already on its way when the file changed may still land.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const sent = hook.to('/api/v2/alerts').length;
    expect(sent).toBeGreaterThan(0);
    // Resent every second while it was listed; nothing more once it is gone.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(hook.to('/api/v2/alerts').length).toBe(sent);
  });
});
