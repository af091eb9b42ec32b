import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { Labels } from '../../tsdb/labels';
import { MemoryStore } from '../../tsdb/memory-store';
import { PromqlParseError } from '../parser/parse-error';
import { PromqlEngine } from './engine';
import { PromqlEvalError, QueryTimeoutError, TooManySamplesError } from './errors';

const MINUTE = 60_000;

/** A store with `count` series of `up` and a request counter, sampled every 15 s for `minutes`. */
function store(count: number, minutes: number): MemoryStore {
  const s = new MemoryStore();
  for (let i = 0; i < count; i++) {
    const up = Labels.fromRecord({ __name__: 'up', job: 'redis', instance: `r${i}` });
    const requests = Labels.fromRecord({
      __name__: 'http_requests_total',
      instance: `r${i}`,
      status: i % 4 === 0 ? '500' : '200',
    });
    for (let t = 0; t <= minutes * MINUTE; t += 15_000) {
      s.append(up, t, i === 0 && t > 10 * MINUTE ? 0 : 1);
      s.append(requests, t, (t / 1000) * (i + 1));
    }
  }
  return s;
}

describe('PromqlEngine', () => {
  const engine = new PromqlEngine(store(8, 30));

  it('answers an instant vector query', () => {
    const result = engine.instantQuery('up{job="redis"} == 0', 20 * MINUTE);
    if (result.type !== 'vector') throw new Error(result.type);
    expect(result.samples.map((s) => [s.metric.toString(), s.t, s.f])).toEqual([
      ['{__name__="up", instance="r0", job="redis"}', 20 * MINUTE, 0],
    ]);
  });

  it('answers a scalar and a string', () => {
    expect(engine.instantQuery('1 + 2', 0)).toEqual({
      type: 'scalar',
      t: 0,
      f: 3,
      warnings: [],
      infos: [],
    });
    expect(engine.instantQuery('"x"', 5)).toEqual({
      type: 'string',
      t: 5,
      value: 'x',
      warnings: [],
      infos: [],
    });
  });

  it("answers with upstream's warnings and infos, positioned in the query", () => {
    const result = engine.instantQuery('sum(rate(up[5m])) + quantile(1.5, up)', 20 * MINUTE);
    expect(result.infos).toEqual([
      'PromQL info: metric might not be a counter, name does not end in _total/_sum/_count/_bucket: "up" (1:10)',
    ]);
    expect(result.warnings).toEqual([
      'PromQL warning: quantile value should be between 0 and 1, got 1.5 (1:30)',
    ]);
    const ranged = engine.rangeQuery('sort(up)', 0, MINUTE, 15_000);
    expect(ranged.warnings).toEqual([
      'PromQL warning: sort is ineffective for range queries since results are always ordered by labels (1:1)',
    ]);
  });

  it('answers a range query with one series per label set, sorted, without __name__ after rate', () => {
    const result = engine.rangeQuery(
      'sum by (status) (rate(http_requests_total[5m]))',
      10 * MINUTE,
      12 * MINUTE,
      MINUTE,
    );
    if (result.type !== 'matrix') throw new Error(result.type);
    expect(result.series.map((s) => s.metric.toString())).toEqual([
      '{status="200"}',
      '{status="500"}',
    ]);
    // Instances 1,2,3,5,6,7 grow by 2..8 per second, 0 and 4 by 1 and 5.
    expect(result.series[0].f).toEqual([30, 30, 30].map((v) => expect.closeTo(v, 6)));
    expect(result.series[1].t).toEqual([10 * MINUTE, 11 * MINUTE, 12 * MINUTE]);
  });

  it('refuses a range query of a range vector with upstream message', () => {
    expect(() => engine.rangeQuery('up[5m]', 0, MINUTE, 15_000)).toThrow(
      new PromqlEvalError(
        'invalid expression type "range vector" for range query, must be Scalar or instant Vector',
      ),
    );
  });

  it('throws parse errors with their position', () => {
    expect(() => engine.instantQuery('sum(up', 0)).toThrow(PromqlParseError);
  });

  it('stops a query that would hold more samples than allowed', () => {
    const limited = new PromqlEngine(store(8, 30), { maxSamples: 100 });
    expect(() => limited.instantQuery('rate(http_requests_total[30m])', 30 * MINUTE)).toThrow(
      new TooManySamplesError('query execution'),
    );
    expect(limited.instantQuery('sum(rate(http_requests_total[1m]))', 30 * MINUTE).type).toBe(
      'vector',
    );
  });

  it('stops a query that runs past its timeout', () => {
    const hurried = new PromqlEngine(store(8, 30), { timeoutMs: -1 });
    expect(() => hurried.instantQuery('up', 0)).toThrow(
      new QueryTimeoutError('expression evaluation'),
    );
    expect(new QueryTimeoutError('expression evaluation').message).toBe(
      'query timed out in expression evaluation',
    );
  });

  it('evaluates every expression of the bundled rules', () => {
    const file = join(__dirname, '..', '..', '..', 'config', 'rules', 'redisx.rules.yml');
    const groups = (
      parse(readFileSync(file, 'utf8')) as { groups: { rules: { expr: string }[] }[] }
    ).groups;
    const expressions = groups.flatMap((g) => g.rules.map((r) => r.expr));
    expect(expressions).toHaveLength(17);
    for (const expr of expressions)
      expect(engine.instantQuery(expr, 30 * MINUTE).type).toBe('vector');
  });
});
