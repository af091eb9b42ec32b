import { TraceFlags, type SpanContext } from '@opentelemetry/api';
import { CommandExemplarPolicy } from './command-exemplar.policy';
import type { ExemplarFilterName } from './exemplar.filter';
import { RedisCommandMetrics } from './redis-command.metrics';

const TRACE = '0af7651916cd43dd8448eb211c80319c';
const SPAN = 'b7ad6b7169203331';
const context = (traceFlags: number): SpanContext => ({ traceId: TRACE, spanId: SPAN, traceFlags });

/** The exemplars of the OpenMetrics output: each bucket line's `le` and what follows ` # `. */
function exemplarsOf(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => line.includes(' # '))
    .map(
      (line) => `${/le="([^"]+)"/.exec(line)?.[1]} ${line.split(' # ')[1].replace(/ [\d.]+$/, '')}`,
    );
}

describe('RedisCommandMetrics exemplars', () => {
  // The policy's threshold is 0.1 s; `failed` commands leave one at any duration.
  it.each<[string, ExemplarFilterName, number, boolean, number, string[]]>([
    [
      'a slow command in a sampled trace',
      'trace_based',
      0.2,
      false,
      TraceFlags.SAMPLED,
      [`0.25 {trace_id="${TRACE}",span_id="${SPAN}"} 0.2`],
    ],
    [
      'a failed fast command in a sampled trace',
      'trace_based',
      0.0003,
      true,
      TraceFlags.SAMPLED,
      [`0.0005 {trace_id="${TRACE}",span_id="${SPAN}"} 0.0003`],
    ],
    ['a fast command in a sampled trace', 'trace_based', 0.05, false, TraceFlags.SAMPLED, []],
    ['a slow command in an unsampled trace', 'trace_based', 0.2, false, TraceFlags.NONE, []],
    [
      'a slow command in an unsampled trace, always_on',
      'always_on',
      0.2,
      false,
      TraceFlags.NONE,
      [`0.25 {trace_id="${TRACE}",span_id="${SPAN}"} 0.2`],
    ],
    ['a slow command, always_off', 'always_off', 0.2, true, TraceFlags.SAMPLED, []],
    [
      'a command slower than every bucket',
      'trace_based',
      12,
      false,
      TraceFlags.SAMPLED,
      [`+Inf {trace_id="${TRACE}",span_id="${SPAN}"} 12`],
    ],
  ])('%s', async (_case, filter, seconds, failed, flags, expected) => {
    const metrics = new RedisCommandMetrics('t_', new CommandExemplarPolicy(filter, 0.1));
    const wanted = metrics.wantsExemplar(seconds, failed);
    metrics.record(
      'GET',
      'c',
      seconds,
      failed ? 'ERR' : undefined,
      wanted ? context(flags) : undefined,
    );
    expect(exemplarsOf(await metrics.openMetricsText())).toEqual(expected);
  });

  it.each([
    [0.05, false, false],
    [0.1, false, false],
    [0.1001, false, true],
    [0.0001, true, true],
  ])(
    'asks for the span context of a command of %s s (failed: %s): %s',
    (seconds, failed, wanted) => {
      const metrics = new RedisCommandMetrics('t_', new CommandExemplarPolicy('trace_based', 0.1));
      expect(metrics.wantsExemplar(seconds, failed)).toBe(wanted);
      expect(new RedisCommandMetrics('t_').wantsExemplar(seconds, failed)).toBe(false);
    },
  );

  it('keeps a bucket exemplar when later commands in that bucket leave none', async () => {
    const metrics = new RedisCommandMetrics('t_', new CommandExemplarPolicy('trace_based', 0.1));
    metrics.record('GET', 'c', 0.0003, 'ERR', context(TraceFlags.SAMPLED));
    metrics.record('GET', 'c', 0.0004, undefined, undefined);
    metrics.record('GET', 'c', 0.0004, 'ERR', context(TraceFlags.NONE));
    const text = await metrics.openMetricsText();
    expect(exemplarsOf(text)).toEqual([`0.0005 {trace_id="${TRACE}",span_id="${SPAN}"} 0.0003`]);
    expect(text).toContain('t_command_duration_seconds_count{command="GET",client="c"} 3');
  });

  it('serves the same counts in both formats, with the exemplars in OpenMetrics only', async () => {
    const metrics = new RedisCommandMetrics('t_', new CommandExemplarPolicy('trace_based', 0.1));
    metrics.record('GET', 'c', 0.2, undefined, context(TraceFlags.SAMPLED));
    metrics.record('SET', 'c', 0.001, 'WRONGTYPE');
    const openMetrics = await metrics.openMetricsText();
    const prometheus = await metrics.text();
    for (const text of [openMetrics, await metrics.openMetricsText(), prometheus]) {
      expect(text).toContain('t_commands_total{command="GET",client="c",status="success"} 1');
      expect(text).toContain('t_errors_total{command="SET",client="c",error_type="WRONGTYPE"} 1');
      expect(text).toContain('t_command_duration_seconds_count{command="GET",client="c"} 1');
    }
    expect(openMetrics).toContain('# TYPE t_commands counter');
    expect(openMetrics.endsWith('# EOF\n')).toBe(true);
    expect(openMetrics).toMatch(
      new RegExp(
        `^t_command_duration_seconds_bucket\\{le="0.25",command="GET",client="c"\\} 1 # \\{trace_id="${TRACE}",span_id="${SPAN}"\\} 0.2 \\d+(\\.\\d+)?$`,
        'm',
      ),
    );
    // After an OpenMetrics scrape the Prometheus format still names the counters with `_total`.
    expect(prometheus).toContain('# TYPE t_commands_total counter');
    expect(prometheus).not.toContain(' # {');
    expect(metrics.openMetricsContentType).toBe(
      'application/openmetrics-text; version=1.0.0; charset=utf-8',
    );
    expect(metrics.contentType).toBe('text/plain; version=0.0.4; charset=utf-8');
  });
});
