// From a rule alert to the traces behind it: the exemplars of its expression (named by its
// `generatorURL`) that agree with its labels, each a link through `--web.trace-url`.
import { useMemo } from 'preact/hooks';
import { api, type AlertGroup, type GettableAlert } from '../api';
import {
  alertTraces,
  generatorExpression,
  traceUrl,
  type SeriesExemplars,
} from '../exemplar-traces';
import { formatTime } from '../format';
import { useLive } from '../live';
import { useTraceUrlTemplate } from '../trace-url-flag';

/** The slowest few: enough to compare, few enough to read beside the alert. */
const TRACES_PER_ALERT = 3;
/**
 * Expressions asked about at once. Alerts of one rule share one request, so this is a count of
 * rules on the page, and a page of hundreds still costs this many requests.
 */
const MAX_EXPRESSIONS = 20;
/** How far back exemplars are looked for: the cause often precedes the alert by its `for`. */
const LOOKBACK_SECONDS = 3600;
/** Exemplars arrive with scrapes; the alerts' own 5 s refresh would only repeat the answers. */
const REFRESH_MS = 30_000;

/** What the alerts' trace links are made from: the template and each expression's exemplars. */
export interface AlertTraceSource {
  template: string | undefined;
  exemplars: ReadonlyMap<string, SeriesExemplars[]>;
}

const NONE: ReadonlyMap<string, SeriesExemplars[]> = new Map();

/**
 * The exemplars of the listed rule alerts' expressions over the last hour, one request per
 * expression (a failed one counts as none). Without `--web.trace-url` there would be no link to
 * make, so nothing is asked at all.
 */
export function useAlertTraceSource(groups: AlertGroup[] | undefined): AlertTraceSource {
  const template = useTraceUrlTemplate();
  const expressions = useMemo(() => {
    const all = (groups ?? []).flatMap((g) =>
      g.alerts.map((a) => generatorExpression(a.generatorURL)),
    );
    return [...new Set(all.filter((e): e is string => e !== undefined))]
      .sort()
      .slice(0, MAX_EXPRESSIONS);
  }, [groups]);
  const key = expressions.join('\n');
  const found = useLive(
    async () => {
      if (!template || expressions.length === 0) return NONE;
      const end = Date.now() / 1000;
      const answers = await Promise.all(
        expressions.map((expr) =>
          api.queryExemplars(expr, end - LOOKBACK_SECONDS, end).then(
            (series): [string, SeriesExemplars[]] => [expr, series],
            (): [string, SeriesExemplars[]] => [expr, []],
          ),
        ),
      );
      return new Map(answers);
    },
    [key, template],
    REFRESH_MS,
  );
  return { template, exemplars: found.data ?? NONE };
}

/** An alert's links to the traces of its slowest exemplars, or nothing when it has none. */
export function AlertTraceLinks({
  alert,
  source,
}: {
  alert: GettableAlert;
  source: AlertTraceSource;
}) {
  const expr = generatorExpression(alert.generatorURL);
  const found = expr === undefined ? undefined : source.exemplars.get(expr);
  if (!source.template || !found) return null;
  const traces = alertTraces(alert.labels, found, TRACES_PER_ALERT);
  if (traces.length === 0) return null;
  return (
    <span class="alert-traces" role="group" aria-label="traces">
      {traces.map((trace) => (
        <a
          class="trace-link mono"
          href={traceUrl(source.template, trace.traceId)}
          target="_blank"
          rel="noopener noreferrer"
          title={`trace ${trace.traceId}: ${trace.value} at ${formatTime(trace.timestamp * 1000)}`}
          key={trace.traceId}
        >
          trace {trace.traceId.slice(0, 8)}
        </a>
      ))}
    </span>
  );
}
