import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Registry } from 'prom-client';
import { parseConfig } from '../config';
import { Inhibitor } from '../inhibit';
import { StreamLogger } from '../logging/stream-logger';
import { NO_MUTER } from '../labels';
import { buildPipeline, NotificationLog, NotifyMetrics } from '../notify';
import { buildReceivers, closeReceivers } from '../receivers';
import { TimeIntervalSet } from '../timeinterval';
import { Dispatcher } from './dispatcher';
import { FakeScheduler } from '../time/testing/fake-scheduler';
import { sleeperFor } from '../time/scheduler';
import { MemoryAlertStore } from '../alerts/memory-alert-store';
import { testAlert } from '../alerts/testing/test-alert';

const T0 = Date.parse('2026-03-01T10:00:00Z');

/** Waits (without sleeping) until `check` holds, letting I/O callbacks run in between. */
async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 10_000 && !check(); i++) {
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  if (!check()) throw new Error('condition not reached');
}

describe('store -> dispatcher -> pipeline -> webhook (wired as the server does)', () => {
  const cleanups: (() => unknown)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('notifies the firing group after group_wait and its resolution at the next tick', async () => {
    const bodies: { status: string; groupKey: string; alerts: { status: string }[] }[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        bodies.push(JSON.parse(body));
        res.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    });
    const port = (server.address() as AddressInfo).port;
    const config = parseConfig(
      `
route: {receiver: hook, group_by: [alertname], group_wait: 30s, group_interval: 1m}
inhibit_rules: [{source_matchers: [severity=critical], target_matchers: [severity=warning]}]
receivers: [{name: hook, webhook_configs: [{url: 'http://127.0.0.1:${port}/'}]}]`,
      'x.yml',
    );
    const scheduler = new FakeScheduler(T0);
    const logger = new StreamLogger('error', 'logfmt', () => undefined);
    const store = new MemoryAlertStore(scheduler);
    const nflog = await NotificationLog.open({ now: T0, logger });
    const inhibitor = new Inhibitor(config, store);
    const receivers = buildReceivers(config, { externalUrl: 'http://am:9093', logger });
    const pipeline = buildPipeline({
      receivers,
      inhibitor,
      silencer: NO_MUTER,
      timeIntervals: TimeIntervalSet.fromConfig(config),
      nflog,
      metrics: new NotifyMetrics(new Registry()),
      clock: scheduler,
      sleep: sleeperFor(scheduler),
      logger,
    });
    const dispatcher = new Dispatcher({
      config,
      store,
      pipeline,
      clock: scheduler,
      scheduler,
      logger,
    });
    cleanups.push(() => closeReceivers(receivers));
    cleanups.push(() => dispatcher.stop());
    cleanups.push(() => inhibitor.stop());
    inhibitor.start();
    dispatcher.start();

    const firing = testAlert(
      { alertname: 'Disk', severity: 'critical' },
      { startsAt: T0, endsAt: T0 + 3_600_000, updatedAt: T0 },
    );
    const inhibited = testAlert(
      { alertname: 'Disk', severity: 'warning' },
      { startsAt: T0, endsAt: T0 + 3_600_000, updatedAt: T0 },
    );
    await store.put([firing, inhibited]);
    await scheduler.advance(30_000);
    await until(() => nflog.size === 1);
    expect(bodies).toHaveLength(1);
    expect(bodies[0]).toMatchObject({ status: 'firing', groupKey: '{}:{alertname="Disk"}' });
    expect(bodies[0].alerts).toHaveLength(1); // the warning is inhibited

    // Resolved now: a firing update could not shorten the stored end (upstream's merge rule).
    await store.put([{ ...firing, endsAt: T0 + 30_000, updatedAt: T0 + 30_000 }]);
    await scheduler.advance(60_000);
    await until(
      () =>
        bodies.length === 2 &&
        nflog.query('{}:{alertname="Disk"}', { groupName: 'hook', integration: 'webhook', idx: 0 })
          ?.timestamp ===
          T0 + 90_000,
    );
    // The critical alert resolved, so it no longer inhibits the warning, which now fires too.
    expect(bodies[1].status).toBe('firing');
    expect(bodies[1].alerts.map((a) => a.status)).toEqual(['resolved', 'firing']);
  });
});
