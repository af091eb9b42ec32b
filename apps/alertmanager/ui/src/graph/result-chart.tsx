import { render } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import type { QueryData } from '../api';
import type { SeriesExemplars } from '../exemplar-traces';
import { chartColumns, type QueryWindow } from './chart-data';
import { ExemplarMarkers, type PlacedExemplar } from './exemplar-markers';
import { exemplarExtent, exemplarPoints } from './exemplar-points';
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
 * labels and showing the values under the cursor, and the range's exemplars as points when they
 * were asked for. Only a matrix can be drawn; anything else is said instead, as Prometheus says it.
 */
export function ResultChart(props: {
  data: QueryData | undefined;
  window: QueryWindow | undefined;
  stacked: boolean;
  exemplars?: SeriesExemplars[];
  /** `--web.trace-url`, which makes an exemplar with a `trace_id` a link to its trace. */
  traceTemplate?: string;
}) {
  const { data, window, stacked, exemplars, traceTemplate } = props;
  if (data === undefined || window === undefined) return <p class="muted">No data queried yet</p>;
  if (data.resultType !== 'matrix') {
    return (
      <p class="muted">
        Query result is of wrong type '{data.resultType}', should be 'matrix' (range vector).
      </p>
    );
  }
  if (data.result.length === 0) return <p class="muted">Empty query result</p>;
  return (
    <Chart
      series={data.result}
      window={window}
      stacked={stacked}
      exemplars={exemplars}
      traceTemplate={traceTemplate}
    />
  );
}

function Chart(props: {
  series: Extract<QueryData, { resultType: 'matrix' }>['result'];
  window: QueryWindow;
  stacked: boolean;
  exemplars: SeriesExemplars[] | undefined;
  traceTemplate: string | undefined;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const { times, drawn, values } = chartColumns(props.series, props.window, props.stacked);
    const points = exemplarPoints(
      props.exemplars ?? [],
      props.series.map((s) => s.metric),
      props.window,
    );
    const extent = exemplarExtent(points);
    // The markers are laid over the plot after every draw (a resize moves them all).
    const layer = document.createElement('div');
    layer.className = 'exemplar-layer';
    const place = (u: uPlot) => {
      const width = u.over.clientWidth;
      const height = u.over.clientHeight;
      const placed: PlacedExemplar[] = points
        .map((point) => ({
          point,
          x: u.valToPos(point.time, 'x'),
          y: u.valToPos(point.value, 'y'),
          color: point.line === undefined ? undefined : COLORS[point.line % COLORS.length],
        }))
        .filter(({ x, y }) => x >= 0 && x <= width && y >= 0 && y <= height);
      if (layer.parentNode !== u.over) u.over.appendChild(layer);
      render(
        <ExemplarMarkers placed={placed} width={width} template={props.traceTemplate} />,
        layer,
      );
    };
    const style = getComputedStyle(document.documentElement);
    const muted = style.getPropertyValue('--muted').trim() || '#666';
    const border = style.getPropertyValue('--border').trim() || '#ddd';
    const axis = { stroke: muted, grid: { stroke: border, width: 1 }, ticks: { stroke: border } };
    const plot = new uPlot(
      {
        width: element.clientWidth || 800,
        height: HEIGHT,
        scales: {
          x: { time: true, range: [props.window.start, props.window.end] },
          // The value axis reaches every exemplar, or some would be drawn off the chart.
          ...(extent && {
            y: {
              range: (_u: uPlot, min: number, max: number) =>
                uPlot.rangeNum(
                  Number.isFinite(min) ? Math.min(min, extent[0]) : extent[0],
                  Number.isFinite(max) ? Math.max(max, extent[1]) : extent[1],
                  0.1,
                  true,
                ),
            },
          }),
        },
        axes: [axis, { ...axis, size: 70 }],
        legend: { live: true },
        cursor: { focus: { prox: 16 } },
        hooks: points.length > 0 ? { draw: [place] } : {},
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
      render(null, layer);
      plot.destroy();
    };
  }, [props.series, props.window, props.stacked, props.exemplars, props.traceTemplate]);
  return <div class="chart" ref={box} data-series-count={props.series.length} />;
}
