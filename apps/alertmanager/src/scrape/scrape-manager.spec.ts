import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '@redisx/testing';
import type { ScrapeConfig } from '../config';
import { recordingLogger } from '../logging/testing/recording-logger';
import { FakeScheduler } from '../time/testing/fake-scheduler';
import type { Labels } from '../tsdb/labels';
import { ScrapeManager } from './scrape-manager';
import { idlePoolDeps } from './testing/idle-pool-deps';
import { specScrapeConfig } from './testing/spec-scrape-config';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'scrape-manager-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const job = (name: string, over: Partial<ScrapeConfig> = {}): ScrapeConfig =>
  // Long intervals: these tests look at targets, not scrapes.
  specScrapeConfig({
    jobName: name,
    scrapeIntervalMs: 3_600_000,
    scrapeTimeoutMs: 10_000,
    ...over,
  });

function manager(scheduler: FakeScheduler) {
  const keep = (labels: Labels) => labels;
  return new ScrapeManager(
    idlePoolDeps(scheduler),
    // Targets whose address ends in :9 are dropped, as a relabeling rule would.
    () => ({
      targets: (l) => (l.get('__address__').endsWith(':9') ? undefined : l),
      metrics: keep,
    }),
    recordingLogger([]),
  );
}

const addresses = (m: ScrapeManager) =>
  m.scrapePools.flatMap((p) =>
    p.activeTargets.map((t) => `${p.jobName} ${t.target.labels.get('__address__')}`),
  );

describe('ScrapeManager', () => {
  it('scrapes static and file targets, re-reads the files on their interval, lists dropped targets', async () => {
    const scheduler = new FakeScheduler(0);
    const m = manager(scheduler);
    const file = join(dir, 'targets.json');
    await writeFile(file, JSON.stringify([{ targets: ['127.0.0.1:2', '127.0.0.1:9'] }]));
    await m.update([
      job('a', {
        staticConfigs: [{ targets: ['127.0.0.1:1'], labels: {} }],
        fileSdConfigs: [{ files: [join(dir, '*.json')], refreshIntervalMs: 30_000 }],
      }),
    ]);
    expect(addresses(m)).toEqual(['a 127.0.0.1:1', 'a 127.0.0.1:2']);
    expect(
      m.scrapePools[0].droppedTargets.map((d) => d.discoveredLabels.get('__address__')),
    ).toEqual(['127.0.0.1:9']);
    await writeFile(file, JSON.stringify([{ targets: ['127.0.0.1:3'] }]));
    await scheduler.advance(30_000);
    await waitFor('the file to be read again', async () => addresses(m).includes('a 127.0.0.1:3'));
    expect(addresses(m)).toEqual(['a 127.0.0.1:1', 'a 127.0.0.1:3']);
    m.stop();
  });

  it('keeps the loops of an unchanged job over a reload, replaces a changed one, stops a removed one', async () => {
    const scheduler = new FakeScheduler(0);
    const m = manager(scheduler);
    const a = job('a', { staticConfigs: [{ targets: ['127.0.0.1:1'], labels: {} }] });
    const b = job('b', { staticConfigs: [{ targets: ['127.0.0.1:2'], labels: {} }] });
    await m.update([a, b]);
    const [loopA] = m.scrapePools[0].activeTargets;
    const [loopB] = m.scrapePools[1].activeTargets;
    await m.update([{ ...a }, { ...b, scrapeTimeoutMs: 5_000 }, job('c')]);
    expect(m.scrapePools.map((p) => p.jobName)).toEqual(['a', 'b', 'c']);
    expect(m.scrapePools[0].activeTargets[0]).toBe(loopA);
    expect(m.scrapePools[1].activeTargets[0]).not.toBe(loopB);
    await m.update([a]);
    expect(m.scrapePools.map((p) => p.jobName)).toEqual(['a']);
    m.stop();
  });

  it('refuses a job whose relabeling does not decode, before changing anything', async () => {
    const scheduler = new FakeScheduler(0);
    const m = new ScrapeManager(
      idlePoolDeps(scheduler),
      (config) => {
        if (config.jobName === 'bad')
          throw new Error(
            'prometheus.yml:5: scrape_configs[1].relabel_configs[0]: relabel action cannot be empty',
          );
        return { targets: (l) => l, metrics: (l) => l };
      },
      recordingLogger([]),
    );
    await m.update([job('a')]);
    expect(() => m.prepare([job('a'), job('bad')])).toThrow('relabel action cannot be empty');
    expect(m.scrapePools.map((p) => p.jobName)).toEqual(['a']);
    m.stop();
  });
});
