import { diag } from '@opentelemetry/api';

const reported = new Set<string>();

/**
 * Runs an application's hook (`spans.requestHook`, `http.responseHook`, ...) so that what it
 * throws never reaches the traced call: the first failure of each option is reported through
 * OpenTelemetry's diagnostic logger, as OpenTelemetry's instrumentations do, and later ones
 * are dropped silently so a broken hook cannot flood the log.
 */
export function runHook(option: string, hook: () => void): void {
  try {
    hook();
  } catch (error) {
    if (reported.has(option)) return;
    reported.add(option);
    diag.warn(`@redisx/tracing: option "${option}" threw, the span is kept without it`, error);
  }
}
