import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BodyBufferPool, HttpClient } from '../http-client';
import { recordingLogger } from '../logging/testing/recording-logger';
import { FakeScheduler } from '../time/testing/fake-scheduler';
import { Labels } from '../tsdb/labels';
import { scrapedSamples } from './exposition-parser';
import { ScrapeLoop } from './scrape-loop';
import { populateTarget } from './scrape-target';
import { specScrapeConfig } from './testing/spec-scrape-config';

/** What the exporter answers: a status, a body and its content type. */
type Reply = readonly [status: number, body: string, contentType?: string];

let server: Server;
let reply: Reply = [200, ''];
let address = '';
beforeAll(async () => {
  server = createServer((_req, res) => {
    const [status, body, contentType = 'text/plain; version=0.0.4'] = reply;
    res.writeHead(status, { 'content-type': contentType }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  address = `127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

/** A loop on the real parser, its samples thrown away. */
function loop(sampleLimit = 0): ScrapeLoop {
  const config = specScrapeConfig({ sampleLimit });
  const outcome = populateTarget(Labels.fromRecord({ __address__: address }), config, (l) => l);
  if (outcome.kind !== 'target') throw new Error('no target');
  const scheduler = new FakeScheduler(0);
  return new ScrapeLoop(outcome.target, config, {
    clock: scheduler,
    scheduler,
    logger: recordingLogger([]),
    storage: {
      appender: () => ({
        add: () => 0,
        addStale: () => 0,
        commit: () => ({ written: Promise.resolve() }),
      }),
      kept: (l) => l,
    },
    client: new HttpClient(config.httpConfig),
    bodies: new BodyBufferPool(),
    parse: scrapedSamples,
    metricRelabel: (l) => l,
    accept: 'text/plain',
    userAgent: 'test',
  });
}

const FAMILY: Reply = [200, '# HELP a Help of a.\n# TYPE a gauge\na 1\n'];
const OTHER: Reply = [200, '# TYPE b counter\nb 1\n'];
const times = (n: number, r: Reply): Reply[] => Array<Reply>(n).fill(r);

describe('ScrapeLoop metadata', () => {
  it.each<[string, Reply[], string[]]>([
    ['a scrape gives its families', [FAMILY], ['a']],
    ['a family stays ten scrapes after its last line', [FAMILY, ...times(10, OTHER)], ['a', 'b']],
    ['and is gone after the eleventh', [FAMILY, ...times(11, OTHER)], ['b']],
    ['failed requests do not count', [FAMILY, ...times(20, [500, 'no']), OTHER], ['a', 'b']],
    ['empty bodies do not count', [FAMILY, ...times(20, [200, '']), OTHER], ['a', 'b']],
    [
      'scrapes refused by the parser do not count, their lines before the error do',
      [FAMILY, ...times(20, [200, '# TYPE c gauge\nbad{ 1\n']), OTHER],
      ['a', 'b', 'c'],
    ],
    [
      'scrapes over the sample limit do not count',
      [FAMILY, ...times(20, [200, '# TYPE c gauge\nc{x="1"} 1\nc{x="2"} 1\nc{x="3"} 1\n'])],
      ['a', 'c'],
    ],
    [
      'an OpenMetrics scrape gives units',
      [
        [
          200,
          '# TYPE l_seconds gauge\n# UNIT l_seconds seconds\nl_seconds 1\n# EOF\n',
          'application/openmetrics-text; version=1.0.0',
        ],
      ],
      ['l_seconds'],
    ],
  ])('%s', async (_name, replies, families) => {
    const scrapeLoop = loop(2);
    let slot = 0;
    for (const next of replies) {
      reply = next;
      await scrapeLoop.scrape((slot += 15_000));
    }
    expect(scrapeLoop.metadata.list().map((m) => m.metric)).toEqual(families);
  });

  it('holds what the last lines said, unit included', async () => {
    const scrapeLoop = loop();
    reply = [
      200,
      '# TYPE l_seconds histogram\n# UNIT l_seconds seconds\n# HELP l_seconds Latency \\" here.\nl_seconds_count 1\nl_seconds_sum 1\n# EOF\n',
      'application/openmetrics-text; version=1.0.0',
    ];
    await scrapeLoop.scrape(15_000);
    expect(scrapeLoop.metadata.get('l_seconds')).toEqual({
      metric: 'l_seconds',
      type: 'histogram',
      help: 'Latency " here.',
      unit: 'seconds',
    });
  });
});
