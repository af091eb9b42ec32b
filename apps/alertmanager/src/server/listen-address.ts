/** A parsed `--web.listen-address`: host (undefined = every interface) and port. */
export interface ListenAddress {
  host: string | undefined;
  port: number;
}

/**
 * Parses Go's `host:port` listen syntax: `:9093`, `0.0.0.0:9093`, `localhost:9093`, `[::1]:9093`.
 * Port 0 asks the kernel for a free port.
 */
export function parseListenAddress(text: string): ListenAddress {
  const match = /^(?:\[([^\]]+)\]|([^:[\]]*)):(\d{1,5})$/.exec(text);
  const port = match ? Number(match[3]) : NaN;
  if (!match || port > 65535) {
    throw new Error(`invalid listen address "${text}": expected host:port, e.g. ":9093"`);
  }
  const host = match[1] ?? match[2];
  return { host: host === '' ? undefined : host, port };
}
