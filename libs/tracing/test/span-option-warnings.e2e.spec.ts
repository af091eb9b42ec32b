import { ConsoleLogger, Logger, type LoggerService } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { SpanKind } from '@opentelemetry/api';
import type { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import {
  TRACING_MEMORY_EXPORTER,
  TRACING_SERVICE,
  TracingModule,
  type ITracingService,
} from '../src';

/** An application's own Nest logger, keeping each warning with its context. */
class RecordingLogger implements LoggerService {
  readonly warnings: [message: unknown, context: unknown][] = [];
  log(): void {}
  error(): void {}
  warn(message: unknown, context?: unknown): void {
    this.warnings.push([message, context]);
  }
}

/**
 * A span option the library does not know, reported where a Nest application reads the
 * library's other warnings: its logger (here one of its own, as `app.useLogger` installs it).
 */
describe("bad span options reported through Nest's logger", () => {
  let app: TestingModule;
  let tracing: ITracingService;
  let exporter: InMemorySpanExporter;
  const logger = new RecordingLogger();

  beforeAll(async () => {
    app = await Test.createTestingModule({
      imports: [TracingModule.forRoot({ exporter: 'memory', serviceName: 'shop' })],
    })
      .setLogger(logger)
      .compile();
    await app.init();
    tracing = app.get(TRACING_SERVICE);
    exporter = app.get(TRACING_MEMORY_EXPORTER);
  });

  afterAll(async () => {
    await app.close();
    Logger.overrideLogger(new ConsoleLogger());
  });

  it.each([
    [
      'an unknown kind',
      () => tracing.startSpan('odd kind', { kind: 'FOO' as never }).end(),
      'span kind must be one of INTERNAL, CLIENT, SERVER, PRODUCER, CONSUMER, got "FOO"; CLIENT used',
    ],
    [
      'an unknown status',
      () =>
        tracing
          .startSpan('odd status')
          .setStatus('MAYBE' as never)
          .end(),
      'span status must be OK or ERROR, got "MAYBE"; status left unchanged',
    ],
  ])('warns once for three spans with %s', (_, use, warning) => {
    const before = logger.warnings.length;
    for (let i = 0; i < 3; i++) use();
    expect(logger.warnings.slice(before)).toEqual([[warning, 'TracingModule']]);
  });

  it('records the spans of an unknown kind as CLIENT', () => {
    const kinds = exporter
      .getFinishedSpans()
      .filter((s) => s.name === 'odd kind')
      .map((s) => s.kind);
    expect(kinds).toEqual([SpanKind.CLIENT, SpanKind.CLIENT, SpanKind.CLIENT]);
  });
});
