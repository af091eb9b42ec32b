import { Labels } from '../../tsdb/labels';
import { MemoryStore } from '../../tsdb/memory-store';
import { PrometheusApiError, type JsonText } from './prometheus-reply';
import { QueryApi } from './query-api';

const NOW = 1_700_000_000_000;
const up = (job: string, instance: string) => Labels.fromRecord({ __name__: 'up', job, instance });

function api() {
  const store = new MemoryStore();
  for (let i = 0; i <= 10; i++) {
    const t = NOW - (10 - i) * 15_000;
    store.append(up('redis', 'a:9121'), t, 1);
    store.append(up('redis', 'b:9121'), t, i < 5 ? 1 : 0);
    store.append(Labels.fromRecord({ __name__: 'http_requests_total', job: 'api' }), t, i * 30);
  }
  return new QueryApi(store, { now: () => NOW });
}

const params = (record: Record<string, string | string[]>) => {
  const out = new URLSearchParams();
  for (const [k, v] of Object.entries(record)) for (const x of [v].flat()) out.append(k, x);
  return out;
};

function failure(run: () => unknown): { errorType: string; message: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof PrometheusApiError)
      return { errorType: error.errorType, message: error.message };
    throw error;
  }
  throw new Error('no error');
}

/** A query answer's data as the JSON it is written to. */
const json = (data: unknown) => JSON.parse((data as JsonText).text) as unknown;

describe('QueryApi', () => {
  it('answers an instant query at the current time by default, values as Prometheus writes them', () => {
    expect(json(api().query(params({ query: 'sum by (job) (up)' })).data)).toEqual({
      resultType: 'vector',
      result: [{ metric: { job: 'redis' }, value: [NOW / 1000, '1'] }],
    });
    expect(
      json(
        api().query(
          params({ query: 'max by (job) (http_requests_total)', time: String(NOW / 1000) }),
        ).data,
      ),
    ).toEqual({
      resultType: 'vector',
      result: [{ metric: { job: 'api' }, value: [NOW / 1000, '300'] }],
    });
    expect(json(api().query(params({ query: '1/3', time: '2023-11-14T22:13:20Z' })).data)).toEqual({
      resultType: 'scalar',
      result: [NOW / 1000, '0.3333333333333333'],
    });
    expect(json(api().query(params({ query: '"text"', time: '1700000000.5' })).data)).toEqual({
      resultType: 'string',
      result: [NOW / 1000 + 0.5, 'text'],
    });
  });

  it('answers a range query step by step', () => {
    const answer = api().queryRange(
      params({
        query: 'up{instance="b:9121"}',
        start: String((NOW - 60_000) / 1000),
        end: String(NOW / 1000),
        step: '30s',
      }),
    );
    expect(json(answer.data)).toEqual({
      resultType: 'matrix',
      result: [
        {
          metric: { __name__: 'up', instance: 'b:9121', job: 'redis' },
          values: [
            [(NOW - 60_000) / 1000, '0'],
            [(NOW - 30_000) / 1000, '0'],
            [NOW / 1000, '0'],
          ],
        },
      ],
    });
  });

  it.each<[string, string, string[]]>([
    // Where in the query each comes from, as Prometheus writes it: `(line:column)`.
    [
      'quantile(2, up)',
      'warnings',
      ['PromQL warning: quantile value should be between 0 and 1, got 2 (1:10)'],
    ],
    [
      'histogram_quantile(0.9,\n  up)',
      'warnings',
      ['PromQL warning: bucket label "le" is missing or has a malformed value of "" (2:3)'],
    ],
    [
      'rate(up[5m])',
      'infos',
      [
        'PromQL info: metric might not be a counter, name does not end in _total/_sum/_count/_bucket: "up" (1:6)',
      ],
    ],
  ])('answers %s with its %s at their place in the query', (query, kind, expected) => {
    const at = String(NOW / 1000);
    const instant = api().query(params({ query, time: at }));
    const range = api().queryRange(params({ query, start: at, end: at, step: '15' }));
    expect(kind === 'warnings' ? instant.warnings : instant.infos).toEqual(expected);
    expect(kind === 'warnings' ? range.warnings : range.infos).toEqual(expected);
  });

  it('lists series, label names and label values of the selected series', () => {
    expect(
      api().series(params({ 'match[]': ['up{instance="a:9121"}', 'http_requests_total'] })).data,
    ).toEqual([
      { __name__: 'http_requests_total', job: 'api' },
      { __name__: 'up', instance: 'a:9121', job: 'redis' },
    ]);
    expect(api().labelNames(params({})).data).toEqual(['__name__', 'instance', 'job']);
    expect(api().labelNames(params({ 'match[]': 'http_requests_total' })).data).toEqual([
      '__name__',
      'job',
    ]);
    expect(api().labelValues('job', params({})).data).toEqual(['api', 'redis']);
    expect(api().labelValues('__name__', params({})).data).toEqual(['http_requests_total', 'up']);
    // Nothing in the range: nothing listed.
    expect(api().labelValues('job', params({ start: '0', end: '1' })).data).toEqual([]);
  });

  it.each([
    [
      'a parse error',
      () => api().query(params({ query: 'up{' })),
      'bad_data',
      'invalid parameter "query": 1:4: parse error: unexpected end of input inside braces',
    ],
    [
      'a bad time',
      () => api().query(params({ query: 'up', time: 'yesterday' })),
      'bad_data',
      'invalid parameter "time": cannot parse "yesterday" to a valid timestamp',
    ],
    [
      'a bad timeout',
      () => api().query(params({ query: 'up', timeout: 'soon' })),
      'bad_data',
      'invalid parameter "timeout": cannot parse "soon" to a valid duration',
    ],
    [
      'an end before the start',
      () => api().queryRange(params({ query: 'up', start: '10', end: '5', step: '1' })),
      'bad_data',
      'invalid parameter "end": end timestamp must not be before start time',
    ],
    [
      'a zero step',
      () => api().queryRange(params({ query: 'up', start: '0', end: '5', step: '0' })),
      'bad_data',
      'invalid parameter "step": zero or negative query resolution step widths are not accepted. Try a positive integer',
    ],
    [
      'too many points',
      () => api().queryRange(params({ query: 'up', start: '0', end: '100000', step: '1' })),
      'bad_data',
      'exceeded maximum resolution of 11,000 points per timeseries. Try decreasing the query resolution (?step=XX)',
    ],
    [
      'a range query parse error',
      () => api().queryRange(params({ query: 'sum(', start: '0', end: '5', step: '1' })),
      'bad_data',
      '1:5: parse error: unclosed left parenthesis',
    ],
    ['no match[]', () => api().series(params({})), 'bad_data', 'no match[] parameter provided'],
    [
      'an empty matcher',
      () => api().series(params({ 'match[]': '{job=~".*"}' })),
      'bad_data',
      'invalid parameter "match[]": 1:1: parse error: vector selector must contain at least one non-empty matcher',
    ],
    [
      'a bad label name',
      () => api().labelValues('bad-name', params({})),
      'bad_data',
      'invalid label name: "bad-name"',
    ],
    [
      'an execution error',
      () => api().query(params({ query: 'up + on(job) group_left up' })),
      'execution',
      'found duplicate series for the match group {job="redis"} on the right hand-side of the operation: [{__name__="up", instance="a:9121", job="redis"}, {__name__="up", instance="b:9121", job="redis"}];many-to-many matching not allowed: matching labels must be unique on one side',
    ],
  ])('refuses %s as Prometheus does', (_case, run, errorType, message) => {
    expect(failure(run)).toEqual({ errorType, message });
  });
});
