/**
 * Injection token of the {@link ITracingService}. `Symbol.for` keeps the token identical across
 * copies of this package, so other libraries can inject the service without importing it.
 */
export const TRACING_SERVICE = Symbol.for('redisx.tracing.TracingService');

/**
 * Injection token of the in-memory span exporter: an `InMemorySpanExporter` when the module runs its
 * own provider with `exporter: 'memory'`, otherwise `null`. Meant for tests.
 */
export const TRACING_MEMORY_EXPORTER = Symbol.for('redisx.tracing.MemoryExporter');

/**
 * Injection token of the Redis command metrics (`RedisCommandMetrics`, with its prom-client
 * registry), or `null` when `metrics` is not enabled.
 */
export const TRACING_METRICS = Symbol.for('redisx.tracing.Metrics');

/** Injection token of the validated module options (internal). */
export const TRACING_OPTIONS = Symbol.for('redisx.tracing.Options');

/** Injection token of the tracer provider host (internal). */
export const TRACER_PROVIDER_HOST = Symbol.for('redisx.tracing.TracerProviderHost');

/** Injection token of the Redis command interception (internal). */
export const REDIS_COMMAND_TRACING = Symbol.for('redisx.tracing.RedisCommandTracing');

/** Instrumentation scope name of every span this library starts. */
export const TRACER_NAME = '@redisx/tracing';

/** How long module shutdown waits for the provider to flush before giving up. */
export const SHUTDOWN_TIMEOUT_MS = 5_000;
