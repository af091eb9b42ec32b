import {
  GoFloat,
  GoMap,
  prometheusFuncs,
  TemplateSet,
  templateSyntaxProblem,
  type PrometheusTemplateContext,
} from '../template';
import { FuncError, fn, type TemplateFunc } from '../template/exec/template-func';
import { GoList, GoStruct } from '../template/exec/values';
import { traceLink, type RuleTemplateExemplar } from './rule-exemplars';

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

/**
 * The functions this server's rule templates may call: Prometheus's, and `exemplars` (a rule
 * that calls it does not load in Prometheus).
 */
export const RULE_TEMPLATE_FUNCTIONS: ReadonlySet<string> = new Set([
  ...PROMETHEUS_TEMPLATE_FUNCTIONS,
  'exemplars',
]);

/** The variables Prometheus defines before a rule's label or annotation template. */
const PREAMBLE =
  '{{$labels := .Labels}}{{$externalLabels := .ExternalLabels}}{{$externalURL := .ExternalURL}}{{$value := .Value}}';

/**
 * Why a rule's label or annotation template does not parse, as promtool reports it
 * (`template: __alert_Name:1: unclosed action`), or undefined.
 */
export function templateParseProblem(name: string, text: string): string | undefined {
  const problem = templateSyntaxProblem(name, PREAMBLE + text, RULE_TEMPLATE_FUNCTIONS);
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

/** What the functions of a rule's templates need: Prometheus's, and the exemplar store's reader. */
export interface RuleTemplateContext extends PrometheusTemplateContext {
  /**
   * The exemplars of a series selector at the evaluation time (`rule-exemplars.ts`); absent where
   * there is no exemplar store (rule unit tests), where `exemplars` gives an empty list.
   */
  readonly exemplars?: (selector: string) => RuleTemplateExemplar[];
  /** `--web.trace-url`, for an exemplar's `.TraceURL`; none: `.TraceURL` is empty. */
  readonly traceUrl?: string;
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
  context: RuleTemplateContext,
): string {
  const name = `__alert_${alertName}`;
  let set: TemplateSet;
  try {
    set = TemplateSet.empty().with(name, PREAMBLE + text, RULE_TEMPLATE_FUNCTIONS);
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
    const functions = { ...prometheusFuncs(context), exemplars: exemplarsFunc(context) };
    return set.execute(name, dot, { now: context.now, functions });
  } catch (error) {
    return `<error expanding template: error executing template ${name}: ${(error as Error).message}>`;
  }
}

/**
 * `exemplars "<selector>"`: the exemplars of the selected series over the selector's range (5m
 * without one), highest value first; each has `.Labels` (`trace_id`, `span_id`), `.Value`,
 * `.Timestamp` (seconds, for `humanizeTimestamp`), `.SeriesLabels`, and `.TraceURL` (the trace's
 * address from `--web.trace-url`, empty without the flag or a `trace_id`).
 */
function exemplarsFunc(context: RuleTemplateContext): TemplateFunc {
  return fn(['string'], ([selector]) => {
    let found: RuleTemplateExemplar[];
    try {
      found = context.exemplars?.(selector as string) ?? [];
    } catch (error) {
      throw new FuncError((error as Error).message);
    }
    const { traceUrl } = context;
    return new GoList(
      found.map((exemplar) => exemplarValue(exemplar, traceUrl)),
      'template.exemplars',
    );
  });
}

function exemplarValue(exemplar: RuleTemplateExemplar, traceUrl: string | undefined): GoStruct {
  const traceId = exemplar.labels['trace_id'];
  return new GoStruct('*template.exemplar', {
    TraceURL: traceUrl && traceId ? traceLink(traceUrl, traceId) : '',
    Labels: stringMap(exemplar.labels),
    SeriesLabels: stringMap(exemplar.seriesLabels),
    Value: new GoFloat(exemplar.value),
    Timestamp: new GoFloat(exemplar.timestampMs / 1000),
  });
}
