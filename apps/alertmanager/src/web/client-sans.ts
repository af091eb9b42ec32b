import { isIPv6 } from 'node:net';

// One `TYPE:value` entry of Node's subjectAltName text; values with special characters are
// JSON-quoted by Node, others run to the next ", ".
const ENTRY = /(DNS|IP Address|email|URI|[A-Za-z ]+):("(?:[^"\\]|\\.)*"|[^,]*)(?:, |$)/y;

/**
 * The Subject Alternative Names of a certificate as the toolkit compares them with
 * `client_allowed_sans`: DNS names, e-mail addresses, IP addresses (IPv6 in Go's short form)
 * and URIs. `altNames` is Node's `subjectAltName` text (`DNS:a, IP Address:127.0.0.1`).
 */
export function subjectAltNames(altNames: string | undefined): string[] {
  const names: string[] = [];
  if (!altNames) return names;
  ENTRY.lastIndex = 0;
  let match: RegExpExecArray | null;
  while (ENTRY.lastIndex < altNames.length && (match = ENTRY.exec(altNames)) !== null) {
    const [, type, raw] = match;
    const value = raw.startsWith('"') ? (JSON.parse(raw) as string) : raw;
    if (type === 'IP Address') names.push(isIPv6(value) ? shortIPv6(value) : value);
    else if (type === 'DNS' || type === 'email' || type === 'URI') names.push(value);
  }
  return names;
}

/** Whether a certificate with these SANs is one `client_allowed_sans` lets in. */
export function hasAllowedSan(altNames: string | undefined, allowed: readonly string[]): boolean {
  return subjectAltNames(altNames).some((name) => allowed.includes(name));
}

/** RFC 5952 form (`::1`), which Go's `net.IP.String()` prints and WHATWG URLs serialise to. */
function shortIPv6(address: string): string {
  return new URL(`http://[${address}]/`).hostname.slice(1, -1);
}
