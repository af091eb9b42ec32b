import { Registry } from 'prom-client';
import { Labels } from '../tsdb/labels';
import { CircularExemplarStore, ExemplarMetrics } from '../tsdb/exemplars';
import { selectRuleExemplars } from './rule-exemplars';
import { expandRuleTemplate, type RuleTemplateContext } from './rule-templates';

const NOW = 1_764_000_000_000;
const MINUTE = 60_000;

/** A store holding exemplars written `command/le:trace=value@minutes-before-now`. */
function storeOf(...written: string[]): CircularExemplarStore {
  const store = new CircularExemplarStore(100, new ExemplarMetrics(new Registry()));
  for (const text of written) {
    const m = /^(\w+)\/([\d.+Inf]+):(\w+)=([\d.]+)@(\d+)$/.exec(text);
    if (!m) throw new Error(`bad exemplar ${text}`);
    const [, command, le, trace, value, minutesAgo] = m;
    const series = Labels.fromRecord({
      __name__: 'app_command_duration_seconds_bucket',
      command,
      le,
    });
    const refused = store.add(series, {
      labels: Labels.fromRecord({ trace_id: trace, span_id: `s${trace}` }),
      value: Number(value),
      timestampMs: NOW - Number(minutesAgo) * MINUTE,
      hasTimestamp: true,
    });
    if (refused) throw new Error(`${text}: ${refused}`);
  }
  return store;
}

const store = storeOf(
  'GET/0.25:t1=0.2@9',
  'GET/0.25:t2=0.12@4',
  'GET/1:t3=0.6@3',
  'SET/0.1:t4=0.07@2',
  'SET/0.1:t5=0.07@1',
);
const traces = (selector: string) =>
  selectRuleExemplars(store, selector, NOW).map((e) => e.labels['trace_id']);

describe('selectRuleExemplars', () => {
  it.each([
    [
      'every series, the last 5 minutes, highest value first',
      'app_command_duration_seconds_bucket',
      ['t3', 't2', 't5', 't4'],
    ],
    ['a label matcher', 'app_command_duration_seconds_bucket{command="GET"}', ['t3', 't2']],
    ['a regular expression', '{__name__=~"app_.*", command=~"S.*"}', ['t5', 't4']],
    [
      'the range of a range selector',
      'app_command_duration_seconds_bucket{command="GET"}[10m]',
      ['t3', 't1', 't2'],
    ],
    ['a range that holds none', 'app_command_duration_seconds_bucket[30s]', []],
    ['a series that has none', 'app_command_duration_seconds_bucket{command="DEL"}', []],
  ])('%s: %s', (_case, selector, expected) => {
    expect(traces(selector)).toEqual(expected);
  });

  it('gives the series labels, the value and the time of each', () => {
    expect(selectRuleExemplars(store, 'app_command_duration_seconds_bucket{le="1"}', NOW)).toEqual([
      {
        seriesLabels: { __name__: 'app_command_duration_seconds_bucket', command: 'GET', le: '1' },
        labels: { span_id: 'st3', trace_id: 't3' },
        value: 0.6,
        timestampMs: NOW - 3 * MINUTE,
      },
    ]);
  });

  it.each([
    ['rate(app_command_duration_seconds_bucket[5m])', 'is not a series selector'],
    ['app_command_duration_seconds_bucket offset 5m > 1', 'is not a series selector'],
    ['app_command_duration_seconds_bucket{', 'exemplars: 1:'],
  ])('refuses %j', (selector, message) => {
    expect(() => selectRuleExemplars(store, selector, NOW)).toThrow(message);
  });
});

describe('the exemplars template function', () => {
  const context = {
    now: NOW,
    externalUrl: 'http://am.example:9093',
    query: () => [],
    exemplars: (selector: string) => selectRuleExemplars(store, selector, NOW),
  };
  const expand = (text: string, overrides: Partial<RuleTemplateContext> = {}) =>
    expandRuleTemplate(
      'HighRedisLatency',
      text,
      {
        labels: { command: 'GET' },
        externalLabels: {},
        externalUrl: context.externalUrl,
        value: 0.3,
      },
      { ...context, ...overrides },
    );
  const noStore = { exemplars: undefined };
  const jaeger = { traceUrl: 'http://127.0.0.1:16686/trace/{{ .TraceID }}' };
  const link =
    '{{ with exemplars "app_command_duration_seconds_bucket" }}{{ with first . }}[{{ .TraceURL }}]{{ end }}{{ end }}';
  const slowest =
    '{{ with exemplars "app_command_duration_seconds_bucket" }}{{ with first . }}trace {{ .Labels.trace_id }} took {{ humanizeDuration .Value }}{{ end }}{{ end }}';

  it.each<[string, string, Partial<RuleTemplateContext>, string]>([
    ['the slowest recent exemplar', slowest, {}, 'trace t3 took 600ms'],
    ['nothing without a store', slowest, noStore, ''],
    ['a link to its trace with --web.trace-url', link, jaeger, '[http://127.0.0.1:16686/trace/t3]'],
    ['no link without it', link, {}, '[]'],
    [
      "the alert's own labels in the selector",
      '{{ range exemplars (printf "app_command_duration_seconds_bucket{command=%q}" $labels.command) }}{{ .Labels.trace_id }} {{ end }}',
      {},
      't3 t2 ',
    ],
    [
      'the series labels and the time',
      '{{ with exemplars "app_command_duration_seconds_bucket{command=\\"SET\\"}" }}{{ with first . }}{{ .SeriesLabels.le }} {{ .Timestamp | humanizeTimestamp }}{{ end }}{{ end }}',
      {},
      '0.1 2025-11-24 15:59:00 +0000 UTC',
    ],
    ['how many', '{{ len (exemplars "app_command_duration_seconds_bucket[1h]") }}', {}, '5'],
  ])('%s', (_case, text, overrides, expected) => {
    expect(expand(text, overrides)).toBe(expected);
  });

  it('turns a bad selector into the error text of a failing template', () => {
    expect(expand('{{ exemplars "rate(x[5m])" }}')).toMatch(
      /^<error expanding template: error executing template __alert_HighRedisLatency: .*error calling exemplars: exemplars: "rate\(x\[5m\]\)" is not a series selector/,
    );
  });
});
