import type { HttpClient, HttpRequest, HttpResponse } from '../../http-client/http-client';
import { NotifyError, reasonForStatus } from '../../notify/notifier';

/** Go's spelling of a method in a client error (`Post "…": …`). */
const goMethod = (method: string) => method[0] + method.slice(1).toLowerCase();

/**
 * Sends one request of a notification. A network error (or the flush deadline) rejects with a
 * retryable {@link NotifyError} that names the method but not the URL, which may hold a secret.
 */
export async function sendRequest(
  client: HttpClient,
  req: HttpRequest & { signal: AbortSignal },
): Promise<HttpResponse> {
  try {
    return await client.send(req);
  } catch (err) {
    const cause = req.signal.aborted ? req.signal.reason : err;
    throw new NotifyError(
      `${goMethod(req.method)} "<redacted>": ${cause instanceof Error ? cause.message : String(cause)}`,
      true,
    );
  }
}

/**
 * Upstream's `Retrier.Check`: a 2xx passes; any other status throws `unexpected status code N:
 * <body>`, retryable for 5xx and for the integration's extra `retryOn` statuses.
 */
export function failOnStatus(res: HttpResponse, retryOn: readonly number[] = []): void {
  if (res.status >= 200 && res.status < 300) return;
  const details = res.body.trim();
  throw new NotifyError(
    `unexpected status code ${res.status}${details ? `: ${details}` : ''}`,
    (res.status >= 500 && res.status < 600) || retryOn.includes(res.status),
    reasonForStatus(res.status),
  );
}

/** Upstream's `TruncateInBytes`: at most `max` UTF-8 bytes, ending in `…` when cut. */
export function truncateBytes(text: string, max: number): string {
  if (Buffer.byteLength(text) <= max) return text;
  const runes = [...text];
  let size = 0;
  let kept = '';
  for (const rune of runes) {
    size += Buffer.byteLength(rune);
    if (size > max - 3) break;
    kept += rune;
  }
  return `${kept}…`;
}

/** Go's JSON encoding of a map: keys sorted. */
export function sortedKeys<T>(map: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(map).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
