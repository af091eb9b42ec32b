import { parseExpr, type Expr, type LabelMatcher } from '../promql';
import type { SeriesExemplars } from '../tsdb/exemplars';

/** What the `exemplars` template function reads: the server's exemplar store, or a test's. */
export interface RuleExemplarReader {
  /** The exemplars within `[startMs, endMs]` of the series any matcher set selects. */
  select(
    startMs: number,
    endMs: number,
    matcherSets: readonly (readonly LabelMatcher[])[],
  ): SeriesExemplars[];
}

/** How `--web.trace-url` marks where a trace id goes (spaces inside the braces optional). */
export const TRACE_ID_PLACEHOLDER = /\{\{\s*\.TraceID\s*\}\}/g;

/** The address of one trace: `--web.trace-url`'s template with `traceId` in place. */
export function traceLink(template: string, traceId: string): string {
  return template.replace(TRACE_ID_PLACEHOLDER, encodeURIComponent(traceId));
}

/** How far back `exemplars` looks when its selector gives no range: a usual `rate` window. */
export const EXEMPLARS_DEFAULT_RANGE_MS = 5 * 60_000;

/** An exemplar as a rule template sees it. */
export interface RuleTemplateExemplar {
  /** The labels of the series it was exposed on (`le` included, for a histogram bucket). */
  readonly seriesLabels: Readonly<Record<string, string>>;
  /** Its own labels: `trace_id`, `span_id`. */
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
  readonly timestampMs: number;
}

/**
 * The exemplars of the series `selector` picks, from `nowMs` back over the selector's range
 * (`metric{...}[10m]`) or {@link EXEMPLARS_DEFAULT_RANGE_MS} (`metric{...}`): highest value
 * first, newest first among equal values, so that `first` of a latency histogram's exemplars is
 * the slowest recent observation. Throws, with a message for the template's error, on anything
 * but a series selector.
 */
export function selectRuleExemplars(
  reader: RuleExemplarReader,
  selector: string,
  nowMs: number,
): RuleTemplateExemplar[] {
  const { matchers, rangeMs } = parseSelector(selector);
  const found: RuleTemplateExemplar[] = [];
  for (const series of reader.select(nowMs - rangeMs, nowMs, [matchers])) {
    const seriesLabels = series.seriesLabels.toRecord();
    for (const exemplar of series.exemplars) {
      found.push({
        seriesLabels,
        labels: exemplar.labels.toRecord(),
        value: exemplar.value,
        timestampMs: exemplar.timestampMs,
      });
    }
  }
  return found.sort((a, b) => b.value - a.value || b.timestampMs - a.timestampMs);
}

function parseSelector(selector: string): { matchers: readonly LabelMatcher[]; rangeMs: number } {
  let expr: Expr;
  try {
    expr = parseExpr(selector);
  } catch (error) {
    throw new Error(`exemplars: ${(error as Error).message}`);
  }
  if (expr.kind === 'vectorSelector') {
    return { matchers: expr.matchers, rangeMs: EXEMPLARS_DEFAULT_RANGE_MS };
  }
  if (expr.kind === 'matrixSelector' && expr.rangeExpr === undefined) {
    return { matchers: expr.selector.matchers, rangeMs: expr.rangeMs };
  }
  throw new Error(
    `exemplars: ${JSON.stringify(selector)} is not a series selector such as metric{label="value"} or metric{label="value"}[10m]`,
  );
}
