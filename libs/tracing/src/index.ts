export const TRACING_SERVICE = Symbol.for('redisx.tracing.TracingService');
