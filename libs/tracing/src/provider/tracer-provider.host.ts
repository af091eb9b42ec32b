import { Logger, type OnModuleDestroy } from '@nestjs/common';
import { trace, ProxyTracerProvider, type Tracer } from '@opentelemetry/api';
import {
  ConsoleSpanExporter,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { createOwnProvider, type OwnProvider } from './tracer-provider.factory';
import { TRACER_NAME } from './tracing.constants';
import type { ResolvedTracingOptions } from './tracing-options.interface';

/**
 * Holds the tracer the service uses. Uses the application's global tracer provider when there is
 * one; otherwise runs its own provider and releases it, and the API globals it set, on destroy.
 */
export class TracerProviderHost implements OnModuleDestroy {
  private constructor(
    readonly tracer: Tracer,
    readonly memoryExporter: InMemorySpanExporter | null,
    private readonly own: OwnProvider | null,
  ) {}

  /** Picks or builds the provider for `options`. */
  static start(
    options: ResolvedTracingOptions,
    logger = new Logger('TracingModule'),
  ): TracerProviderHost {
    if (!options.enabled) return new TracerProviderHost(noopTracer(), null, null);
    if (isGlobalProviderRegistered()) {
      if (options.exporter !== 'none') {
        logger.warn(
          `exporter "${options.exporter}" ignored: the application registered its own tracer provider`,
        );
      }
      return new TracerProviderHost(trace.getTracer(TRACER_NAME), null, null);
    }
    const memory = options.exporter === 'memory' ? new InMemorySpanExporter() : null;
    const exporter = options.exporter === 'console' ? new ConsoleSpanExporter() : memory;
    const processors = exporter ? [new SimpleSpanProcessor(exporter)] : [];
    const own = createOwnProvider(options.serviceName, processors, logger);
    return new TracerProviderHost(own.provider.getTracer(TRACER_NAME), memory, own);
  }

  async onModuleDestroy(): Promise<void> {
    await this.own?.shutdown();
  }
}

/**
 * The API answers with a proxy provider whether or not one was registered; only a registered one
 * has a delegate other than the API's shared no-op provider.
 */
function isGlobalProviderRegistered(): boolean {
  const global = trace.getTracerProvider();
  if (!(global instanceof ProxyTracerProvider)) return true;
  return global.getDelegate() !== new ProxyTracerProvider().getDelegate();
}

/** A proxy provider that never gets a delegate hands out the API's no-op tracer. */
function noopTracer(): Tracer {
  return new ProxyTracerProvider().getTracer(TRACER_NAME);
}
