import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import type { QueryData } from '../api';
import { chartColumns, type QueryWindow } from './chart-data';
import { formatTime } from './panel-options';
import { seriesName } from './series';

/** Line colours, told apart in both themes; a series keeps its colour by its place. */
const COLORS = [
  '#3b82f6',
  '#e4572e',
  '#29a36a',
  '#b565d8',
  '#e0a100',
  '#17becf',
  '#d6457a',
  '#8c6d31',
  '#7f8c8d',
  '#5f7de8',
];
const HEIGHT = 320;

/**
 * A range query's answer as a line chart: one line per series, the legend naming each by its
 * labels and showing the values under the cursor. Only a matrix can be drawn; anything else is
 * said instead, as Prometheus says it.
 */
export function ResultChart(props: {
  data: QueryData | undefined;
  window: QueryWindow | undefined;
  stacked: boolean;
}) {
  const { data, window, stacked } = props;
  if (data === undefined || window === undefined) return <p class="muted">No data queried yet</p>;
  if (data.resultType !== 'matrix') {
    return (
      <p class="muted">
        Query result is of wrong type '{data.resultType}', should be 'matrix' (range vector).
      </p>
    );
  }
  if (data.result.length === 0) return <p class="muted">Empty query result</p>;
  return <Chart series={data.result} window={window} stacked={stacked} />;
}

function Chart(props: {
  series: Extract<QueryData, { resultType: 'matrix' }>['result'];
  window: QueryWindow;
  stacked: boolean;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const { times, drawn, values } = chartColumns(props.series, props.window, props.stacked);
    const style = getComputedStyle(document.documentElement);
    const muted = style.getPropertyValue('--muted').trim() || '#666';
    const border = style.getPropertyValue('--border').trim() || '#ddd';
    const axis = { stroke: muted, grid: { stroke: border, width: 1 }, ticks: { stroke: border } };
    const plot = new uPlot(
      {
        width: element.clientWidth || 800,
        height: HEIGHT,
        scales: { x: { time: true, range: [props.window.start, props.window.end] } },
        axes: [axis, { ...axis, size: 70 }],
        legend: { live: true },
        cursor: { focus: { prox: 16 } },
        series: [
          { label: 'Time', value: (_, t) => (t === null ? '' : formatTime(t * 1000)) },
          ...props.series.map((s, i) => {
            const color = COLORS[i % COLORS.length];
            return {
              label: seriesName(s.metric),
              stroke: color,
              width: 1.5,
              fill: props.stacked ? `${color}33` : undefined,
              points: { show: false },
              // The legend shows the sample, not the running sum a stacked line is drawn at.
              value: (_: uPlot, v: number | null, _s: number, idx: number | null) => {
                const sample = idx === null ? v : values[i][idx];
                return sample === null || sample === undefined ? '' : String(sample);
              },
            };
          }),
        ],
      },
      [times, ...drawn],
      element,
    );
    const resize = new ResizeObserver(() => {
      if (element.clientWidth > 0) plot.setSize({ width: element.clientWidth, height: HEIGHT });
    });
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [props.series, props.window, props.stacked]);
  return <div class="chart" ref={box} data-series-count={props.series.length} />;
}
