// Exemplar markers over the chart. The chart is a canvas, so each marker is an element of its
// own laid over it: it can be hovered and focused to show what the exemplar holds, and with
// `--web.trace-url` it is a real link to the exemplar's trace.
import type { JSX } from 'preact';
import { traceUrl } from '../exemplar-traces';
import type { ExemplarPoint } from './exemplar-points';
import { formatTime } from './panel-options';
import { seriesName } from './series';

/** An exemplar and where it sits over the plotting area, in CSS pixels from its top left. */
export interface PlacedExemplar {
  point: ExemplarPoint;
  x: number;
  y: number;
  /** Its line's colour; undefined draws it neutral. */
  color: string | undefined;
}

/**
 * The markers of the exemplars in view, each a diamond with its details in a box shown on hover
 * and focus; the box opens towards the middle of the plot so that it stays on the page.
 */
export function ExemplarMarkers(props: {
  placed: PlacedExemplar[];
  width: number;
  template: string | undefined;
}) {
  return (
    <>
      {props.placed.map(({ point, x, y, color }, i) => {
        const href = traceUrl(props.template, point.traceId);
        const common = {
          class: `exemplar${color ? '' : ' neutral'}${x > props.width / 2 ? ' tip-left' : ''}`,
          style: { left: `${x}px`, top: `${y}px`, ...(color ? { color } : {}) },
          'aria-label': `exemplar ${point.traceId ? `trace ${point.traceId}` : 'without trace'}, value ${point.valueText}`,
          // The chart would start a zoom selection on the press and swallow the click.
          onMouseDown: (event: JSX.TargetedMouseEvent<HTMLElement>) => event.stopPropagation(),
        };
        return href ? (
          <a {...common} href={href} target="_blank" rel="noopener noreferrer" key={i}>
            <ExemplarTip point={point} linked />
          </a>
        ) : (
          <span {...common} tabIndex={0} role="img" key={i}>
            <ExemplarTip point={point} linked={false} />
          </span>
        );
      })}
    </>
  );
}

/** What a Prometheus user reads off an exemplar: its series, its labels, its value and time. */
function ExemplarTip({ point, linked }: { point: ExemplarPoint; linked: boolean }) {
  return (
    <span class="exemplar-tip" role="tooltip">
      <span class="exemplar-series mono">{seriesName(point.seriesLabels)}</span>
      {Object.entries(point.labels).map(([name, value]) => (
        <span class="exemplar-label mono" key={name}>
          {name}={JSON.stringify(value)}
        </span>
      ))}
      <span>Value: {point.valueText}</span>
      <span>Time: {formatTime(point.time * 1000)} UTC</span>
      {linked && <span class="exemplar-open">Open the trace ↗</span>}
    </span>
  );
}
