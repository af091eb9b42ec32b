import type { Logger } from '@nestjs/common';
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  CompositePropagator,
  W3CBaggagePropagator,
  W3CTraceContextPropagator,
} from '@opentelemetry/core';
import {
  defaultResource,
  detectResources,
  envDetector,
  resourceFromAttributes,
} from '@opentelemetry/resources';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { SHUTDOWN_TIMEOUT_MS } from '../tracing.constants';
import type { ResolvedTracingOptions } from '../tracing-options.interface';
import { createSampler } from './sampler.factory';

/** A tracer provider this library built, and how to take it down again. */
export interface OwnProvider {
  provider: NodeTracerProvider;
  /** Flushes and stops the provider (bounded in time) and removes the globals registered for it. */
  shutdown(): Promise<void>;
}

/**
 * The OpenTelemetry globals (provider, context manager, propagator) are one per process. The
 * first module instance that finds none registers its own; later instances in the same process
 * (a second application) build their own provider and share those globals, which stay until the
 * last instance that shares them shuts down, so closing one application leaves the other's
 * context propagation working.
 */
const sharedGlobals = {
  holders: 0,
  registered: { trace: false, context: false, propagation: false },
  providers: new WeakSet<object>(),
};

/** Whether `provider` was built by a module instance of this library. */
export function isOwnProvider(provider: object): boolean {
  return sharedGlobals.providers.has(provider);
}

/**
 * Builds a provider and registers it, an AsyncLocalStorage context manager (without which spans
 * never find their parent) and W3C propagators, each only where no other is registered yet.
 */
export function createOwnProvider(
  options: ResolvedTracingOptions,
  spanProcessors: SpanProcessor[],
  logger: Logger,
): OwnProvider {
  const own = { ...options.resourceAttributes };
  if (options.serviceName) own['service.name'] = options.serviceName;
  // OTEL_RESOURCE_ATTRIBUTES and OTEL_SERVICE_NAME apply unless the options say otherwise.
  const resource = defaultResource()
    .merge(detectResources({ detectors: [envDetector] }))
    .merge(resourceFromAttributes(own));
  const sampler = createSampler(options.sampling);
  const provider = new NodeTracerProvider({ resource, sampler, spanProcessors });
  sharedGlobals.providers.add(provider);
  if (sharedGlobals.holders++ === 0) {
    const contextManager = new AsyncLocalStorageContextManager().enable();
    const propagator = new CompositePropagator({
      propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()],
    });
    sharedGlobals.registered = {
      trace: trace.setGlobalTracerProvider(provider),
      context: context.setGlobalContextManager(contextManager),
      propagation: propagation.setGlobalPropagator(propagator),
    };
    if (!sharedGlobals.registered.context) contextManager.disable();
  }
  let released = false;
  const shutdown = async () => {
    if (!released && --sharedGlobals.holders === 0) {
      const { registered } = sharedGlobals;
      if (registered.trace) trace.disable();
      if (registered.context) context.disable();
      if (registered.propagation) propagation.disable();
    }
    released = true;
    await withTimeout(provider.shutdown(), SHUTDOWN_TIMEOUT_MS).catch((error: unknown) => {
      logger.warn(`tracer provider shutdown failed: ${String(error)}`);
    });
  };
  return { provider, shutdown };
}

/** A dead exporter must not hold up application shutdown. */
async function withTimeout(work: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    timer.unref();
  });
  try {
    await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
