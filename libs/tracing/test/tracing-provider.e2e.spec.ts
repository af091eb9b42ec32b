import { Logger, Module } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { context, propagation, trace } from '@opentelemetry/api';
import {
  InMemorySpanExporter,
  NodeTracerProvider,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-node';
import { TRACING_MEMORY_EXPORTER, TRACING_SERVICE, TracingModule } from '../src';
import type { ITracingService, TracingModuleOptions } from '../src';
import { CheckoutService } from './checkout.fixture';

async function startApp(options: TracingModuleOptions): Promise<TestingModule> {
  const app = await Test.createTestingModule({
    imports: [TracingModule.forRoot(options)],
    providers: [CheckoutService],
  }).compile();
  return app.init();
}

/** True when spans started through the global API are recorded by some provider. */
const globalProviderRecords = () => trace.getTracer('probe').startSpan('probe').isRecording();

describe('TracingModule provider handling', () => {
  afterEach(() => {
    trace.disable();
    context.disable();
    propagation.disable();
  });

  it('registers its own provider and takes it down again on close', async () => {
    expect(globalProviderRecords()).toBe(false);
    const app = await startApp({ exporter: 'memory' });
    expect(globalProviderRecords()).toBe(true);
    // The warm-up of the SDK at start (its throwaway spans) exports nothing.
    expect(app.get<InMemorySpanExporter>(TRACING_MEMORY_EXPORTER).getFinishedSpans()).toEqual([]);
    await app.close();
    expect(globalProviderRecords()).toBe(false);

    const again = await startApp({ exporter: 'memory' });
    await again.get(CheckoutService).checkout('B-2');
    expect(
      again.get<InMemorySpanExporter>(TRACING_MEMORY_EXPORTER).getFinishedSpans(),
    ).toHaveLength(4);
    await again.close();
  });

  it("uses the application's provider when one is registered and leaves it in place", async () => {
    const appExporter = new InMemorySpanExporter();
    const provider = new NodeTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(appExporter)],
    });
    provider.register();
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const app = await startApp({
      exporter: 'memory',
      serviceName: 'shop',
      sampling: { strategy: 'ratio', ratio: 0.5 },
    });
    // One warning naming every option the application's provider makes moot.
    expect(warn.mock.calls).toEqual([
      [
        'serviceName, exporter "memory", sampling ignored: the application registered its own tracer provider',
      ],
    ]);
    warn.mockRestore();

    expect(app.get(TRACING_MEMORY_EXPORTER)).toBeNull();
    await app.get(CheckoutService).checkout('C-3');
    const names = appExporter.getFinishedSpans().map((span) => span.name);
    expect(names.sort()).toEqual(['checkout', 'payment.publish', 'redis.HSET', 'stock.reserve']);
    await app.close();
    expect(globalProviderRecords()).toBe(true);
    await provider.shutdown();
  });

  it('records nothing when disabled but still runs the callbacks', async () => {
    const app = await startApp({ enabled: false, exporter: 'memory' });
    const tracing = app.get<ITracingService>(TRACING_SERVICE);

    await expect(app.get(CheckoutService).checkout('D-4')).resolves.toBe('D-4:reserved');
    await expect(tracing.withSpan('off', () => Promise.reject(new Error('x')))).rejects.toThrow(
      'x',
    );
    expect(app.get(TRACING_MEMORY_EXPORTER)).toBeNull();
    expect(globalProviderRecords()).toBe(false);
    await app.close();
  });

  it('prints each finished trace as a tree with the console exporter', async () => {
    const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      const app = await startApp({ exporter: 'console' });
      await app.get(CheckoutService).checkout('F-6');
      await app.close();
      const printed = log.mock.calls.map(([text]) => String(text));
      expect(printed).toHaveLength(1);
      const lines = printed[0].split('\n').map((line) => line.replace(/ \d+\.\d+ms/, ' <ms>'));
      expect(lines[0]).toMatch(/^trace [0-9a-f]{32}$/);
      expect(lines.slice(1)).toEqual([
        '└─ checkout SERVER <ms> order.id="F-6"',
        '   ├─ stock.reserve INTERNAL <ms>',
        '   │  └─ redis.HSET CLIENT <ms> db.system="redis"',
        '   └─ payment.publish PRODUCER <ms> messaging.system="redis" order.total=42.5 order.paid=true',
      ]);
    } finally {
      log.mockRestore();
    }
  });

  it('fails the start with the name of a bad option', async () => {
    const options = { exporter: 'jaeger' } as unknown as TracingModuleOptions;
    await expect(startApp(options)).rejects.toThrow(
      'TracingModule: option "exporter" must be one of "otlp", "console", "memory", "none", got "jaeger"',
    );
  });

  describe('isGlobal', () => {
    @Module({ providers: [CheckoutService], exports: [CheckoutService] })
    class ShopModule {}

    const compileWith = (isGlobal: boolean) =>
      Test.createTestingModule({
        imports: [TracingModule.forRoot({ exporter: 'memory', isGlobal }), ShopModule],
      }).compile();

    it('lets modules that do not import TracingModule inject the service', async () => {
      const app = await compileWith(true);
      await expect(app.get(CheckoutService).checkout('E-5')).resolves.toBe('E-5:reserved');
      await app.close();
    });

    it('keeps the service private to importing modules by default', async () => {
      await expect(compileWith(false)).rejects.toThrow(
        /resolve dependencies of the CheckoutService/,
      );
    });
  });
});
