import type { QueryResult } from '../../promql';
import { formatFloat } from '../../template/funcs/go-float';
import type { Labels } from '../../tsdb/labels';
import { JsonText } from './prometheus-reply';

/** A sample value as Prometheus's JSON writes it: Go's shortest `%f` form, `NaN`, `+Inf`. */
export function formatSampleValue(v: number): string {
  // JavaScript's shortest text of a finite number is Go's whenever it has no exponent (and is
  // not -0, which JavaScript writes as 0): the same shortest digits that read back as the same
  // number, in plain decimal form.
  if (Number.isFinite(v) && !Object.is(v, -0)) {
    const text = String(v);
    if (!text.includes('e')) return text;
  }
  return formatFloat(v, 'f', -1);
}

/** A timestamp as Prometheus's JSON writes it: seconds, with up to millisecond digits. */
function seconds(ms: number): number {
  return ms / 1000;
}

/** `[seconds,"value"]`, as `JSON.stringify` writes the pair. */
function pointJson(t: number, f: number): string {
  return `[${JSON.stringify(seconds(t))},"${formatSampleValue(f)}"]`;
}

function metricJson(labels: Labels): string {
  return JSON.stringify(labels.toRecord());
}

/**
 * The `data` of a query answer: `resultType` and `result` in Prometheus's shapes, written out as
 * `JSON.stringify` would write them (a range query's points are many: no object per point).
 */
export function queryData(result: QueryResult): JsonText {
  switch (result.type) {
    case 'vector': {
      const samples = result.samples.map(
        (s) => `{"metric":${metricJson(s.metric)},"value":${pointJson(s.t, s.f)}}`,
      );
      return new JsonText(`{"resultType":"vector","result":[${samples.join(',')}]}`);
    }
    case 'matrix': {
      const series = result.series.map((s) => {
        const values: string[] = new Array<string>(s.t.length);
        for (let i = 0; i < s.t.length; i++) values[i] = pointJson(s.t[i], s.f[i]);
        return `{"metric":${metricJson(s.metric)},"values":[${values.join(',')}]}`;
      });
      return new JsonText(`{"resultType":"matrix","result":[${series.join(',')}]}`);
    }
    case 'scalar':
      return new JsonText(`{"resultType":"scalar","result":${pointJson(result.t, result.f)}}`);
    case 'string': {
      const pair = JSON.stringify([seconds(result.t), result.value]);
      return new JsonText(`{"resultType":"string","result":${pair}}`);
    }
  }
}
