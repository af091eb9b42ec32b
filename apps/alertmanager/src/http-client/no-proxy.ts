import { isIP } from 'node:net';
import { BlockList } from 'node:net';

/**
 * Hosts a proxy is bypassed for, read as Go's `golang.org/x/net/http/httpproxy` reads `NO_PROXY`
 * and prometheus/common reads `no_proxy`: comma-separated entries, each `*` (every host), an IP
 * or CIDR, or a domain (`example.com` matches it and its subdomains, `.example.com` and
 * `*.example.com` only subdomains), optionally with `:port`.
 */
export class NoProxy {
  private all = false;
  private readonly cidrs = new BlockList();
  private readonly ips: Array<{ ip: string; port: string }> = [];
  private readonly domains: Array<{ suffix: string; exact: boolean; port: string }> = [];

  constructor(list: string) {
    for (const raw of list.split(',')) {
      const entry = raw.trim().toLowerCase();
      if (entry === '') continue;
      if (entry === '*') {
        this.all = true;
        continue;
      }
      if (this.addCidr(entry)) continue;
      const { host, port } = splitHostPort(entry);
      if (isIP(host)) {
        this.ips.push({ ip: host, port });
        continue;
      }
      if (isIP(entry)) {
        this.ips.push({ ip: entry, port: '' });
        continue;
      }
      let domain = host.startsWith('*.') ? host.slice(1) : host;
      const exact = !domain.startsWith('.');
      if (exact) domain = `.${domain}`;
      this.domains.push({ suffix: domain, exact, port });
    }
  }

  /** Whether a request to `host` (a name or IP, without brackets) on `port` bypasses the proxy. */
  bypasses(host: string, port: string): boolean {
    if (this.all) return true;
    const name = host.toLowerCase();
    const family = isIP(name);
    if (family !== 0) {
      if (this.cidrs.check(name, family === 6 ? 'ipv6' : 'ipv4')) return true;
      return this.ips.some((m) => m.ip === name && (m.port === '' || m.port === port));
    }
    return this.domains.some(
      (m) =>
        (name.endsWith(m.suffix) || (m.exact && name === m.suffix.slice(1))) &&
        (m.port === '' || m.port === port),
    );
  }

  private addCidr(entry: string): boolean {
    const slash = entry.indexOf('/');
    if (slash < 0) return false;
    const address = entry.slice(0, slash);
    const bits = Number(entry.slice(slash + 1));
    const family = isIP(address);
    if (family === 0 || !Number.isInteger(bits)) return false;
    try {
      this.cidrs.addSubnet(address, bits, family === 6 ? 'ipv6' : 'ipv4');
      return true;
    } catch {
      return false;
    }
  }
}

/** Splits `host:port` (or `[v6]:port`); a bare host or IPv6 address has no port. */
function splitHostPort(entry: string): { host: string; port: string } {
  const bracket = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracket) return { host: bracket[1], port: bracket[2] ?? '' };
  const colon = entry.lastIndexOf(':');
  if (colon > 0 && entry.indexOf(':') === colon && /^\d+$/.test(entry.slice(colon + 1)))
    return { host: entry.slice(0, colon), port: entry.slice(colon + 1) };
  return { host: entry, port: '' };
}
