import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { ExportResultCode, hrTimeToMilliseconds, type ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';

/** Spans kept while waiting for their trace's root; beyond it the oldest traces are printed early. */
const MAX_BUFFERED_SPANS = 10_000;

/**
 * Prints each trace as a tree once its local root span ends: one line per span with kind,
 * duration, status and attributes, children indented under their parent. Meant for development.
 */
export class ConsoleTraceExporter implements SpanExporter {
  private readonly traces = new Map<string, ReadableSpan[]>();
  private buffered = 0;

  constructor(private readonly print: (text: string) => void = (text) => console.log(text)) {}

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    for (const span of spans) {
      const traceId = span.spanContext().traceId;
      const list = this.traces.get(traceId) ?? [];
      list.push(span);
      this.traces.set(traceId, list);
      this.buffered++;
      const parent = span.parentSpanContext;
      if (!parent || parent.isRemote) this.flush(traceId);
    }
    while (this.buffered > MAX_BUFFERED_SPANS)
      this.flush(this.traces.keys().next().value as string);
    done({ code: ExportResultCode.SUCCESS });
  }

  async shutdown(): Promise<void> {
    for (const traceId of [...this.traces.keys()]) this.flush(traceId);
  }

  async forceFlush(): Promise<void> {}

  private flush(traceId: string): void {
    const spans = this.traces.get(traceId) ?? [];
    this.traces.delete(traceId);
    this.buffered -= spans.length;
    const ids = new Set(spans.map((span) => span.spanContext().spanId));
    const children = new Map<string | undefined, ReadableSpan[]>();
    for (const span of spans) {
      const parentId = span.parentSpanContext?.spanId;
      const key = parentId && ids.has(parentId) ? parentId : undefined;
      children.set(key, [...(children.get(key) ?? []), span]);
    }
    const lines = [`trace ${traceId}`];
    const walk = (parentId: string | undefined, indent: string) => {
      const level = (children.get(parentId) ?? []).sort((a, b) => compareTime(a, b));
      level.forEach((span, index) => {
        const last = index === level.length - 1;
        lines.push(`${indent}${last ? '└─' : '├─'} ${describeSpan(span)}`);
        walk(span.spanContext().spanId, `${indent}${last ? '   ' : '│  '}`);
      });
    };
    walk(undefined, '');
    this.print(lines.join('\n'));
  }
}

function compareTime(a: ReadableSpan, b: ReadableSpan): number {
  return hrTimeToMilliseconds(a.startTime) - hrTimeToMilliseconds(b.startTime);
}

function describeSpan(span: ReadableSpan): string {
  const parts = [
    span.name,
    SpanKind[span.kind],
    `${hrTimeToMilliseconds(span.duration).toFixed(2)}ms`,
  ];
  if (span.status.code === SpanStatusCode.ERROR) parts.push(`ERROR(${span.status.message ?? ''})`);
  const attributes = Object.entries(span.attributes).map(([k, v]) => `${k}=${JSON.stringify(v)}`);
  return [...parts, ...attributes].join(' ');
}
