import { Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { trace, ProxyTracerProvider, type Tracer, type TracerProvider } from '@opentelemetry/api';
import type { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { TRACER_NAME } from '../tracing.constants';
import { RUNNING_SCOPES, type TracingScope } from '../tracing-scope';
import type { ResolvedTracingOptions } from '../tracing-options.interface';
import type { DroppedSpansReporter } from './dropped-spans.reporter';
import { createSpanPipeline } from './span-processor.factory';
import { OldGenerationMarkingWatch } from './old-generation-marking.watch';
import { needsWarmUp, warmUpSpanAllocation } from './span-allocation.warm-up';
import { createOwnProvider, isOwnProvider, type OwnProvider } from './tracer-provider.factory';

/**
 * Holds the tracer every part of the library uses. Uses the application's global tracer provider
 * when there is one; otherwise runs its own provider and releases it, and the API globals it set,
 * on destroy.
 */
export class TracerProviderHost implements OnApplicationBootstrap, OnModuleDestroy {
  private constructor(
    readonly tracer: Tracer,
    readonly memoryExporter: InMemorySpanExporter | null,
    readonly dropped: DroppedSpansReporter | null,
    private readonly own: OwnProvider | null,
    /** The provider behind `tracer`, whose SDK is warmed up once the application has started. */
    private readonly provider: TracerProvider | null,
  ) {
    this.scope = { tracer };
    RUNNING_SCOPES.add(this.scope);
    this.marking = needsWarmUp(provider) ? OldGenerationMarkingWatch.start() : null;
  }

  /** Watches V8's collections from the start until the warm-up has found its moment. */
  private readonly marking: OldGenerationMarkingWatch | null;

  /** This module instance's scope: what `@Span()` methods and Redis commands of its calls use. */
  readonly scope: TracingScope;

  /** Picks or builds the provider for `options`. */
  static start(
    options: ResolvedTracingOptions,
    logger = new Logger('TracingModule'),
  ): TracerProviderHost {
    if (!options.enabled) return new TracerProviderHost(noopTracer(), null, null, null, null);
    const registered = registeredProvider();
    if (registered !== undefined) {
      // One warning naming every option the application's provider makes moot.
      const ignored = options.providerOptions.map((key) =>
        key === 'exporter' ? `exporter "${options.exporter.type}"` : key,
      );
      if (!options.providerOptions.includes('exporter') && options.exporter.type !== 'none') {
        ignored.push(`exporter "${options.exporter.type}"`);
      }
      if (ignored.length > 0) {
        logger.warn(
          `${ignored.join(', ')} ignored: the application registered its own tracer provider`,
        );
      }
      return new TracerProviderHost(trace.getTracer(TRACER_NAME), null, null, null, registered);
    }
    const pipeline = createSpanPipeline(options.exporter, logger);
    const own = createOwnProvider(options, pipeline.processors, logger);
    const tracer = own.provider.getTracer(TRACER_NAME);
    return new TracerProviderHost(
      tracer,
      pipeline.memoryExporter,
      pipeline.dropped,
      own,
      own.provider,
    );
  }

  /**
   * Warms up the SDK's span path (see {@link warmUpSpanAllocation}) after every module has
   * started, when the start-up's own allocation is over, and not while V8 is marking the old
   * generation.
   */
  onApplicationBootstrap(): void {
    const provider = this.provider;
    try {
      // Another application in the process may have warmed the same SDK up meanwhile.
      if (needsWarmUp(provider)) {
        this.marking?.runWhenNotMarking(() => warmUpSpanAllocation(provider));
      } else {
        this.marking?.close();
      }
    } catch (error) {
      // A speed-up only: a runtime or SDK it does not fit must not stop the application.
      new Logger('TracingModule').debug(`SDK warm-up skipped: ${String(error)}`);
    }
  }

  async onModuleDestroy(): Promise<void> {
    this.marking?.close();
    RUNNING_SCOPES.remove(this.scope);
    await this.own?.shutdown();
  }
}

/**
 * The provider the application registered, if it did. The API answers with a proxy provider
 * whether or not one was registered; only a registered one has a delegate other than the API's
 * shared no-op provider, and one another module instance registered does not count.
 */
function registeredProvider(): TracerProvider | undefined {
  const global = trace.getTracerProvider();
  const provider = global instanceof ProxyTracerProvider ? global.getDelegate() : global;
  if (provider === new ProxyTracerProvider().getDelegate() || isOwnProvider(provider)) {
    return undefined;
  }
  return provider;
}

/** A proxy provider that never gets a delegate hands out the API's no-op tracer. */
export function noopTracer(): Tracer {
  return new ProxyTracerProvider().getTracer(TRACER_NAME);
}
