import { Logger } from '@nestjs/common';

/**
 * What to do when an OpenTelemetry instrumentation of the same library is active in the process
 * (`@opentelemetry/instrumentation-ioredis`, `-redis`, `-http`): `defer` leaves the spans to it
 * (this module's metrics still count the commands), `replace` removes its wrappers and traces here.
 */
export type OtherInstrumentationsMode = 'defer' | 'replace';

/** A method as OpenTelemetry's instrumentations leave it wrapped (their shimmer's marks). */
interface ShimmerWrapped {
  __wrapped?: unknown;
  __original?: unknown;
  __unwrap?: () => void;
}

/** The methods of `target` an OpenTelemetry instrumentation has wrapped. */
export function wrappedByOthers(target: object | undefined, methods: readonly string[]): string[] {
  if (target === undefined) return [];
  const host = target as Record<string, unknown>;
  return methods.filter((method) => {
    const value = host[method];
    const fn = value as ShimmerWrapped | undefined;
    return (
      typeof value === 'function' &&
      fn?.__wrapped === true &&
      typeof fn?.__original === 'function' &&
      typeof fn?.__unwrap === 'function'
    );
  });
}

/** Puts back the originals of `methods` under their OpenTelemetry wrappers. */
export function unwrapOthers(target: object, methods: readonly string[]): void {
  const host = target as Record<string, ShimmerWrapped | undefined>;
  for (const method of methods) host[method]?.__unwrap?.();
}

const logger = new Logger('TracingModule');

/**
 * Says once per instrumented library what was found and what was done about it; the process's
 * drivers are shared, so a second application in it would only repeat the first one's message.
 */
const reported = new Set<string>();

export function reportOtherInstrumentation(
  instrumentation: string,
  library: string,
  mode: OtherInstrumentationsMode,
): void {
  const key = `${instrumentation} ${mode}`;
  if (reported.has(key)) return;
  reported.add(key);
  logger.warn(
    mode === 'defer'
      ? `${instrumentation} is active: ${library} is traced by it, not by this module (its metrics still count); set otherInstrumentations: 'replace' to trace ${library} here instead`
      : `${instrumentation} is active: its ${library} wrappers were removed and this module traces ${library} (otherInstrumentations: 'replace')`,
  );
}
