import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getFreePort, waitFor } from '@redisx/testing';
import type { ScrapeConfig } from '../config';
import { BodyBufferPool, HttpClient } from '../http-client';
import { recordingLogger, type LoggedLine } from '../logging/testing/recording-logger';
import { PromqlEngine } from '../promql';
import { FakeScheduler } from '../time/testing/fake-scheduler';
import { Labels } from '../tsdb/labels';
import { MemoryStore } from '../tsdb/memory-store';
import { parseExposition } from './exposition-parser';
import { ScrapeLoop, type ScrapedSample } from './scrape-loop';
import { populateTarget } from './scrape-target';
import { specScrapeConfig } from './testing/spec-scrape-config';

/** The loop's parser is an input; these tests read `name{a="b"} value [ts]` lines. */
function parseLines(body: string | Uint8Array): ScrapedSample[] {
  const text = typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'))
    .map((line) => {
      const [, name, labels, value, ts] = /^(\w+)(?:\{(.*)\})? (\S+)(?: (\d+))?$/.exec(line) ?? [];
      const record: Record<string, string> = { __name__: name };
      for (const pair of (labels ?? '').split(',').filter(Boolean)) {
        const [k, v] = pair.split('=');
        record[k] = JSON.parse(v) as string;
      }
      return {
        labels: Labels.fromRecord(record),
        value: Number(value),
        timestampMs: ts ? Number(ts) : undefined,
      };
    });
}

let server: Server;
/** The reply to every request; `delayMs` holds it back, `bodyDelayMs` only the end of its body. */
let reply: { status: number; body: string; delayMs?: number; bodyDelayMs?: number };
let seenHeaders: Record<string, string | string[] | undefined> = {};
let address = '';
beforeAll(async () => {
  server = createServer((req, res) => {
    seenHeaders = req.headers;
    const { status, body, delayMs = 0, bodyDelayMs } = reply;
    setTimeout(() => {
      res.writeHead(status, { 'content-type': 'text/plain' });
      if (bodyDelayMs === undefined) res.end(body);
      else res.write(body, () => setTimeout(() => res.end(), bodyDelayMs));
    }, delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  address = `127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

function loop(
  over: Partial<ScrapeConfig> = {},
  metricRelabel = (l: Labels): Labels | undefined => l,
  targetAddress = address,
  /** When the store has written a commit's samples. */
  written = (): Promise<void> => Promise.resolve(),
  parse: (body: string | Uint8Array) => ScrapedSample[] = parseLines,
) {
  const config = specScrapeConfig(over);
  const lines: LoggedLine[] = [];
  const outcome = populateTarget(
    Labels.fromRecord({ __address__: targetAddress }),
    config,
    (l) => l,
  );
  if (outcome.kind !== 'target') throw new Error('no target');
  const store = new MemoryStore();
  const scheduler = new FakeScheduler(0);
  const scrape = new ScrapeLoop(outcome.target, config, {
    clock: scheduler,
    scheduler,
    logger: recordingLogger(lines),
    storage: {
      appender: () => {
        const rows: [Labels, number, number, boolean][] = [];
        return {
          add: (l: Labels, t: number, v: number) => rows.push([l, t, v, false]),
          addStale: (l: Labels, t: number) => rows.push([l, t, NaN, true]),
          commit: () => {
            for (const [l, t, v, stale] of rows) store.append(l, t, v, stale);
            return { written: written() };
          },
        };
      },
      kept: (l: Labels) => store.kept(l),
    },
    client: new HttpClient(config.httpConfig),
    bodies: new BodyBufferPool(),
    parse,
    metricRelabel,
    accept: 'text/plain;version=0.0.4',
    userAgent: 'test',
  });
  /** The sample of a series at `t`: its value, 'stale', or undefined. */
  const at = (record: Record<string, string>, t: number) => {
    const run = store.get(Labels.fromRecord(record))?.samples(t, t);
    if (!run || run.t.length === 0) return undefined;
    return run.stale?.[0] ? 'stale' : run.v[0];
  };
  return { scrape, store, scheduler, at, lines };
}

const target = () => ({ instance: address, job: 'app' });

describe('ScrapeLoop', () => {
  it('relabels a series once while it is scraped, and again once it comes back', async () => {
    const relabeled: string[] = [];
    const relabel = (l: Labels) => {
      relabeled.push(l.get('x'));
      return l.get('x') === 'drop' ? undefined : l;
    };
    const { scrape, at } = loop({}, relabel, address, undefined, (body) =>
      parseExposition(body, false),
    );
    const scrapes: [number, string, string[]][] = [
      [15_000, 'a{x="1"} 1\na{x="2"} 2\na{x="drop"} 3\n', ['1', '2', 'drop']],
      [30_000, 'a{x="1"} 4\na{x="2"} 5\na{x="drop"} 6\n', []],
      [45_000, 'a{x="1"} 7\na{ x="3" } 8\n', ['3']],
      [60_000, 'a{x="1"} 9\na{x="2"} 10\na{ x="3" } 11\n', ['2']],
    ];
    for (const [t, body, relabeledNow] of scrapes) {
      reply = { status: 200, body };
      relabeled.length = 0;
      await scrape.scrape(t);
      expect({ t, relabeled }).toEqual({ t, relabeled: relabeledNow });
    }
    const a = (x: string) => ({ __name__: 'a', x, ...target() });
    expect([30_000, 45_000, 60_000].map((t) => at(a('1'), t))).toEqual([4, 7, 9]);
    expect([30_000, 45_000, 60_000].map((t) => at(a('2'), t))).toEqual([5, 'stale', 10]);
    expect([45_000, 60_000].map((t) => at(a('3'), t))).toEqual([8, 11]);
    expect(at(a('drop'), 30_000)).toBeUndefined();
  });

  it('counts in scrape_series_added the series new to its cache, as upstream: one that comes back counts again', async () => {
    const { scrape, at } = loop({}, undefined, address, undefined, (body) =>
      parseExposition(body, false),
    );
    const scrapes: [number, number, string][] = [
      [15_000, 200, 'a{x="1"} 1\na{x="2"} 2\n'],
      [30_000, 200, 'a{x="1"} 1\na{x="2"} 2\n'],
      [45_000, 200, 'a{x="1"} 1\na{x="3"} 3\n'],
      // A failed scrape keeps the cache as it is.
      [60_000, 500, ''],
      [75_000, 200, 'a{x="1"} 1\na{x="3"} 3\n'],
      [90_000, 200, 'a{x="1"} 1\na{x="2"} 2\na{x="3"} 3\n'],
    ];
    const added: [number, unknown][] = [];
    for (const [t, status, body] of scrapes) {
      reply = { status, body };
      await scrape.scrape(t);
      added.push([t, at({ __name__: 'scrape_series_added', ...target() }, t)]);
    }
    expect(added).toEqual([
      [15_000, 2],
      [30_000, 0],
      [45_000, 1],
      [60_000, 0],
      [75_000, 0],
      [90_000, 1],
    ]);
  });

  it('marks each series stale once, through failed scrapes, a sample limit and texts relabeled into one series', async () => {
    // `y` is dropped: a{x="1",y="1"} and a{x="1",y="2"} are one series once relabeled.
    const relabel = (l: Labels) => l.without(['y']);
    const { scrape, at } = loop({ sampleLimit: 3 }, relabel, address, undefined, (body) =>
      parseExposition(body, false),
    );
    // Each scrape: its slot, status, body, then what a{x="1"}, a{x="2"} and a{x="3"} hold at it.
    const scrapes: [number, number, string, unknown[]][] = [
      [15_000, 200, 'a{x="1",y="1"} 1\na{x="1",y="2"} 9\na{x="2"} 2\n', [1, 2, undefined]],
      [30_000, 200, 'a{x="1",y="2"} 3\n', [3, 'stale', undefined]],
      [45_000, 500, '', ['stale', undefined, undefined]],
      // Nothing was tracked by the failed scrape: nothing goes stale twice.
      [60_000, 200, 'a{x="3"} 4\n', [undefined, undefined, 4]],
      // Over the limit: nothing written, everything the last scrape tracked stale.
      [
        75_000,
        200,
        'a{x="1"} 5\na{x="2"} 6\na{x="3"} 7\na{x="4"} 8\n',
        [undefined, undefined, 'stale'],
      ],
      [90_000, 200, 'a{x="2"} 9\n', [undefined, 9, undefined]],
      [105_000, 200, 'a{x="1"} 10\n', [10, 'stale', undefined]],
    ];
    const a = (x: string) => ({ __name__: 'a', x, ...target() });
    const seen: [number, unknown[]][] = [];
    for (const [t, status, body] of scrapes) {
      reply = { status, body };
      await scrape.scrape(t);
      seen.push([t, ['1', '2', '3'].map((x) => at(a(x), t))]);
    }
    expect(seen).toEqual(scrapes.map(([t, , , expected]) => [t, expected]));
    expect(at({ __name__: 'scrape_samples_post_metric_relabeling', ...target() }, 15_000)).toBe(2);
  });

  it("writes the target's samples with its labels at the slot, and the report series", async () => {
    reply = {
      status: 200,
      body: '# HELP x\nrequests_total{code="200"} 5\nrequests_total{job="other"} 1\n',
    };
    const { scrape, at } = loop();
    await scrape.scrape(15_000);
    expect(at({ __name__: 'requests_total', code: '200', ...target() }, 15_000)).toBe(5);
    expect(at({ __name__: 'requests_total', exported_job: 'other', ...target() }, 15_000)).toBe(1);
    expect(at({ __name__: 'up', ...target() }, 15_000)).toBe(1);
    expect(at({ __name__: 'scrape_samples_scraped', ...target() }, 15_000)).toBe(2);
    expect(at({ __name__: 'scrape_samples_post_metric_relabeling', ...target() }, 15_000)).toBe(2);
    expect(at({ __name__: 'scrape_series_added', ...target() }, 15_000)).toBe(2);
    expect(scrape.status).toMatchObject({ health: 'up', lastError: '', lastScrape: 15_000 });
    expect(seenHeaders['accept']).toBe('text/plain;version=0.0.4');
    expect(seenHeaders['x-prometheus-scrape-timeout-seconds']).toBe('1');
  });

  it('is done once its samples are written; a failed write is logged and leaves the target up', async () => {
    reply = { status: 200, body: 'a 1\n' };
    let finishWrite: ((error?: Error) => void) | undefined;
    const writing = () =>
      new Promise<void>((resolve, reject) => {
        finishWrite = (error) => (error === undefined ? resolve() : reject(error));
      });
    const { scrape, lines } = loop({}, undefined, undefined, writing);
    let done = false;
    const scraped = scrape.scrape(15_000).then(() => (done = true));
    await waitFor('the commit', () => finishWrite !== undefined);
    await new Promise((resolve) => setImmediate(resolve));
    expect(done).toBe(false);
    expect(scrape.status.lastScrape).toBe(0);
    finishWrite?.(new Error('ENOSPC: no space left on device, write'));
    await scraped;
    expect(scrape.status).toMatchObject({ health: 'up', lastError: '', lastScrape: 15_000 });
    expect(lines).toEqual([
      {
        level: 'error',
        msg: 'Scrape commit failed',
        fields: {
          target: `http://${address}/metrics`,
          err: 'ENOSPC: no space left on device, write',
        },
      },
    ]);
  });

  it('marks a series that disappears stale, and every series of a failed scrape', async () => {
    const { scrape, at } = loop();
    reply = { status: 200, body: 'a 1\nb 2\n' };
    await scrape.scrape(15_000);
    reply = { status: 200, body: 'a 3\n' };
    await scrape.scrape(30_000);
    expect(at({ __name__: 'b', ...target() }, 30_000)).toBe('stale');
    reply = { status: 503, body: 'down' };
    await scrape.scrape(45_000);
    expect(at({ __name__: 'a', ...target() }, 45_000)).toBe('stale');
    expect(at({ __name__: 'up', ...target() }, 45_000)).toBe(0);
    expect(scrape.status).toMatchObject({
      health: 'down',
      lastError: 'server returned HTTP status 503 Service Unavailable',
    });
  });

  it('writes nothing of a body that fails to parse part way, read sample by sample', async () => {
    const { scrape, at } = loop({}, undefined, address, undefined, (body) =>
      parseExposition(body, false),
    );
    reply = { status: 200, body: 'a 1\nb 2\n' };
    await scrape.scrape(15_000);
    reply = { status: 200, body: 'a 3\nc 4\nd{x=} 5\n' };
    await scrape.scrape(30_000);
    expect(['a', 'b', 'c'].map((name) => at({ __name__: name, ...target() }, 30_000))).toEqual([
      'stale',
      'stale',
      undefined,
    ]);
    expect(at({ __name__: 'up', ...target() }, 30_000)).toBe(0);
    expect(at({ __name__: 'scrape_samples_scraped', ...target() }, 30_000)).toBe(0);
    expect(scrape.status.lastError).toMatch(/expected label value/);
  });

  it('fails a scrape that takes longer than the timeout, as Go words it', async () => {
    const { scrape, at } = loop({ scrapeTimeoutMs: 50 });
    reply = { status: 200, body: 'a 1\n', delayMs: 500 };
    await scrape.scrape(15_000);
    expect(at({ __name__: 'up', ...target() }, 15_000)).toBe(0);
    // No answer yet: the request fails (Go's `*url.Error`).
    expect(scrape.status.lastError).toBe(
      `Get "http://${address}/metrics": context deadline exceeded`,
    );
    // Answered, the body cut: reading it fails.
    reply = { status: 200, body: 'a 1\n', bodyDelayMs: 500 };
    await scrape.scrape(30_000);
    expect(at({ __name__: 'up', ...target() }, 30_000)).toBe(0);
    expect(scrape.status.lastError).toBe('context deadline exceeded');
  });

  it('words a refused connection as Go does', async () => {
    const port = await getFreePort();
    const { scrape, at } = loop({}, undefined, `127.0.0.1:${port}`);
    await scrape.scrape(15_000);
    expect(at({ __name__: 'up', instance: `127.0.0.1:${port}`, job: 'app' }, 15_000)).toBe(0);
    expect(scrape.status).toMatchObject({
      health: 'down',
      lastError: `Get "http://127.0.0.1:${port}/metrics": dial tcp 127.0.0.1:${port}: connect: connection refused`,
    });
  });

  // A series exposed with its own timestamp, gone from the next scrape: with the default, no
  // staleness marker, so it answers queries within the lookback; with the option, one.
  it.each([
    ['leaves a series with an explicit timestamp unmarked by default', false, undefined, 1],
    [
      'marks a series with an explicit timestamp stale with track_timestamps_staleness',
      true,
      'stale',
      undefined,
    ],
  ])('%s', async (_, trackTimestampsStaleness, marker, queried) => {
    const { scrape, store, at } = loop({ trackTimestampsStaleness });
    reply = { status: 200, body: 'a 1 15000\nb 2\n' };
    await scrape.scrape(15_000);
    reply = { status: 200, body: 'b 3\n' };
    await scrape.scrape(30_000);
    expect(at({ __name__: 'a', ...target() }, 30_000)).toBe(marker);
    const result = new PromqlEngine(store).instantQuery('a', 45_000);
    if (result.type !== 'vector') throw new Error(result.type);
    expect(result.samples[0]?.f).toBe(queried);
    // A series without a timestamp is marked either way.
    reply = { status: 200, body: '' };
    await scrape.scrape(45_000);
    expect(at({ __name__: 'b', ...target() }, 45_000)).toBe('stale');
  });

  it('honours timestamps and honor_labels, applies metric relabeling and the sample limit', async () => {
    reply = { status: 200, body: 'a{job="mine"} 1 5000\nb 2\ndrop_me 3\n' };
    const honoring = loop({ honorLabels: true }, (l) =>
      l.get('__name__') === 'drop_me' ? undefined : l,
    );
    await honoring.scrape.scrape(15_000);
    expect(honoring.at({ __name__: 'a', job: 'mine', instance: address }, 5_000)).toBe(1);
    expect(
      honoring.at({ __name__: 'scrape_samples_post_metric_relabeling', ...target() }, 15_000),
    ).toBe(2);
    expect(honoring.at({ __name__: 'drop_me', ...target() }, 15_000)).toBeUndefined();

    const ignoring = loop({ honorTimestamps: false });
    await ignoring.scrape.scrape(15_000);
    expect(ignoring.at({ __name__: 'a', exported_job: 'mine', ...target() }, 15_000)).toBe(1);

    const limited = loop({ sampleLimit: 2 });
    await limited.scrape.scrape(15_000);
    expect(limited.at({ __name__: 'up', ...target() }, 15_000)).toBe(0);
    expect(limited.at({ __name__: 'b', ...target() }, 15_000)).toBeUndefined();
    expect(limited.scrape.status.lastError).toBe('sample limit exceeded');
  });

  it('scrapes on its slots and marks everything stale two intervals after it stops', async () => {
    reply = { status: 200, body: 'a 1\n' };
    const { scrape, scheduler, store } = loop();
    scrape.start();
    const samples = () =>
      store.get(Labels.fromRecord({ __name__: 'a', ...target() }))?.samples(0, 120_000);
    // Real HTTP under a fake clock: each slot's scrape is let answer before time moves on.
    for (const count of [1, 2]) {
      await scheduler.advance(15_000);
      await waitFor(`scrape ${count}`, async () => (samples()?.t.length ?? 0) >= count);
    }
    const run = samples();
    expect((run?.t[1] ?? 0) - (run?.t[0] ?? 0)).toBe(15_000);
    const last = run?.t[run.t.length - 1] ?? 0;
    scrape.stop();
    await scheduler.advance(31_000);
    const after = store.get(Labels.fromRecord({ __name__: 'a', ...target() }))?.samples(0, 120_000);
    expect(after?.t[after.t.length - 1]).toBe(last + 15_000);
    expect(after?.stale?.[after.t.length - 1]).toBe(1);
  });
});
