import { Labels } from '../../tsdb/labels';
import { formatFloat } from '../../template/funcs/go-float';
import { formatSampleValue, queryData } from './query-result-json';

/** The answer as an object tree, as `JSON.stringify` would be given it. */
function asObjects(values: [number, number][]) {
  return values.map(([t, f]) => [t / 1000, formatFloat(f, 'f', -1)]);
}

const metric = Labels.fromRecord({ __name__: 'up', job: 'a "quoted" \\ job\n', instance: 'é:1' });

describe('query answers written out as JSON', () => {
  it.each([
    { name: 'no series', series: [] as [number, number][][] },
    {
      name: 'values of every kind',
      series: [
        [
          [1_700_000_000_000, 1],
          [1_700_000_015_123, -0],
          [1_700_000_030_000, NaN],
          [1_700_000_045_000, Infinity],
          [1_700_000_060_000, -Infinity],
          [1_700_000_075_000, 1e21],
          [1_700_000_090_000, 1.5e-7],
          [1_700_000_105_000, 0.1 + 0.2],
        ] as [number, number][],
        [[1, 42]] as [number, number][],
      ],
    },
  ])('a matrix with $name is what JSON.stringify writes', ({ series }) => {
    const result = {
      type: 'matrix' as const,
      series: series.map((points) => ({
        metric,
        t: points.map(([t]) => t),
        f: points.map(([, f]) => f),
      })),
      warnings: [],
      infos: [],
    };
    const expected = {
      resultType: 'matrix',
      result: series.map((points) => ({ metric: metric.toRecord(), values: asObjects(points) })),
    };
    expect(queryData(result).text).toBe(JSON.stringify(expected));
  });

  it('writes vectors, scalars and strings as JSON.stringify does', () => {
    const vector = queryData({
      type: 'vector',
      samples: [{ metric, t: 1_700_000_000_500, f: 0.25 }],
      warnings: [],
      infos: [],
    });
    expect(vector.text).toBe(
      JSON.stringify({
        resultType: 'vector',
        result: [{ metric: metric.toRecord(), value: [1_700_000_000.5, '0.25'] }],
      }),
    );
    const scalar = queryData({ type: 'scalar', t: 5_000, f: -2, warnings: [], infos: [] });
    expect(scalar.text).toBe(JSON.stringify({ resultType: 'scalar', result: [5, '-2'] }));
    const text = queryData({ type: 'string', t: 5_000, value: 'a"b', warnings: [], infos: [] });
    expect(text.text).toBe(JSON.stringify({ resultType: 'string', result: [5, 'a"b'] }));
  });

  it('formats sample values as Go formats them, over many magnitudes', () => {
    let state = 12_345;
    const next = () => {
      state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
      return state / 2_147_483_648;
    };
    const values = [0, -0, 5e-324, 1e-7, 9.999999e-8, 1e20, 1e21, 123456789012345680000, -1.5];
    for (let i = 0; i < 5_000; i++) {
      const magnitude = 10 ** Math.floor(next() * 60 - 30);
      values.push((next() - 0.5) * magnitude, Math.round(next() * 1e6));
    }
    for (const v of values) {
      if (formatSampleValue(v) !== formatFloat(v, 'f', -1)) throw new Error(`differs at ${v}`);
    }
  });
});
