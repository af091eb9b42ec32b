import { NotifyError, reasonForStatus } from '../../notify/notifier';
import type { HttpClient } from '../../http-client/http-client';

/**
 * POSTs a JSON body; resolves on 2xx. A network error is retryable; a status is retryable
 * when `retryable(status)` says so. `what` names the target in errors instead of its URL,
 * which may hold a secret.
 */
export async function postJson(
  client: HttpClient,
  url: string,
  body: unknown,
  signal: AbortSignal,
  retryable: (status: number) => boolean,
): Promise<void> {
  let res;
  try {
    res = await client.send({
      method: 'POST',
      url,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      signal,
    });
  } catch (err) {
    const cause = signal.aborted ? signal.reason : err;
    throw new NotifyError(
      `Post "<redacted>": ${cause instanceof Error ? cause.message : String(cause)}`,
      true,
    );
  }
  if (res.status >= 200 && res.status < 300) return;
  const details = res.body.trim();
  throw new NotifyError(
    `unexpected status code ${res.status}${details ? `: ${details}` : ''}`,
    retryable(res.status),
    reasonForStatus(res.status),
  );
}
