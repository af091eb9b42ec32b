import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Registry } from 'prom-client';
import type { ScrapeConfig } from '../config';
import { BodyBufferPool, HttpClient } from '../http-client';
import { recordingLogger, type LoggedLine } from '../logging/testing/recording-logger';
import { FakeScheduler } from '../time/testing/fake-scheduler';
import { CircularExemplarStore, ExemplarMetrics } from '../tsdb/exemplars';
import { Labels } from '../tsdb/labels';
import { scrapedSamples } from './exposition-parser';
import { ScrapeLoop } from './scrape-loop';
import { populateTarget } from './scrape-target';
import { specScrapeConfig } from './testing/spec-scrape-config';

const OPENMETRICS = 'application/openmetrics-text; version=1.0.0; charset=utf-8';

let server: Server;
let body = '';
let address = '';
beforeAll(async () => {
  server = createServer((_req, res) =>
    res.writeHead(200, { 'content-type': OPENMETRICS }).end(body),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  address = `127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

/** A loop over the loopback exporter feeding an exemplar store; `show` lists what it holds. */
function loop(
  over: Partial<ScrapeConfig> = {},
  metricRelabel = (l: Labels): Labels | undefined => l,
) {
  const config = specScrapeConfig(over);
  const outcome = populateTarget(Labels.fromRecord({ __address__: address }), config, (l) => l);
  if (outcome.kind !== 'target') throw new Error('no target');
  const exemplars = new CircularExemplarStore(10, new ExemplarMetrics(new Registry()));
  const scheduler = new FakeScheduler(0);
  const lines: LoggedLine[] = [];
  const scrape = new ScrapeLoop(outcome.target, config, {
    clock: scheduler,
    scheduler,
    logger: recordingLogger(lines),
    storage: {
      appender: () => ({
        add: () => undefined,
        addStale: () => undefined,
        commit: () => ({ written: Promise.resolve() }),
      }),
      kept: (l) => l,
    },
    client: new HttpClient(config.httpConfig),
    bodies: new BodyBufferPool(),
    parse: scrapedSamples,
    metricRelabel,
    accept: OPENMETRICS,
    userAgent: 'test',
    exemplars,
  });
  const show = () =>
    [...exemplars.entries()].map(
      ([series, e]) =>
        `${series.get('__name__')}${series.get('le') ? `{le=${series.get('le')}}` : ''} ${e.labels.toString()} ${e.value} @${e.timestampMs}`,
    );
  return { scrape, show, lines };
}

describe('ScrapeLoop exemplars', () => {
  it.each([
    [
      'keeps its own time, or takes the sample time',
      {},
      [
        'a_total 1 # {t="x"} 0.5 10.5',
        'b_bucket{le="1"} 2 # {t="y"} 1',
        'c_total 1 20 # {t="z"} 1',
      ],
      ['a_total {t="x"} 0.5 @10500', 'b_bucket{le=1} {t="y"} 1 @15000', 'c_total {t="z"} 1 @20000'],
    ],
    [
      'takes the slot without honor_timestamps',
      { honorTimestamps: false },
      ['c_total 1 20 # {t="z"} 1'],
      ['c_total {t="z"} 1 @15000'],
    ],
    [
      'drops the exemplar of a sample over the sample limit',
      { sampleLimit: 1 },
      ['a_total 1 # {t="x"} 1 1', 'b_total 1'],
      [],
    ],
    [
      'drops an exemplar with too long a label set, the scrape still up',
      {},
      [`a_total 1 # {t="${'x'.repeat(128)}"} 1 1`, 'b_total 1 # {t="y"} 1 1'],
      ['b_total {t="y"} 1 @1000'],
    ],
  ] as [string, Partial<ScrapeConfig>, string[], string[]][])(
    '%s',
    async (_name, over, lines, expected) => {
      body = `${lines.join('\n')}\n# EOF\n`;
      const { scrape, show } = loop(over);
      await scrape.scrape(15_000);
      expect(show()).toEqual(expected);
      expect(scrape.status.lastError).toBe(over.sampleLimit ? 'sample limit exceeded' : '');
    },
  );

  it('keeps an exemplar without time once, as the same one at every scrape', async () => {
    body = 'a_total 1 # {t="x"} 1\n# EOF\n';
    const { scrape, show } = loop();
    await scrape.scrape(15_000);
    await scrape.scrape(30_000);
    body = 'a_total 2 # {t="y"} 2\n# EOF\n';
    await scrape.scrape(45_000);
    expect(show()).toEqual(['a_total {t="x"} 1 @15000', 'a_total {t="y"} 2 @45000']);
  });

  it('refuses an out-of-order exemplar with a warning, the scrape still up', async () => {
    body = 'a_total 1 # {t="x"} 1 100\n# EOF\n';
    const { scrape, show, lines } = loop();
    await scrape.scrape(15_000);
    body = 'a_total 2 # {t="y"} 1 50\n# EOF\n';
    await scrape.scrape(30_000);
    expect(show()).toEqual(['a_total {t="x"} 1 @100000']);
    expect(scrape.status.health).toBe('up');
    expect(lines.filter((l) => l.level === 'warn')).toMatchObject([
      { msg: 'Error on ingesting out-of-order exemplars', fields: { num_dropped: 1 } },
    ]);
  });

  it('files the exemplar under the series as metric relabeling leaves it', async () => {
    body = 'a_total 1 # {t="x"} 1 1\nb_total 1 # {t="y"} 1 1\n# EOF\n';
    const { scrape, show } = loop({}, (l) =>
      l.get('__name__') === 'b_total' ? undefined : l.with('__name__', 'renamed_total'),
    );
    await scrape.scrape(15_000);
    expect(show()).toEqual(['renamed_total {t="x"} 1 @1000']);
  });
});
