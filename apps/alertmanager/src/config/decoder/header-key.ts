/**
 * Go's textproto.CanonicalMIMEHeaderKey: `x-custom-header` becomes `X-Custom-Header`. A key
 * with characters that are not valid in a header name is returned unchanged, as in Go.
 */
export function canonicalHeaderKey(key: string): string {
  if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(key)) return key;
  return key
    .split('-')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase())
    .join('-');
}
