import { STATUS_CODES } from 'node:http';
import { isIPv6 } from 'node:net';
import { failedReadingBody } from '../http-client';

/** The parts of Node's network error that say where it failed. */
interface NetworkError extends Error {
  readonly code?: string;
  readonly address?: string;
  readonly port?: number;
  /** Every address tried, when the host had several. */
  readonly errors?: readonly NetworkError[];
}

/**
 * A failed scrape request as upstream reports it, in Go's words where they are known: a request
 * cut by the scrape timeout is `Get "<url>": context deadline exceeded` (a body cut while read,
 * `context deadline exceeded`), a refused connection `Get "<url>": dial tcp <ip:port>: connect:
 * connection refused`. Other errors keep Node's message.
 */
export function requestErrorText(error: unknown, url: string): string {
  if (typeof error !== 'object' || error === null) return String(error);
  const e = error as NetworkError;
  if (e.name === 'TimeoutError' || e.name === 'AbortError') {
    return failedReadingBody(error)
      ? 'context deadline exceeded'
      : `Get "${url}": context deadline exceeded`;
  }
  if (e.code === 'ECONNREFUSED') {
    // With several addresses, Go reports the first one's failure.
    const first = e.address === undefined ? e.errors?.[0] : e;
    if (first?.address !== undefined && first.port !== undefined) {
      return `Get "${url}": dial tcp ${joinHostPort(first.address, first.port)}: connect: connection refused`;
    }
  }
  return e.message;
}

/** Go's `net.JoinHostPort`: an IPv6 address in brackets. */
function joinHostPort(host: string, port: number): string {
  return isIPv6(host) ? `[${host}]:${port}` : `${host}:${port}`;
}

/** Go's `resp.Status`: `404 Not Found`. */
export function httpStatusText(status: number): string {
  const text = STATUS_CODES[status];
  return text ? `${status} ${text}` : String(status);
}
