import { Registry } from 'prom-client';
import { CircularExemplarStore, ExemplarMetrics } from '../../tsdb/exemplars';
import { Labels } from '../../tsdb/labels';
import { queryExemplars } from './exemplars-api';
import { exemplarValue, timestampSeconds } from './exemplars-json';
import { PrometheusApiError } from './prometheus-reply';

const store = new CircularExemplarStore(100, new ExemplarMetrics(new Registry()));
const add = (series: Record<string, string>, trace: string, value: number, ms: number) =>
  store.add(Labels.fromRecord({ job: 'app', ...series }), {
    labels: Labels.fromRecord({ trace_id: trace }),
    value,
    timestampMs: ms,
    hasTimestamp: true,
  });
add({ __name__: 'requests_total', code: '200' }, 'a', 1, 1_600_000_000_123);
add({ __name__: 'requests_total', code: '500' }, 'b', 2, 1_600_000_000_500);
add({ __name__: 'requests_total', code: '200' }, 'c', 3, 1_600_000_010_000);
add({ __name__: 'latency_bucket', le: '0.5' }, 'd', 0.25, 1_600_000_005_000);

/** The series (by their varying label) and exemplars (by trace id) an exemplar query answers. */
async function answer(params: Record<string, string>): Promise<string[] | undefined> {
  const data = await queryExemplars(store, new URLSearchParams(params));
  if (data === undefined) return undefined;
  const found = JSON.parse(data.text) as {
    seriesLabels: Record<string, string>;
    exemplars: { labels: { trace_id: string } }[];
  }[];
  return found.map(
    (s) =>
      `${s.seriesLabels['__name__']}{${s.seriesLabels['code'] ?? s.seriesLabels['le']}}: ${s.exemplars.map((e) => e.labels.trace_id).join(',')}`,
  );
}

describe('queryExemplars', () => {
  it.each([
    [
      'a metric name',
      { query: 'requests_total' },
      ['requests_total{200}: a,c', 'requests_total{500}: b'],
    ],
    ['a label matcher', { query: 'requests_total{code="200"}' }, ['requests_total{200}: a,c']],
    [
      'a time range',
      { query: 'requests_total', start: '1600000000.2', end: '1600000009' },
      ['requests_total{500}: b'],
    ],
    ['an open end', { query: 'requests_total', start: '1600000001' }, ['requests_total{200}: c']],
    [
      'an RFC 3339 time',
      { query: 'requests_total', end: '2020-09-13T12:26:40.123Z' },
      ['requests_total{200}: a'],
    ],
    [
      'every selector of an expression',
      {
        query:
          'sum(rate(requests_total{code="500"}[5m])) / histogram_quantile(0.9, latency_bucket)',
      },
      ['latency_bucket{0.5}: d', 'requests_total{500}: b'],
    ],
    ['a subquery', { query: 'max_over_time(latency_bucket[10m:1m])' }, ['latency_bucket{0.5}: d']],
    [
      'a selector under offset and @',
      { query: 'requests_total{code="500"} offset 5m @ 100' },
      ['requests_total{500}: b'],
    ],
    ['no match', { query: 'nothing_total' }, []],
    ['a query without selectors (204)', { query: 'vector(1) + 2' }, undefined],
  ])('answers %s', async (_name, params, expected) => {
    expect(await answer(params)).toEqual(expected);
  });

  it.each([
    [
      { query: 'up', start: 'abc' },
      `invalid parameter "start": Invalid time value for 'start': cannot parse "abc" to a valid timestamp`,
    ],
    [
      { query: 'up', end: 'x' },
      `invalid parameter "end": Invalid time value for 'end': cannot parse "x" to a valid timestamp`,
    ],
    [{ query: 'up', start: '10', end: '5' }, 'end timestamp must not be before start timestamp'],
    [{}, '1:1: parse error: no expression found in input'],
    [{ query: 'requests_total{' }, '1:16: parse error: unexpected end of input inside braces'],
    [
      { query: '{a=~".*"}' },
      '1:1: parse error: vector selector must contain at least one non-empty matcher',
    ],
    // The times are read before the query.
    [
      { query: 'requests_total{', start: 'x' },
      `invalid parameter "start": Invalid time value for 'start': cannot parse "x" to a valid timestamp`,
    ],
  ])('refuses %j as upstream words it', async (params, message) => {
    const refusal = await queryExemplars(store, new URLSearchParams(params)).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(PrometheusApiError);
    expect((refusal as PrometheusApiError).message).toContain(message);
    expect((refusal as PrometheusApiError).errorType).toBe('bad_data');
  });

  it('writes the answer as Prometheus 2.42 does', async () => {
    const own = new CircularExemplarStore(10, new ExemplarMetrics(new Registry()));
    own.add(Labels.fromRecord({ __name__: 'a_total', path: '<a&b>' }), {
      labels: Labels.fromRecord({ trace_id: 'x"y' }),
      value: 1e-7,
      timestampMs: 1_600_000_000_120,
      hasTimestamp: true,
    });
    expect((await queryExemplars(own, new URLSearchParams({ query: 'a_total' })))?.text).toBe(
      '[{"seriesLabels":{"__name__":"a_total","path":"\\u003ca\\u0026b\\u003e"},"exemplars":[{"labels":{"trace_id":"x\\"y"},"value":"1e-07","timestamp":1600000000.120}]}]',
    );
  });

  it('answers a whole store in slices, as the store selects it at once', async () => {
    const big = new CircularExemplarStore(20_000, new ExemplarMetrics(new Registry()));
    for (let k = 0; k < 4; k++) {
      for (let i = 0; i < 5_000; i++) {
        big.add(Labels.fromRecord({ __name__: 'big_total', i: String(i) }), {
          labels: Labels.fromRecord({ trace_id: `${i}-${k}` }),
          value: i + k,
          timestampMs: 1_600_000_000_000 + k * 1000,
          hasTimestamp: true,
        });
      }
    }
    const all = [
      {
        name: '__name__',
        type: '=' as const,
        value: 'big_total',
        matches: (v: string) => v === 'big_total',
      },
    ];
    const sliced = await big.selectInSlices(-Infinity, Infinity, [all]);
    expect(sliced).toEqual(big.select(-Infinity, Infinity, [all]));
    expect(sliced.reduce((n, s) => n + s.exemplars.length, 0)).toBe(20_000);
    const text = (await queryExemplars(big, new URLSearchParams({ query: 'big_total' })))?.text;
    expect((JSON.parse(text ?? '[]') as unknown[]).length).toBe(5_000);
  });

  it.each([
    [1_600_000_000_000, '1600000000'],
    [1_600_000_000_120, '1600000000.120'],
    [1_600_000_000_005, '1600000000.005'],
    [-1_500, '-1.500'],
    [-500, '-0.500'],
    [0, '0'],
  ])('writes the time %d ms as %s', (ms, text) => {
    expect(timestampSeconds(ms)).toBe(text);
  });

  it.each([
    [0.67, '0.67'],
    [1e-7, '1e-07'],
    [1e21, '1e+21'],
    [123456789, '123456789'],
    [0, '0'],
    [NaN, 'NaN'],
    [-Infinity, '-Inf'],
  ])('writes the value %d as %s', (value, text) => {
    expect(exemplarValue(value)).toBe(text);
  });
});
