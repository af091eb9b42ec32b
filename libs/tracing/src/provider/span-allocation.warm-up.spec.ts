import { ProxyTracerProvider, trace, type TracerProvider } from '@opentelemetry/api';
import * as otherSdkCopy from '@opentelemetry/sdk-trace-base';
import type { ReadableSpan, Span, SpanProcessor } from '@opentelemetry/sdk-trace-base';

type Sdk = typeof import('@opentelemetry/sdk-trace-base');
type WarmUp = typeof import('./span-allocation.warm-up');

/**
 * A fresh load of the warm-up (it runs once per load) with the SDK copy it sees; a provider built
 * from the test's own import of the SDK then stands for an application's other copy of it.
 */
function load(): { warmUp: WarmUp; sdk: Sdk } {
  let loaded!: { warmUp: WarmUp; sdk: Sdk };
  jest.isolateModules(() => {
    loaded = {
      warmUp: jest.requireActual('./span-allocation.warm-up'),
      sdk: jest.requireActual('@opentelemetry/sdk-trace-base'),
    };
  });
  return loaded;
}

/** A span processor that remembers every span it is handed. */
function recorder(): SpanProcessor & { seen: string[] } {
  const seen: string[] = [];
  return {
    seen,
    onStart: (span: Span) => void seen.push(`start ${span.name}`),
    onEnd: (span: ReadableSpan) => void seen.push(`end ${span.name}`),
    forceFlush: async () => undefined,
    shutdown: async () => undefined,
  };
}

describe('warmUpSpanAllocation', () => {
  afterEach(() => trace.disable());

  it("runs once, for a provider of the SDK copy it loads, and hands no span to anyone's processors", () => {
    const { warmUp, sdk } = load();
    const own = recorder();
    const global = recorder();
    const exporter = new sdk.InMemorySpanExporter();
    const provider = new sdk.BasicTracerProvider({
      spanProcessors: [own, new sdk.SimpleSpanProcessor(exporter)],
    });
    trace.setGlobalTracerProvider(new sdk.BasicTracerProvider({ spanProcessors: [global] }));
    // The SDK's own tracer code (the allocation sites) runs each span, ended each time.
    const sdkTracer = Object.getPrototypeOf(provider.getTracer('probe')) as {
      startSpan: (...args: unknown[]) => Span;
    };
    const started = jest.spyOn(sdkTracer, 'startSpan');

    expect(warmUp.needsWarmUp(provider)).toBe(true);
    expect(warmUp.warmUpSpanAllocation(provider)).toBe(true);
    expect(warmUp.needsWarmUp(provider)).toBe(false);
    expect(warmUp.warmUpSpanAllocation(provider)).toBe(false);
    expect(started).toHaveBeenCalledTimes(warmUp.WARM_UP_SPANS);
    expect(started.mock.results.every(({ value }) => (value as Span).ended)).toBe(true);
    started.mockRestore();
    expect(own.seen).toEqual([]);
    expect(global.seen).toEqual([]);
    expect(exporter.getFinishedSpans()).toEqual([]);
    // The provider given is left as it was: its spans still reach its processors.
    provider.getTracer('app').startSpan('after').end();
    expect(own.seen).toEqual(['start after', 'end after']);
  });

  it.each<[string, () => unknown]>([
    ['a provider of another copy of the SDK', () => new otherSdkCopy.BasicTracerProvider()],
    ["the API's no-op provider", () => new ProxyTracerProvider().getDelegate()],
    ['a provider that only implements the API', () => ({ getTracer: () => trace.getTracer('x') })],
    ['nothing', () => undefined],
  ])('skips %s, and still runs for the next provider it can warm up', (_, makeProvider) => {
    const { warmUp, sdk } = load();
    expect(warmUp.needsWarmUp(makeProvider())).toBe(false);
    expect(warmUp.warmUpSpanAllocation(makeProvider() as TracerProvider)).toBe(false);
    expect(warmUp.warmUpSpanAllocation(new sdk.BasicTracerProvider())).toBe(true);
  });
});
