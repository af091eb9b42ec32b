import {
  alertTraces,
  generatorExpression,
  labelsAgree,
  traceUrl,
  type Exemplar,
  type SeriesExemplars,
} from '../ui/src/exemplar-traces';
import { exemplarExtent, exemplarPoints } from '../ui/src/graph/exemplar-points';
import { DEFAULT_PANEL, readPanels, writePanels } from '../ui/src/graph/panel-options';

/**
 * The web UI's own reading of exemplars (the bundle imports nothing from `src/`): the trace link
 * as `--web.trace-url` makes it, which exemplars belong to an alert, and where the graph draws
 * them. The pages themselves are driven in Chromium by graph-exemplars.e2e.spec.ts.
 */
describe('the web UI’s exemplars', () => {
  const ID = '4bf92f3577b34da6a3ce929d0e0e4736';

  it.each([
    [
      'Jaeger’s address',
      'http://127.0.0.1:16686/trace/{{ .TraceID }}',
      ID,
      `http://127.0.0.1:16686/trace/${ID}`,
    ],
    ['no spaces inside the braces', 'http://t/trace/{{.TraceID}}', ID, `http://t/trace/${ID}`],
    ['the id twice', 'http://t/{{ .TraceID }}?q={{ .TraceID }}', 'a1', 'http://t/a1?q=a1'],
    [
      'an id that would change the address, escaped',
      'http://t/trace/{{ .TraceID }}',
      'a/b?c',
      'http://t/trace/a%2Fb%3Fc',
    ],
    ['no template: no link', undefined, ID, undefined],
    ['an empty template (the flag unset): no link', '', ID, undefined],
    ['no trace id: no link', 'http://t/trace/{{ .TraceID }}', undefined, undefined],
  ])('links a trace: %s', (_case, template, id, expected) => {
    expect(traceUrl(template, id)).toBe(expected);
  });

  it.each([
    ['shared names equal', { job: 'app', le: '0.5' }, { job: 'app', le: '0.5', x: '1' }, true],
    ['no shared names', { alertname: 'Slow' }, { __name__: 'h_bucket', le: '1' }, true],
    ['a shared name that differs', { queue: 'orders' }, { queue: 'mail' }, false],
    ['only the metric name differs', { __name__: 'a' }, { __name__: 'b' }, true],
    ['an empty value against a missing name', { queue: '' }, { job: 'app' }, true],
  ])('tells whether label sets agree: %s', (_case, a, b, expected) => {
    expect(labelsAgree(a, b)).toBe(expected);
    expect(labelsAgree(b, a)).toBe(expected);
  });

  it.each([
    [
      'this server’s link',
      'http://h:9093/am/graph?g0.expr=demo_queue_depth+%3E+5&g0.tab=1',
      'demo_queue_depth > 5',
    ],
    ['a relative link', 'graph?g0.expr=up&g0.tab=0', 'up'],
    ['no expression', 'http://prometheus/graph?g0.tab=1', undefined],
    ['a blank expression', 'http://prometheus/graph?g0.expr=+', undefined],
    ['no generator URL', undefined, undefined],
    ['an address that does not parse', 'http://[bad', undefined],
  ])('reads an alert’s expression: %s', (_case, url, expected) => {
    expect(generatorExpression(url)).toBe(expected);
  });

  const exemplar = (traceId: string, value: string, timestamp: number): Exemplar => ({
    labels: traceId ? { trace_id: traceId, span_id: 's' } : { span_id: 's' },
    value,
    timestamp,
  });
  const FOUND: SeriesExemplars[] = [
    {
      seriesLabels: { __name__: 'q_bucket', queue: 'orders', le: '0.5' },
      exemplars: [exemplar('o1', '0.3', 100), exemplar('o2', '0.45', 101), exemplar('', '9', 102)],
    },
    {
      seriesLabels: { __name__: 'q_bucket', queue: 'orders', le: '+Inf' },
      exemplars: [
        exemplar('o3', '2.5', 103),
        exemplar('o2', '0.45', 104),
        exemplar('o4', 'NaN', 103.5),
      ],
    },
    {
      seriesLabels: { __name__: 'q_bucket', queue: 'mail', le: '0.5' },
      exemplars: [exemplar('m1', '0.4', 105), exemplar('m2', '0.4', 106)],
    },
  ];

  it.each([
    [
      'one queue’s alert: its own series only, slowest first, each trace once',
      { alertname: 'Slow', queue: 'orders' },
      3,
      ['o3 2.5', 'o2 0.45', 'o1 0.3'],
    ],
    [
      'an aggregated alert: every series',
      { alertname: 'Slow', severity: 'warning' },
      4,
      ['o3 2.5', 'o2 0.45', 'm2 0.4', 'm1 0.4'],
    ],
    ['equal values: the newest first', { queue: 'mail' }, 3, ['m2 0.4', 'm1 0.4']],
    [
      'a NaN after every number',
      { queue: 'orders', le: '+Inf' },
      3,
      ['o3 2.5', 'o2 0.45', 'o4 NaN'],
    ],
    ['an alert no series agrees with', { queue: 'audit' }, 3, []],
    ['at most the limit', { queue: 'orders' }, 1, ['o3 2.5']],
  ])('picks an alert’s traces: %s', (_case, labels, limit, expected) => {
    const traces = alertTraces(labels, FOUND, limit);
    expect(traces.map((t) => `${t.traceId} ${t.value}`)).toEqual(expected);
  });

  it.each<[string, Record<string, string>[], { start: number; end: number }, string[]]>([
    [
      'each exemplar on the one line its series agrees with',
      [
        { queue: 'orders', le: '0.5' },
        { queue: 'mail', le: '0.5' },
      ],
      { start: 0, end: 1000 },
      [
        'o1 0.3@100 line 0',
        'o2 0.45@101 line 0',
        '- 9@102 line 0',
        'o3 2.5@103 neutral',
        'o2 0.45@104 neutral',
        'm1 0.4@105 line 1',
        'm2 0.4@106 line 1',
      ],
    ],
    [
      'neutral when several lines agree or none, and outside the window left out',
      [{ le: '0.5' }, { le: '0.5', instance: 'b' }],
      { start: 101, end: 105 },
      [
        'o2 0.45@101 neutral',
        '- 9@102 neutral',
        'o3 2.5@103 neutral',
        'o2 0.45@104 neutral',
        'm1 0.4@105 neutral',
      ],
    ],
    [
      'an aggregate’s line without labels: everything on it, NaN left out',
      [{}],
      { start: 103, end: 104 },
      ['o3 2.5@103 line 0', 'o2 0.45@104 line 0'],
    ],
    ['nothing plotted: all neutral', [], { start: 106, end: 200 }, ['m2 0.4@106 neutral']],
  ])('places exemplars: %s', (_case, plotted, window, expected) => {
    const points = exemplarPoints(FOUND, plotted, window);
    expect(
      points.map(
        (p) =>
          `${p.traceId ?? '-'} ${p.valueText}@${p.time} ${p.line === undefined ? 'neutral' : `line ${p.line}`}`,
      ),
    ).toEqual(expected);
    for (const point of points) expect(point.value).toBe(Number(point.valueText));
  });

  it.each([
    ['several', { start: 0, end: 1000 }, [0.3, 9]],
    ['one', { start: 103, end: 103 }, [2.5, 2.5]],
    ['none', { start: 0, end: 1 }, undefined],
  ])('stretches the value axis to the exemplars: %s', (_case, window, expected) => {
    expect(exemplarExtent(exemplarPoints(FOUND, [], window))).toEqual(expected);
  });

  it.each([
    ['off unless asked, as Prometheus reads it', 'g0.expr=up', false],
    ['on', 'g0.expr=up&g0.show_exemplars=1', true],
    ['off', 'g0.expr=up&g0.show_exemplars=0', false],
  ])('reads the exemplar toggle from the URL: %s', (_case, search, expected) => {
    expect(readPanels(search).map((p) => p.showExemplars)).toEqual([expected]);
  });

  it('writes the toggle where Prometheus does, after `stacked`, and reads it back', () => {
    const panels = [
      { ...DEFAULT_PANEL, expr: 'up', tab: 'graph' as const, showExemplars: true },
      { ...DEFAULT_PANEL, expr: 'x' },
    ];
    const search = writePanels(panels);
    expect(search).toBe(
      'g0.expr=up&g0.tab=0&g0.stacked=0&g0.show_exemplars=1&g0.range_input=1h' +
        '&g1.expr=x&g1.tab=1&g1.stacked=0&g1.show_exemplars=0&g1.range_input=1h',
    );
    expect(readPanels(search)).toEqual(panels);
  });
});
