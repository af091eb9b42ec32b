import type { YamlValue } from './decoder/yaml-value';

/**
 * Checks a `host:port` address the way Go's net.SplitHostPort does (IPv6 hosts in brackets),
 * with upstream's extra rule that the port is not empty. Empty stays undefined.
 */
export function validateHostPort(value: YamlValue): string | undefined {
  const text = value.string();
  if (text === '') return undefined;
  const problem = hostPortProblem(text);
  if (problem) value.fail(problem);
  return text;
}

function hostPortProblem(text: string): string | undefined {
  const q = JSON.stringify(text);
  let port: string;
  if (text.startsWith('[')) {
    const close = text.indexOf(']');
    if (close < 0) return `address ${text}: missing ']' in address`;
    if (text[close + 1] !== ':') return `address ${text}: missing port in address`;
    port = text.slice(close + 2);
  } else {
    const colon = text.lastIndexOf(':');
    if (colon < 0) return `address ${text}: missing port in address`;
    if (text.indexOf(':') !== colon) return `address ${text}: too many colons in address`;
    port = text.slice(colon + 1);
  }
  return port === '' ? `address ${q}: port cannot be empty` : undefined;
}
