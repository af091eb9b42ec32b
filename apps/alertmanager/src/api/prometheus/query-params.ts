import { parseExpr, type LabelMatcher } from '../../promql';
import { parseDuration } from '../../time/duration';
import { invalidParam, PrometheusApiError } from './prometheus-reply';

/** Upstream's bounds for an open time range (Go's time limits minus the zero-time offset). */
export const MIN_TIME_MS = -9_223_309_901_257_974_000;
export const MAX_TIME_MS = 9_223_309_901_257_974_000;

/**
 * A timestamp parameter as Prometheus reads one: float seconds (rounded to the millisecond) or
 * RFC 3339; `fallback` when absent or empty.
 */
export function parseTimeParam(name: string, text: string | null, fallback: number): number {
  if (text === null || text === '') return fallback;
  const ms = parseTime(text);
  if (ms === undefined)
    throw invalidParam(name, `cannot parse ${JSON.stringify(text)} to a valid timestamp`);
  return ms;
}

function parseTime(text: string): number | undefined {
  if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text.trim()) && text.trim() === text) {
    const seconds = Number(text);
    const whole = Math.trunc(seconds);
    return whole * 1000 + Math.round((seconds - whole) * 1000);
  }
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(text)) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}

/** A duration parameter (`step`, `timeout`): float seconds or a Prometheus duration, in ms. */
export function parseDurationParam(name: string, text: string): number {
  if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)) return Number(text) * 1000;
  try {
    return parseDuration(text);
  } catch {
    throw invalidParam(name, `cannot parse ${JSON.stringify(text)} to a valid duration`);
  }
}

/**
 * The `match[]` parameters as matcher sets; each must be a series selector with at least one
 * matcher that does not match the empty string, as upstream's `parseMatchersParam`.
 */
export function parseMatchersParam(values: readonly string[]): LabelMatcher[][] {
  const sets = values.map((text) => {
    let expr;
    try {
      expr = parseExpr(text);
    } catch (error) {
      throw new PrometheusApiError('bad_data', (error as Error).message);
    }
    if (expr.kind !== 'vectorSelector' || expr.offsetMs !== 0 || expr.at.kind !== 'none') {
      throw new PrometheusApiError(
        'bad_data',
        `1:1: parse error: ${JSON.stringify(text)} is not a series selector`,
      );
    }
    return [...expr.matchers];
  });
  for (const set of sets) {
    if (!set.some((m) => !m.matches(''))) {
      throw new PrometheusApiError(
        'bad_data',
        'match[] must contain at least one non-empty matcher',
      );
    }
  }
  return sets;
}
