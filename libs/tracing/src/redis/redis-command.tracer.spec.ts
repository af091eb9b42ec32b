import { context, trace, TraceFlags, type Context, type Span } from '@opentelemetry/api';
import { CommandExemplarPolicy } from '../metrics/command-exemplar.policy';
import { RedisCommandMetrics } from '../metrics/redis-command.metrics';
import { resolveTracingOptions } from '../tracing-options.validation';
import { CommandTrace } from './redis-command.tracer';
import { commandInfo } from './redis-statement';

const TRACE = '0af7651916cd43dd8448eb211c80319c';
const span = (spanId: string, traceFlags = TraceFlags.SAMPLED): Span =>
  trace.wrapSpanContext({ traceId: TRACE, spanId, traceFlags });
const under = (parent: Span): Context => trace.setSpan(context.active(), parent);

/** The exemplar labels of the OpenMetrics output, without their values and times. */
async function exemplars(metrics: RedisCommandMetrics): Promise<string[]> {
  const text = await metrics.openMetricsText();
  return [...text.matchAll(/ # (\{[^}]*\})/g)].map((match) => match[1]);
}

describe('CommandTrace exemplars', () => {
  // A threshold of -1 s makes every command slow, one of an hour none.
  it.each<[string, number, 'succeed' | 'fail', Span | undefined, Context | undefined, string[]]>([
    [
      'a slow command with a sampled span',
      -1,
      'succeed',
      span('00000000000000a1'),
      undefined,
      [`{trace_id="${TRACE}",span_id="00000000000000a1"}`],
    ],
    [
      'a fast command with a sampled span',
      3600,
      'succeed',
      span('00000000000000a1'),
      undefined,
      [],
    ],
    [
      'a failed fast command with a sampled span',
      3600,
      'fail',
      span('00000000000000a1'),
      undefined,
      [`{trace_id="${TRACE}",span_id="00000000000000a1"}`],
    ],
    [
      'a slow command with an unsampled span',
      -1,
      'succeed',
      span('00000000000000a1', TraceFlags.NONE),
      undefined,
      [],
    ],
    [
      'a slow command without a span of its own, under a sampled one',
      -1,
      'succeed',
      undefined,
      under(span('00000000000000b2')),
      [`{trace_id="${TRACE}",span_id="00000000000000b2"}`],
    ],
    ['a slow command outside any trace', -1, 'fail', undefined, context.active(), []],
  ])('%s', async (_case, slowerThanSeconds, outcome, own, parent, expected) => {
    const metrics = new RedisCommandMetrics(
      't_',
      new CommandExemplarPolicy('trace_based', slowerThanSeconds),
    );
    const options = resolveTracingOptions({}, {}).spans;
    const command = new CommandTrace(
      commandInfo('GET'),
      'c',
      own,
      options,
      metrics,
      false,
      undefined,
      parent,
    );
    if (outcome === 'succeed') command.succeed('v');
    else command.fail(new Error('boom'));
    expect(await exemplars(metrics)).toEqual(expected);
  });
});
