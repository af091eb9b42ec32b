import { INVALID_SPAN_CONTEXT, TraceFlags, type SpanContext } from '@opentelemetry/api';
import { exemplarAllowed, type ExemplarFilterName } from './exemplar.filter';

const context = (traceFlags: number): SpanContext => ({
  traceId: '0af7651916cd43dd8448eb211c80319c',
  spanId: 'b7ad6b7169203331',
  traceFlags,
});
const sampled = context(TraceFlags.SAMPLED);
const unsampled = context(TraceFlags.NONE);

describe('exemplarAllowed', () => {
  it.each<[ExemplarFilterName, string, SpanContext | undefined, boolean]>([
    ['trace_based', 'a sampled span', sampled, true],
    ['trace_based', 'an unsampled span', unsampled, false],
    ['trace_based', 'no span', undefined, false],
    ['trace_based', 'an invalid span context', INVALID_SPAN_CONTEXT, false],
    ['always_on', 'a sampled span', sampled, true],
    ['always_on', 'an unsampled span', unsampled, true],
    ['always_on', 'no span', undefined, false],
    ['always_on', 'an invalid span context', INVALID_SPAN_CONTEXT, false],
    ['always_off', 'a sampled span', sampled, false],
    ['always_off', 'an unsampled span', unsampled, false],
  ])('%s with %s: %s', (filter, _case, spanContext, allowed) => {
    expect(exemplarAllowed(filter, spanContext)).toBe(allowed);
  });
});
