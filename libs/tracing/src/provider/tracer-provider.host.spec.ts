import type { TracingModuleOptions } from '../tracing-options.interface';

type Loaded = {
  host: typeof import('./tracer-provider.host');
  warmUp: typeof import('./span-allocation.warm-up');
  sdk: typeof import('@opentelemetry/sdk-trace-base');
  options: typeof import('../tracing-options.validation');
  api: typeof import('@opentelemetry/api');
  watch: typeof import('./old-generation-marking.watch');
};

/**
 * The host, the warm-up and what they see (the SDK, the API) in a fresh module registry: the
 * warm-up runs once per load.
 */
function load(): Loaded {
  let loaded!: Loaded;
  jest.isolateModules(() => {
    loaded = {
      host: jest.requireActual('./tracer-provider.host'),
      warmUp: jest.requireActual('./span-allocation.warm-up'),
      sdk: jest.requireActual('@opentelemetry/sdk-trace-base'),
      options: jest.requireActual('../tracing-options.validation'),
      api: jest.requireActual('@opentelemetry/api'),
      watch: jest.requireActual('./old-generation-marking.watch'),
    };
  });
  return loaded;
}

describe('TracerProviderHost warm-up of the SDK', () => {
  it.each<[string, TracingModuleOptions, boolean, boolean]>([
    ['its own provider', { exporter: 'memory' }, false, true],
    ["the application's provider", { exporter: 'none' }, true, true],
    ['tracing disabled', { enabled: false }, false, false],
  ])('warms up the SDK of %s once the application has started', async (_, options, global, ran) => {
    const { host, warmUp, sdk, options: validation, api } = load();
    if (global) api.trace.setGlobalTracerProvider(new sdk.BasicTracerProvider());
    const started = host.TracerProviderHost.start(validation.resolveTracingOptions(options));
    const probe = new sdk.BasicTracerProvider();
    expect(warmUp.needsWarmUp(probe)).toBe(true);
    started.onApplicationBootstrap();
    expect(warmUp.needsWarmUp(probe)).toBe(!ran);
    await started.onModuleDestroy();
    api.trace.disable();
  });

  it('leaves the warm-up to the first of two applications on the same SDK', async () => {
    const { host, warmUp, sdk, options: validation } = load();
    const options = validation.resolveTracingOptions({ exporter: 'memory' });
    const first = host.TracerProviderHost.start(options);
    const second = host.TracerProviderHost.start(options);
    const warmed = jest.spyOn(sdk.BasicTracerProvider.prototype, 'getTracer');
    first.onApplicationBootstrap();
    const afterFirst = warmed.mock.calls.length;
    second.onApplicationBootstrap();
    expect(afterFirst).toBeGreaterThan(0);
    expect(warmed.mock.calls.length).toBe(afterFirst);
    expect(warmUp.needsWarmUp(new sdk.BasicTracerProvider())).toBe(false);
    await second.onModuleDestroy();
    await first.onModuleDestroy();
  });

  it('starts the application when the warm-up fails (a runtime or SDK it does not fit)', async () => {
    const { host, watch, options: validation } = load();
    jest
      .spyOn(watch.OldGenerationMarkingWatch.prototype, 'runWhenNotMarking')
      .mockImplementation(() => {
        throw new TypeError('GCProfiler is not a constructor');
      });
    const started = host.TracerProviderHost.start(
      validation.resolveTracingOptions({ exporter: 'memory' }),
    );
    expect(() => started.onApplicationBootstrap()).not.toThrow();
    await started.onModuleDestroy();
  });
});
