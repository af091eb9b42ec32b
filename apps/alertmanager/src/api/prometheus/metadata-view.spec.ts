import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ScrapePool } from '../../scrape';
import { idlePoolDeps } from '../../scrape/testing/idle-pool-deps';
import { specScrapeConfig } from '../../scrape/testing/spec-scrape-config';
import { FakeScheduler } from '../../time/testing/fake-scheduler';
import type { Labels } from '../../tsdb/labels';
import {
  metricMetadataView,
  parseLimit,
  parseMatchTarget,
  targetMetadataView,
  type TargetMetadataParams,
} from './metadata-view';
import { PrometheusApiError } from './prometheus-reply';

/** A pool of job `job` whose targets' caches hold `families` (`[target, lines]`), parsed as scraped. */
async function pool(job: string, targets: Record<string, string>): Promise<ScrapePool> {
  const keep = (labels: Labels) => labels;
  const config = specScrapeConfig({
    jobName: job,
    staticConfigs: Object.keys(targets).map((address) => ({
      targets: [address],
      labels: (address.startsWith('127.') ? { env: 'prod' } : {}) as Record<string, string>,
    })),
  });
  const scrapePool = new ScrapePool(
    config,
    { targets: keep, metrics: keep },
    idlePoolDeps(new FakeScheduler(0)),
  );
  await scrapePool.start();
  for (const loop of scrapePool.activeTargets) {
    const lines = targets[loop.target.labels.get('__address__')];
    for (const line of lines.split('\n').filter(Boolean)) {
      const [kind, metric, ...rest] = line.split(' ');
      const text = rest.join(' ');
      if (kind === 'TYPE') loop.metadata.setType(metric, text as 'counter');
      if (kind === 'HELP') loop.metadata.setHelp(metric, text);
      if (kind === 'UNIT') loop.metadata.setUnit(metric, text);
    }
    loop.metadata.iterDone(true);
  }
  return scrapePool;
}

let pools: ScrapePool[] = [];
beforeAll(async () => {
  pools = [
    await pool('app', {
      '127.0.0.1:9100':
        'TYPE up_total counter\nHELP up_total Requests.\nTYPE mem gauge\nHELP mem Memory.',
      'localhost:9100': 'TYPE up_total counter\nHELP up_total Requests.\nTYPE lat histogram',
    }),
    await pool('db', {
      'db:9187':
        'TYPE mem gauge\nHELP mem Memory of the database.\nTYPE q_seconds summary\nUNIT q_seconds seconds',
      'empty:9187': '',
    }),
  ];
});
afterAll(() => pools.forEach((p) => p.stop()));

const APP_PROD = { env: 'prod', instance: '127.0.0.1:9100', job: 'app' };
const APP_LOCAL = { instance: 'localhost:9100', job: 'app' };
const DB = { instance: 'db:9187', job: 'db' };

describe('parseLimit', () => {
  it.each<[string | null, number]>([
    [null, -1],
    ['', -1],
    ['0', 0],
    ['2', 2],
    ['+2', 2],
    ['007', 7],
    ['-1', -1],
    ['-9223372036854775808', -1],
    ['9223372036854775807', Infinity],
  ])('reads %j as %d', (text, limit) => {
    expect(parseLimit(text)).toBe(limit);
  });

  it.each(['abc', '1.5', ' 1', '1 ', '1e3', '0x10', '1_000', '9223372036854775808', '-', '+'])(
    'refuses %j as 2.42 does',
    (text) => {
      expect(() => parseLimit(text)).toThrow(
        new PrometheusApiError('bad_data', 'limit must be a number'),
      );
    },
  );
});

describe('parseMatchTarget, recorded from Prometheus 2.42', () => {
  const recorded = JSON.parse(
    readFileSync(join(__dirname, 'testdata/match-target.prometheus-2.42.json'), 'utf8'),
  ) as {
    targets: Record<string, string>[];
    cases: { matchTarget: string; matches?: string[]; error?: string }[];
  };

  it.each(recorded.cases.map((c) => [c.matchTarget, c] as const))('%j', (_text, c) => {
    let outcome: { matches?: string[]; error?: string };
    try {
      const matchers = parseMatchTarget(c.matchTarget);
      const kept = recorded.targets.filter((t) =>
        matchers.every((m) => m.matches(t[m.name] ?? '')),
      );
      outcome = { matches: kept.map((t) => `${t.job}/${t.instance}`).sort() };
    } catch (error) {
      expect(error).toBeInstanceOf(PrometheusApiError);
      outcome = { error: (error as Error).message };
    }
    expect(outcome).toEqual(c.error === undefined ? { matches: c.matches } : { error: c.error });
  });
});

describe('targetMetadataView', () => {
  const params = (over: Partial<TargetMetadataParams>): TargetMetadataParams => ({
    matchTarget: null,
    metric: null,
    limit: null,
    ...over,
  });
  const mem = (target: Record<string, string>, help: string) => ({
    target,
    type: 'gauge',
    help,
    unit: '',
  });

  it.each<[string, Partial<TargetMetadataParams>, unknown[]]>([
    [
      'one metric: every target that has it, without the metric name',
      { metric: 'mem' },
      [mem(APP_PROD, 'Memory.'), mem(DB, 'Memory of the database.')],
    ],
    ['a metric no target has', { metric: 'nope' }, []],
    ['a series name is not a family', { metric: 'up_total_count' }, []],
    [
      'match_target on a job',
      { metric: 'mem', matchTarget: '{job="db"}' },
      [mem(DB, 'Memory of the database.')],
    ],
    [
      'match_target on a label some targets lack',
      { metric: 'mem', matchTarget: '{env=""}' },
      [mem(DB, 'Memory of the database.')],
    ],
    [
      'match_target on a regex',
      { metric: 'mem', matchTarget: '{instance=~"127\\\\..*"}' },
      [mem(APP_PROD, 'Memory.')],
    ],
    [
      'match_target on an internal label matches none',
      { metric: 'mem', matchTarget: '{__address__="db:9187"}' },
      [],
    ],
    ['a metric name as match_target matches no target', { metric: 'mem', matchTarget: 'mem' }, []],
    [
      '{} matches every target',
      { metric: 'mem', matchTarget: '{}' },
      [mem(APP_PROD, 'Memory.'), mem(DB, 'Memory of the database.')],
    ],
    ['limit 0', { metric: 'mem', limit: '0' }, []],
    [
      'limit 1 stops after the first entry',
      { metric: 'mem', limit: '1' },
      [mem(APP_PROD, 'Memory.')],
    ],
    [
      'a negative limit is none',
      { metric: 'mem', limit: '-5' },
      [mem(APP_PROD, 'Memory.'), mem(DB, 'Memory of the database.')],
    ],
    [
      'every metric of a target, by name, with the metric',
      { matchTarget: '{instance="localhost:9100"}' },
      [
        { target: APP_LOCAL, metric: 'lat', type: 'histogram', help: '', unit: '' },
        { target: APP_LOCAL, metric: 'up_total', type: 'counter', help: 'Requests.', unit: '' },
      ],
    ],
    [
      'limit 1 gives the first target whole',
      { limit: '1' },
      [
        { target: APP_PROD, metric: 'mem', type: 'gauge', help: 'Memory.', unit: '' },
        { target: APP_PROD, metric: 'up_total', type: 'counter', help: 'Requests.', unit: '' },
      ],
    ],
    [
      'a unit',
      { metric: 'q_seconds' },
      [{ target: DB, type: 'summary', help: '', unit: 'seconds' }],
    ],
  ])('%s', (_name, over, expected) => {
    expect(targetMetadataView(pools, params(over))).toEqual(expected);
  });

  it('lists every target in order when nothing limits it', () => {
    const view = targetMetadataView(pools, params({}));
    expect(view.map((e) => `${e.target['instance']} ${e.metric}`)).toEqual([
      '127.0.0.1:9100 mem',
      '127.0.0.1:9100 up_total',
      'localhost:9100 lat',
      'localhost:9100 up_total',
      'db:9187 mem',
      'db:9187 q_seconds',
    ]);
  });

  it.each<[Partial<TargetMetadataParams>, string]>([
    [{ limit: 'x' }, 'limit must be a number'],
    // limit is read first, as upstream does.
    [{ limit: 'x', matchTarget: '{' }, 'limit must be a number'],
    [
      { matchTarget: '{job=}' },
      'invalid parameter "match_target": 1:6: parse error: unexpected "}" in label matching, expected string',
    ],
  ])('refuses %j', (over, message) => {
    expect(() => targetMetadataView(pools, params(over))).toThrow(
      new PrometheusApiError('bad_data', message),
    );
  });
});

describe('metricMetadataView', () => {
  it.each<[string, { metric?: string; limit?: string }, Record<string, unknown>]>([
    [
      'every metric by name, distinct metadata once, in target order',
      {},
      {
        lat: [{ type: 'histogram', help: '', unit: '' }],
        mem: [
          { type: 'gauge', help: 'Memory.', unit: '' },
          { type: 'gauge', help: 'Memory of the database.', unit: '' },
        ],
        q_seconds: [{ type: 'summary', help: '', unit: 'seconds' }],
        up_total: [{ type: 'counter', help: 'Requests.', unit: '' }],
      },
    ],
    ['one metric', { metric: 'lat' }, { lat: [{ type: 'histogram', help: '', unit: '' }] }],
    ['an unknown metric', { metric: 'nope' }, {}],
    ['limit 0', { limit: '0' }, {}],
    [
      'limit 2: the first two by name',
      { limit: '2' },
      {
        lat: [{ type: 'histogram', help: '', unit: '' }],
        mem: [
          { type: 'gauge', help: 'Memory.', unit: '' },
          { type: 'gauge', help: 'Memory of the database.', unit: '' },
        ],
      },
    ],
    [
      'limit with a metric',
      { metric: 'q_seconds', limit: '5' },
      { q_seconds: [{ type: 'summary', help: '', unit: 'seconds' }] },
    ],
  ])('%s', (_name, { metric = null, limit = null }, expected) => {
    const view = metricMetadataView(pools, { metric, limit });
    expect({ ...view }).toEqual(expected);
    expect(Object.keys(view)).toEqual(Object.keys(expected));
  });

  it('refuses a bad limit', () => {
    expect(() => metricMetadataView(pools, { metric: null, limit: '1.5' })).toThrow(
      new PrometheusApiError('bad_data', 'limit must be a number'),
    );
  });
});
