import type { SpanContext } from '@opentelemetry/api';
import { exemplarAllowed, type ExemplarFilterName } from './exemplar.filter';

/** The labels of a command's exemplar: the trace and span it was measured in. */
export interface CommandExemplarLabels {
  trace_id: string;
  span_id: string;
}

/**
 * Which commands leave an exemplar on the duration histogram: the slow and the failed ones whose
 * span the filter admits. The check in {@link wanted} comes first and reads only numbers, so a
 * fast successful command costs a comparison and allocates nothing.
 */
export class CommandExemplarPolicy {
  constructor(
    readonly filter: ExemplarFilterName,
    /** A command that took longer than this (in seconds) is slow. */
    readonly slowerThanSeconds: number,
  ) {}

  /** Whether a command of `seconds` needs its span context looked up at all. */
  wanted(seconds: number, failed: boolean): boolean {
    return this.filter !== 'always_off' && (failed || seconds > this.slowerThanSeconds);
  }

  /** The exemplar's labels for a command {@link wanted} said yes to, or undefined. */
  labels(spanContext: SpanContext | undefined): CommandExemplarLabels | undefined {
    if (spanContext === undefined || !exemplarAllowed(this.filter, spanContext)) return undefined;
    return { trace_id: spanContext.traceId, span_id: spanContext.spanId };
  }
}
