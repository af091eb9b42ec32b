import { Test, type TestingModule } from '@nestjs/testing';
import { diag, DiagLogLevel, SpanKind, SpanStatusCode, type DiagLogger } from '@opentelemetry/api';
import type { InMemorySpanExporter, ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { TRACING_MEMORY_EXPORTER, TracingModule } from '../src';
import { CheckoutService } from './checkout.fixture';

const silentDiag: DiagLogger = {
  error: () => undefined,
  warn: () => undefined,
  info: () => undefined,
  debug: () => undefined,
  verbose: () => undefined,
};

describe('TracingModule with the memory exporter', () => {
  let app: TestingModule;
  let service: CheckoutService;
  let exporter: InMemorySpanExporter;

  beforeEach(async () => {
    app = await Test.createTestingModule({
      imports: [TracingModule.forRoot({ exporter: 'memory', serviceName: 'shop' })],
      providers: [CheckoutService],
    }).compile();
    await app.init();
    service = app.get(CheckoutService);
    exporter = app.get(TRACING_MEMORY_EXPORTER);
  });

  afterEach(() => app.close());

  const span = (name: string): ReadableSpan => {
    const found = exporter.getFinishedSpans().filter((candidate) => candidate.name === name);
    expect(found).toHaveLength(1);
    return found[0];
  };
  const parentOf = (child: ReadableSpan) => child.parentSpanContext?.spanId;
  const idOf = (of: ReadableSpan) => of.spanContext().spanId;

  it('nests withSpan spans through the context and records kinds, attributes and events', async () => {
    await expect(service.checkout('A-1')).resolves.toBe('A-1:reserved');

    const checkout = span('checkout');
    const reserve = span('stock.reserve');
    const write = span('redis.HSET');
    const payment = span('payment.publish');
    expect(exporter.getFinishedSpans()).toHaveLength(4);
    expect(parentOf(checkout)).toBeUndefined();
    expect(parentOf(reserve)).toBe(idOf(checkout));
    expect(parentOf(write)).toBe(idOf(reserve));
    expect(parentOf(payment)).toBe(idOf(checkout));
    const traceIds = new Set(
      [checkout, reserve, write, payment].map((s) => s.spanContext().traceId),
    );
    expect(traceIds.size).toBe(1);

    expect([checkout.kind, reserve.kind, write.kind, payment.kind]).toEqual([
      SpanKind.SERVER,
      SpanKind.INTERNAL,
      SpanKind.CLIENT,
      SpanKind.PRODUCER,
    ]);
    expect(checkout.attributes).toEqual({ 'order.id': 'A-1' });
    expect(write.attributes).toEqual({ 'db.system': 'redis' });
    expect(payment.attributes).toEqual({
      'messaging.system': 'redis',
      'order.total': 42.5,
      'order.paid': true,
    });
    expect(reserve.events.map((e) => [e.name, e.attributes])).toEqual([
      ['stock.checked', { items: 2 }],
    ]);
    expect(payment.events.map((e) => e.name)).toEqual(['payment.sent']);
    for (const ended of [checkout, reserve, write, payment]) {
      expect(ended.status.code).toBe(SpanStatusCode.OK);
      expect(ended.ended).toBe(true);
    }
    expect(checkout.resource.attributes['service.name']).toBe('shop');
    expect(checkout.instrumentationScope.name).toBe('@redisx/tracing');
  });

  it('records a thrown error on every enclosing span and rejects with the same object', async () => {
    const error = new TypeError('stock service down');
    const outcome = service.failingCheckout(error);

    await expect(outcome).rejects.toBe(error);
    for (const name of ['checkout', 'stock.reserve', 'redis.HSET']) {
      const failed = span(name);
      expect(failed.status).toEqual({ code: SpanStatusCode.ERROR, message: 'stock service down' });
      expect(failed.events).toHaveLength(1);
      expect(failed.events[0].name).toBe('exception');
      expect(failed.events[0].attributes).toEqual({
        'exception.type': 'TypeError',
        'exception.message': 'stock service down',
        'exception.stacktrace': error.stack,
      });
    }
    expect(parentOf(span('redis.HSET'))).toBe(idOf(span('stock.reserve')));
  });

  it('runs synchronous callbacks and turns their throws into rejections', async () => {
    const { tracing } = service;
    await expect(tracing.withSpan('sync', () => 7)).resolves.toBe(7);
    const error = new Error('sync failure');
    await expect(
      tracing.withSpan('sync.fail', () => {
        throw error;
      }),
    ).rejects.toBe(error);
    expect(span('sync').status.code).toBe(SpanStatusCode.OK);
    expect(span('sync.fail').status.code).toBe(SpanStatusCode.ERROR);
  });

  it('records an exception on a manual span without touching its status', () => {
    const manual = service.tracing.startSpan('cache.lookup', { kind: 'CLIENT' });
    manual.recordException(new RangeError('key too long'));
    manual.recordException('plain text failure');
    manual.end();

    const ended = span('cache.lookup');
    expect(ended.status.code).toBe(SpanStatusCode.UNSET);
    expect(ended.events.map((e) => e.attributes)).toEqual([
      expect.objectContaining({
        'exception.type': 'RangeError',
        'exception.message': 'key too long',
      }),
      { 'exception.message': 'plain text failure' },
    ]);
  });

  it('acts on the current span only while one is active', async () => {
    const { tracing } = service;
    expect(tracing.getCurrentSpan()).toBeUndefined();
    tracing.setAttribute('ignored', true);
    tracing.addEvent('ignored');
    tracing.recordException(new Error('ignored'));

    await tracing.withSpan('outer', () => {
      tracing.getCurrentSpan()?.setAttribute('via.current', 'yes').setStatus('ERROR', 'why');
      tracing.recordException(new Error('seen'));
    });
    const outer = span('outer');
    expect(exporter.getFinishedSpans()).toHaveLength(1);
    expect(outer.attributes).toEqual({ 'via.current': 'yes' });
    expect(outer.events.map((e) => e.attributes?.['exception.message'])).toEqual(['seen']);
    // withSpan's own OK on success wins over the status set inside the callback.
    expect(outer.status.code).toBe(SpanStatusCode.OK);
  });

  it('never throws on a bad kind or status: it warns once and falls back, as the OpenTelemetry API', async () => {
    const warnings: string[] = [];
    diag.setLogger(
      { ...silentDiag, warn: (message: string) => void warnings.push(message) },
      DiagLogLevel.WARN,
    );
    try {
      const options = { kind: 'BACKGROUND' } as never;
      expect(await service.tracing.withSpan('odd', () => 1, options)).toBe(1);
      await service.tracing.withSpan('odd', () => 2, options);
      const manual = service.tracing.startSpan('status', { kind: 'internal' as never });
      manual.setStatus('FOO' as never).setStatus('ok' as never);
      manual.end();
    } finally {
      diag.disable();
    }
    expect(
      exporter
        .getFinishedSpans()
        .filter((s) => s.name === 'odd')
        .map((s) => s.kind),
    ).toEqual([SpanKind.CLIENT, SpanKind.CLIENT]);
    expect([span('status').kind, span('status').status.code]).toEqual([
      SpanKind.INTERNAL,
      SpanStatusCode.OK,
    ]);
    expect(warnings).toEqual([
      '@redisx/tracing: span kind must be one of INTERNAL, CLIENT, SERVER, PRODUCER, CONSUMER, got "BACKGROUND"; CLIENT used',
      '@redisx/tracing: span status must be OK or ERROR, got "FOO"; status left unchanged',
    ]);
  });

  it.each([
    [
      { code: 'E1', message: 'plain object' },
      { 'exception.type': 'E1', 'exception.message': 'plain object' },
    ],
    [
      { name: 'Timeout', message: 'too slow' },
      { 'exception.type': 'Timeout', 'exception.message': 'too slow' },
    ],
    [{ retries: 3 }, { 'exception.message': '{"retries":3}' }],
    [42, { 'exception.message': '42' }],
  ])('records a thrown %j with a useful type and message', (thrown, recorded) => {
    const manual = service.tracing.startSpan('odd.exception');
    manual.recordException(thrown);
    manual.end();
    expect(span('odd.exception').events[0].attributes).toEqual(recorded);
  });

  it('gives the span context, renames, links and reaches the OpenTelemetry span', () => {
    const other = service.tracing.startSpan('other');
    const started = Date.UTC(2026, 10, 24, 12);
    const manual = service.tracing.startSpan('first name', {
      kind: 'INTERNAL',
      startTime: started,
      links: [{ context: other.spanContext(), attributes: { why: 'batch' } }],
    });
    manual.updateName('second name').addLink({ context: other.spanContext() });
    const context = manual.spanContext();
    expect(context.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(context.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(manual.isRecording()).toBe(true);
    expect(typeof (manual.otelSpan() as { spanContext: unknown }).spanContext).toBe('function');
    manual.end();
    other.end();
    const ended = span('second name');
    expect(ended.spanContext().spanId).toBe(context.spanId);
    expect(ended.startTime[0]).toBe(started / 1000);
    expect(ended.links.map((l) => [l.context.spanId, l.attributes ?? {}])).toEqual([
      [other.spanContext().spanId, { why: 'batch' }],
      [other.spanContext().spanId, {}],
    ]);
  });
});
