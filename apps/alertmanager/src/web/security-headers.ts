import { goQuote } from '../labels/go-quote';

/**
 * The response headers a web config may set, and the values allowed for those that are
 * enumerations (an empty list allows any value). The exporter-toolkit keeps this list short on
 * purpose, so that every Prometheus server offers the same; names are matched exactly, so
 * `x-frame-options` is refused as upstream refuses it.
 */
export const CONFIGURABLE_HEADERS: Readonly<Record<string, readonly string[]>> = {
  'Strict-Transport-Security': [],
  'X-Content-Type-Options': ['nosniff'],
  'X-Frame-Options': ['deny', 'sameorigin'],
  'X-XSS-Protection': [],
  'Content-Security-Policy': [],
};

/** Why the header cannot be set as given, in upstream's words; undefined when it can. */
export function headerProblem(name: string, value: string): string | undefined {
  if (!Object.hasOwn(CONFIGURABLE_HEADERS, name)) {
    return `HTTP header ${goQuote(name)} can not be configured`;
  }
  const allowed = CONFIGURABLE_HEADERS[name];
  if (allowed.length === 0 || allowed.includes(value)) return undefined;
  const list = `[${allowed.map(goQuote).join(' ')}]`;
  return `invalid value for ${name}. Expected one of: ${list}, but got: ${goQuote(value)}`;
}
