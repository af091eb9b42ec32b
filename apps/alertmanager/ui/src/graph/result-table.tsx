import type { QueryData } from '../api';
import { sampleLines, seriesName } from './series';

/** More rows than a browser lays out quickly; the rest are counted, not shown. */
const MAX_ROWS = 10_000;

/**
 * An instant query's answer as a table: one row per series (its labels, its value), or the
 * scalar or string. A range vector (from a `[5m]` selector) shows each sample as `value @time`.
 */
export function ResultTable({ data }: { data: QueryData | undefined }) {
  if (data === undefined) return <p class="muted">No data queried yet</p>;
  let rows: [string, string][];
  switch (data.resultType) {
    case 'vector':
      rows = data.result.map((s) => [seriesName(s.metric), s.value[1]]);
      break;
    case 'matrix':
      rows = data.result.map((s) => [seriesName(s.metric), sampleLines(s.values)]);
      break;
    case 'scalar':
      rows = [['scalar', data.result[1]]];
      break;
    case 'string':
      rows = [['string', data.result[1]]];
      break;
  }
  if (rows.length === 0) return <p class="muted">Empty query result</p>;
  const shown = rows.slice(0, MAX_ROWS);
  return (
    <>
      {rows.length > MAX_ROWS && (
        <p class="muted">
          Showing {MAX_ROWS} of {rows.length} series; narrow the query to see the rest.
        </p>
      )}
      <table class="result-table">
        <thead>
          <tr>
            <th scope="col">Series</th>
            <th scope="col">Value</th>
          </tr>
        </thead>
        <tbody>
          {shown.map(([name, value], i) => (
            <tr key={i}>
              <td class="mono">{name}</td>
              <td class="mono value">{value}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
