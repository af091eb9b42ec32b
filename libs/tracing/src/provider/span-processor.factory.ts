import type { Logger } from '@nestjs/common';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import type { ResolvedExporter } from '../tracing-options.interface';
import { ConsoleTraceExporter } from './console-trace.exporter';
import { CountingBatchSpanProcessor } from './counting-batch.processor';
import { DroppedSpansReporter } from './dropped-spans.reporter';

/** The processors for an exporter, and what tests and diagnostics may look at. */
export interface SpanPipeline {
  processors: SpanProcessor[];
  memoryExporter: InMemorySpanExporter | null;
  dropped: DroppedSpansReporter | null;
}

/**
 * OTLP goes through a bounded batch processor, so a slow or dead collector costs the application
 * a full queue at most; console and memory export each span as it ends, which is what they are for.
 */
export function createSpanPipeline(exporter: ResolvedExporter, logger: Logger): SpanPipeline {
  switch (exporter.type) {
    case 'otlp': {
      const dropped = new DroppedSpansReporter(logger, exporter.endpoint);
      const otlp = new OTLPTraceExporter({
        url: exporter.endpoint,
        headers: exporter.headers,
        timeoutMillis: exporter.timeoutMillis,
      });
      const processor = new CountingBatchSpanProcessor(
        otlp,
        exporter.maxQueueSize,
        exporter.timeoutMillis,
        dropped,
      );
      return { processors: [processor], memoryExporter: null, dropped };
    }
    case 'console':
      return {
        processors: [new SimpleSpanProcessor(new ConsoleTraceExporter())],
        memoryExporter: null,
        dropped: null,
      };
    case 'memory': {
      const memoryExporter = new InMemorySpanExporter();
      return {
        processors: [new SimpleSpanProcessor(memoryExporter)],
        memoryExporter,
        dropped: null,
      };
    }
    case 'none':
      return { processors: [], memoryExporter: null, dropped: null };
  }
}
