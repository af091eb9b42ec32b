import type { QueryResult } from '../../promql';
import { formatFloat } from '../../template/funcs/go-float';
import type { Labels } from '../../tsdb/labels';

/** A sample value as Prometheus's JSON writes it: Go's shortest `%f` form, `NaN`, `+Inf`. */
export function formatSampleValue(v: number): string {
  return formatFloat(v, 'f', -1);
}

/** A timestamp as Prometheus's JSON writes it: seconds, with up to millisecond digits. */
function seconds(ms: number): number {
  return ms / 1000;
}

function metric(labels: Labels): Record<string, string> {
  return labels.toRecord();
}

/** The `data` of a query answer: `resultType` and `result` in Prometheus's shapes. */
export function queryData(result: QueryResult): { resultType: string; result: unknown } {
  switch (result.type) {
    case 'vector':
      return {
        resultType: 'vector',
        result: result.samples.map((s) => ({
          metric: metric(s.metric),
          value: [seconds(s.t), formatSampleValue(s.f)],
        })),
      };
    case 'matrix':
      return {
        resultType: 'matrix',
        result: result.series.map((s) => ({
          metric: metric(s.metric),
          values: s.t.map((t, i) => [seconds(t), formatSampleValue(s.f[i])]),
        })),
      };
    case 'scalar':
      return { resultType: 'scalar', result: [seconds(result.t), formatSampleValue(result.f)] };
    case 'string':
      return { resultType: 'string', result: [seconds(result.t), result.value] };
  }
}
