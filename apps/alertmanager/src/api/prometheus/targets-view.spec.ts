import { getFreePort } from '@redisx/testing';
import { ScrapePool } from '../../scrape';
import { idlePoolDeps } from '../../scrape/testing/idle-pool-deps';
import { FakeScheduler } from '../../time/testing/fake-scheduler';
import type { Labels } from '../../tsdb/labels';
import { globalUrl } from './global-url';
import { targetsView } from './targets-view';
import { specScrapeConfig } from '../../scrape/testing/spec-scrape-config';

function pool(targets: string[]): ScrapePool {
  const scheduler = new FakeScheduler(0);
  const keep = (labels: Labels) => labels;
  const config = specScrapeConfig({ staticConfigs: [{ targets, labels: {} }] });
  return new ScrapePool(config, { targets: keep, metrics: keep }, idlePoolDeps(scheduler));
}

describe('globalUrl', () => {
  it.each([
    ['http://127.0.0.1:9100/metrics', 'http://box:9100/metrics'],
    ['http://localhost:9100/probe?module=redis', 'http://box:9100/probe?module=redis'],
    ['https://[::1]:8443/metrics', 'https://box:8443/metrics'],
    // Only upstream's three spellings of this machine.
    ['http://127.0.0.2:9100/metrics', 'http://127.0.0.2:9100/metrics'],
    ['http://[::ffff:127.0.0.1]:9100/metrics', 'http://[::ffff:127.0.0.1]:9100/metrics'],
    ['http://10.0.0.7:9100/metrics', 'http://10.0.0.7:9100/metrics'],
    ['http://redis.example.com:9121/metrics', 'http://redis.example.com:9121/metrics'],
    // Without a port the URL stays as it is.
    ['http://localhost/metrics', 'http://localhost/metrics'],
  ])('shows %s as %s', (url, expected) => {
    expect(globalUrl(url, 'box')).toBe(expected);
  });
});

describe('targetsView', () => {
  it("gives a loopback target the machine's hostname and a refused scrape Go's words", async () => {
    const port = await getFreePort();
    const scrapePool = pool([`127.0.0.1:${port}`]);
    await scrapePool.start();
    try {
      await scrapePool.activeTargets[0].scrape(15_000);
      const view = targetsView([scrapePool], { active: true, dropped: true }, () => 'box');
      expect(view.activeTargets).toEqual([
        expect.objectContaining({
          scrapePool: 'app',
          scrapeUrl: `http://127.0.0.1:${port}/metrics`,
          globalUrl: `http://box:${port}/metrics`,
          health: 'down',
          lastError: `Get "http://127.0.0.1:${port}/metrics": dial tcp 127.0.0.1:${port}: connect: connection refused`,
        }),
      ]);
    } finally {
      scrapePool.stop();
    }
  });
});
