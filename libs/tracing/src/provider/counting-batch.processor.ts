import type { Context } from '@opentelemetry/api';
import { TraceFlags } from '@opentelemetry/api';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import {
  BatchSpanProcessor,
  type ReadableSpan,
  type Span,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import type { DroppedSpansReporter } from './dropped-spans.reporter';

/**
 * The SDK's batch processor, bounded to `maxQueueSize` spans, with every span it drops counted:
 * the SDK drops silently when its queue is full, and a failed export loses its batch. The queue
 * length is mirrored here (spans in, minus spans handed to the exporter), which is exactly the
 * condition under which the SDK drops.
 */
export class CountingBatchSpanProcessor implements SpanProcessor {
  private queued = 0;
  private readonly batch: BatchSpanProcessor;

  constructor(
    exporter: SpanExporter,
    private readonly maxQueueSize: number,
    timeoutMillis: number,
    private readonly reporter: DroppedSpansReporter,
  ) {
    const counting: SpanExporter = {
      export: (spans: ReadableSpan[], done: (result: ExportResult) => void) => {
        this.queued -= spans.length;
        exporter.export(spans, (result) => {
          if (result.code !== ExportResultCode.SUCCESS) {
            reporter.add(spans.length, result.error?.message ?? 'export failed');
          }
          done(result);
        });
      },
      shutdown: () => exporter.shutdown(),
      forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
    };
    this.batch = new BatchSpanProcessor(counting, {
      maxQueueSize,
      maxExportBatchSize: Math.min(512, maxQueueSize),
      scheduledDelayMillis: 1000,
      // The exporter gives up after its own timeout; this only guards against one that never answers.
      exportTimeoutMillis: timeoutMillis + 1000,
    });
  }

  onStart(span: Span, parentContext: Context): void {
    this.batch.onStart(span, parentContext);
  }

  onEnd(span: ReadableSpan): void {
    if ((span.spanContext().traceFlags & TraceFlags.SAMPLED) !== 0) {
      if (this.queued >= this.maxQueueSize) this.reporter.add(1, 'export queue full');
      else this.queued++;
    }
    this.batch.onEnd(span);
  }

  forceFlush(): Promise<void> {
    return this.batch.forceFlush();
  }

  shutdown(): Promise<void> {
    return this.batch.shutdown();
  }
}
