/**
 * Whether a scraper's `Accept` header asks for the OpenMetrics text format rather than
 * Prometheus's: an `application/openmetrics-text` entry whose quality is above zero and not below
 * that of `text/plain`. Prometheus's scraper lists OpenMetrics first, with the higher quality;
 * browsers and curl, which send no such entry, keep getting the Prometheus format.
 */
export function prefersOpenMetrics(accept: string | undefined): boolean {
  if (accept === undefined) return false;
  let openMetrics = 0;
  let plain = 0;
  for (const entry of accept.split(',')) {
    const [type = '', ...parameters] = entry.split(';').map((part) => part.trim().toLowerCase());
    const q = quality(parameters);
    if (type === 'application/openmetrics-text') openMetrics = Math.max(openMetrics, q);
    else if (type === 'text/plain') plain = Math.max(plain, q);
  }
  return openMetrics > 0 && openMetrics >= plain;
}

/** An entry's `q` (1 when absent, 0 when unreadable, as RFC 9110 reads a bad weight). */
function quality(parameters: readonly string[]): number {
  const q = parameters.find((parameter) => parameter.startsWith('q='));
  if (q === undefined) return 1;
  const value = Number(q.slice(2));
  return Number.isFinite(value) && value >= 0 && value <= 1 ? value : 0;
}
