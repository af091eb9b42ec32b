import {
  NativeHistogramValueError,
  parseSeriesDescription,
  type SequenceValue,
} from './series-description';

const v = (value: number): SequenceValue => ({ kind: 'value', value });
const omitted: SequenceValue = { kind: 'omitted' };
const stale: SequenceValue = { kind: 'stale' };

describe('parseSeriesDescription', () => {
  it.each([
    ['up 1 2 3', '{__name__="up"}', [v(1), v(2), v(3)]],
    [
      'up{job="a", instance="b"} 0+10x3',
      '{__name__="up", instance="b", job="a"}',
      [v(0), v(10), v(20), v(30)],
    ],
    ['x 10-2x2', '{__name__="x"}', [v(10), v(8), v(6)]],
    ['x -1+1x2', '{__name__="x"}', [v(-1), v(0), v(1)]],
    ['x 5x2', '{__name__="x"}', [v(5), v(5), v(5)]],
    ['x _ _x2 stale 1', '{__name__="x"}', [omitted, omitted, omitted, stale, v(1)]],
    ['x 1e3 Inf -Inf', '{__name__="x"}', [v(1000), v(Infinity), v(-Infinity)]],
    [
      '{"metric.name", a="b, c"} 1',
      '{"__name__"="metric.name", a="b, c"}'.replace('"__name__"', '__name__'),
      [v(1)],
    ],
    ['x{a="\\"q\\""} 1', '{__name__="x", a="\\"q\\""}', [v(1)]],
  ])('%s', (line, labels, values) => {
    const parsed = parseSeriesDescription(line);
    expect(parsed.labels.toString()).toBe(labels);
    expect(parsed.values).toEqual(values);
  });

  it('keeps NaN apart from a staleness marker', () => {
    const [nan, marker] = parseSeriesDescription('x NaN stale').values;
    expect(nan.kind === 'value' && Number.isNaN(nan.value)).toBe(true);
    expect(marker).toEqual(stale);
  });

  it('refuses native histogram values with a reason of their own', () => {
    expect(() => parseSeriesDescription('x {{count:1}}')).toThrow(NativeHistogramValueError);
  });

  it('refuses what is not a value', () => {
    expect(() => parseSeriesDescription('x 1 two')).toThrow('unexpected "two" in series values');
  });
});
