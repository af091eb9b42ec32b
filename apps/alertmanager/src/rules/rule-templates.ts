import { templateSyntaxProblem } from '../template';

/** The functions Prometheus's rule templates may call (its template package's FuncMap). */
export const PROMETHEUS_TEMPLATE_FUNCTIONS: ReadonlySet<string> = new Set([
  'query',
  'first',
  'label',
  'value',
  'strvalue',
  'args',
  'reReplaceAll',
  'safeHtml',
  'match',
  'title',
  'toUpper',
  'toLower',
  'graphLink',
  'tableLink',
  'sortByLabel',
  'humanize',
  'humanize1024',
  'humanizeDuration',
  'humanizePercentage',
  'humanizeTimestamp',
  'toTime',
  'toDuration',
  'now',
  'pathPrefix',
  'externalURL',
  'parseDuration',
]);

/** The variables Prometheus defines before a rule's label or annotation template. */
const PREAMBLE =
  '{{$labels := .Labels}}{{$externalLabels := .ExternalLabels}}{{$externalURL := .ExternalURL}}{{$value := .Value}}';

/**
 * Why a rule's label or annotation template does not parse, as promtool reports it
 * (`template: __alert_Name:1: unclosed action`), or undefined.
 */
export function templateParseProblem(name: string, text: string): string | undefined {
  const problem = templateSyntaxProblem(name, PREAMBLE + text, PROMETHEUS_TEMPLATE_FUNCTIONS);
  // Prometheus's Go reports a parse error's line without its column.
  return problem?.replace(/^(template: [^:]*:\d+):\d+:/, '$1:');
}
