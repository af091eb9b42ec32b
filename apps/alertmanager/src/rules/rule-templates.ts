import {
  GoFloat,
  GoMap,
  prometheusFuncs,
  TemplateSet,
  templateSyntaxProblem,
  type PrometheusTemplateContext,
} from '../template';
import { GoStruct } from '../template/exec/values';

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
  'stripPort',
  'stripDomain',
  'urlQueryEscape',
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

/** What a rule's templates see: the sample's labels and value, and the server's. */
export interface RuleTemplateData {
  readonly labels: Readonly<Record<string, string>>;
  readonly externalLabels: Readonly<Record<string, string>>;
  readonly externalUrl: string;
  readonly value: number;
}

const stringMap = (record: Readonly<Record<string, string>>) =>
  new GoMap(new Map(Object.entries(record)), 'map[string]string', {}, '');

/**
 * Expands a rule's label or annotation template as Prometheus does (`$labels`, `$value`,
 * `$externalLabels`, `$externalURL`, `.Labels`, `.Value`, its functions); a template that fails
 * gives `<error expanding template: ...>` instead of failing the rule.
 */
export function expandRuleTemplate(
  alertName: string,
  text: string,
  data: RuleTemplateData,
  context: PrometheusTemplateContext,
): string {
  const name = `__alert_${alertName}`;
  let set: TemplateSet;
  try {
    set = TemplateSet.empty().with(name, PREAMBLE + text, PROMETHEUS_TEMPLATE_FUNCTIONS);
  } catch (error) {
    return `<error expanding template: error parsing template ${name}: ${(error as Error).message}>`;
  }
  const dot = new GoStruct('template.tmplData', {
    Labels: stringMap(data.labels),
    ExternalLabels: stringMap(data.externalLabels),
    ExternalURL: data.externalUrl,
    Value: new GoFloat(data.value),
  });
  try {
    return set.execute(name, dot, { now: context.now, functions: prometheusFuncs(context) });
  } catch (error) {
    return `<error expanding template: error executing template ${name}: ${(error as Error).message}>`;
  }
}
