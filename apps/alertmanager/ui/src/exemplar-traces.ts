// Exemplars as the query API answers them, and the traces they lead to. The bundle reads only the
// server's API, never its code, so `--web.trace-url`'s substitution is repeated here as the
// server does it for rule templates.

/** Labels as the API writes them. */
type Labels = Record<string, string>;

/** One exemplar as `/api/v1/query_exemplars` answers it: the value as text, the time in seconds. */
export interface Exemplar {
  labels: Labels;
  value: string;
  timestamp: number;
}

/** The exemplars of one series, as `/api/v1/query_exemplars` groups them. */
export interface SeriesExemplars {
  seriesLabels: Labels;
  exemplars: Exemplar[];
}

/** Where `--web.trace-url` takes the trace id; spaces inside the braces are optional there too. */
const TRACE_ID_PLACEHOLDER = /\{\{\s*\.TraceID\s*\}\}/g;

/** The exemplar label naming a trace, as Prometheus's and OpenTelemetry's exporters name it. */
export const TRACE_ID_LABEL = 'trace_id';

/**
 * The address of a trace: the template of `--web.trace-url` with the id in place (escaped, so an
 * odd id cannot change the address's shape). Undefined when either is missing, so the caller
 * shows no link at all rather than a broken one.
 */
export function traceUrl(
  template: string | undefined,
  traceId: string | undefined,
): string | undefined {
  if (!template || !traceId) return undefined;
  return template.replace(TRACE_ID_PLACEHOLDER, encodeURIComponent(traceId));
}

/**
 * Whether two label sets could describe the same thing: equal on every name both have. The metric
 * name does not count, since an expression's result has lost it while its exemplars keep it.
 */
export function labelsAgree(a: Labels, b: Labels): boolean {
  return Object.keys(a).every((name) => name === '__name__' || !(name in b) || a[name] === b[name]);
}

/**
 * The expression of a rule alert: its `generatorURL`'s `g0.expr`, as Prometheus and this server
 * write it. Undefined for an alert posted without one, whose exemplars nothing can find.
 */
export function generatorExpression(generatorURL: string | undefined): string | undefined {
  if (!generatorURL) return undefined;
  try {
    const expr = new URL(generatorURL, 'http://localhost/').searchParams.get('g0.expr');
    return expr?.trim() ? expr : undefined;
  } catch {
    return undefined;
  }
}

/** A trace an alert links to, with what its exemplar measured. */
export interface AlertTrace {
  traceId: string;
  value: string;
  /** Seconds, as the API writes it. */
  timestamp: number;
}

/**
 * The traces behind an alert: the exemplars of its expression's series that agree with the
 * alert's labels (an alert of `sum by (le) (...)` agrees with all of them, one of
 * `queue_depth > 5` only with its own queue's), highest value first, since the slowest request
 * is the one worth opening (as the `exemplars` template function orders them), newest first
 * among equals, each trace once.
 */
export function alertTraces(
  alertLabels: Labels,
  found: readonly SeriesExemplars[],
  limit: number,
): AlertTrace[] {
  const candidates = found
    .filter((series) => labelsAgree(alertLabels, series.seriesLabels))
    .flatMap((series) => series.exemplars)
    .filter((e) => e.labels[TRACE_ID_LABEL])
    .map((e) => ({ traceId: e.labels[TRACE_ID_LABEL], value: e.value, timestamp: e.timestamp }))
    .sort((a, b) => ranked(b.value) - ranked(a.value) || b.timestamp - a.timestamp);
  const seen = new Set<string>();
  const traces: AlertTrace[] = [];
  for (const trace of candidates) {
    if (traces.length >= limit) break;
    if (seen.has(trace.traceId)) continue;
    seen.add(trace.traceId);
    traces.push(trace);
  }
  return traces;
}

/** A value for ordering: NaN after every number. */
function ranked(text: string): number {
  const value = Number(text);
  return Number.isNaN(value) ? -Infinity : value;
}
