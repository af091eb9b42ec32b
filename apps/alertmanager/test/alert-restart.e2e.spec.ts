import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getFreePort, startProcess, waitFor } from '@redisx/testing';
import { isoIn, postAlerts } from './support/alerts-client';
import { ALERTMANAGER_BIN, hasListened } from './support/server-process';
import { WebhookCollector } from './support/webhook-collector';

/**
 * What upstream loses on restart (its most-reported complaint) survives here: alerts and the
 * notification log are on disk, so a restart in the middle of a group neither sends a duplicate
 * nor forgets a resolution; and a config reload redirects notifications without losing alerts.
 */
describe('restart and reload in the middle of a group', () => {
  let dir: string;
  let storage: string;
  let collector: WebhookCollector;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'am-restart-'));
    storage = join(dir, 'data');
    collector = await new WebhookCollector().start();
  });
  afterAll(async () => {
    await collector.stop();
    await rm(dir, { recursive: true, force: true });
  });

  async function start(configFile: string, port: number) {
    const proc = startProcess(process.execPath, [
      ALERTMANAGER_BIN,
      `--config.file=${configFile}`,
      `--storage.path=${storage}`,
      `--web.listen-address=127.0.0.1:${port}`,
    ]);
    await waitFor('the server', async () => {
      if (proc.child.exitCode !== null) throw new Error(proc.output());
      return hasListened(proc) && (await fetch(`http://127.0.0.1:${port}/-/ready`)).status === 200;
    });
    return proc;
  }

  const config = (path: string, receiver = 'hook') => `route:
  receiver: ${receiver}
  group_by: ['alertname']
  group_wait: 500ms
  group_interval: 1s
  repeat_interval: 1h
receivers:
  - name: ${receiver}
    webhook_configs:
      - url: ${collector.url}${path}
        send_resolved: true
`;

  it.each(['SIGTERM', 'SIGKILL'] as const)(
    'after a %s, sends the resolution once and no duplicate firing',
    async (signal) => {
      const path = `/${signal}`;
      const configFile = join(dir, `${signal}.yml`);
      await writeFile(configFile, config(path));
      const port = await getFreePort();
      let proc = await start(configFile, port);
      const url = `http://127.0.0.1:${port}`;
      await postAlerts(url, [{ labels: { alertname: signal, job: 'x' }, endsAt: isoIn(4000) }]);
      await collector.waitFor(path, 1);
      // More than a second after the alert was acknowledged, so even SIGKILL keeps it.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await proc.stop(signal);
      proc = await start(configFile, port);
      const got = await collector.waitFor(path, 2, 10_000);
      await new Promise((resolve) => setTimeout(resolve, 2500));
      await proc.stop('SIGTERM');
      expect(collector.to(path).map((d) => d.body.status)).toEqual(['firing', 'resolved']);
      expect(got[1].body.alerts[0].labels['alertname']).toBe(signal);
    },
    30_000,
  );

  it('keeps alerts across a reload and notifies the new receiver', async () => {
    const configFile = join(dir, 'reload.yml');
    await writeFile(configFile, config('/before'));
    const port = await getFreePort();
    const proc = await start(configFile, port);
    const url = `http://127.0.0.1:${port}`;
    await postAlerts(url, [{ labels: { alertname: 'Reloaded' } }]);
    await collector.waitFor('/before', 1);
    // A receiver of another name is a new notification target (the notification log is keyed by
    // group and receiver), so it gets the group at its first flush after the reload.
    await writeFile(configFile, config('/after', 'hook2'));
    expect((await fetch(`${url}/-/reload`, { method: 'POST' })).status).toBe(200);
    const alerts = (await (await fetch(`${url}/api/v2/alerts`)).json()) as {
      labels: Record<string, string>;
    }[];
    expect(alerts.map((a) => a.labels['alertname'])).toEqual(['Reloaded']);
    await collector.waitFor('/after', 1, 5000);
    await proc.stop('SIGTERM');
    expect(collector.to('/before')).toHaveLength(1);
  }, 30_000);
});
