const SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*:/;
const BAD_ESCAPE = /%(?![0-9a-fA-F]{2})/;
const CONTROL = /[\x00-\x1f\x7f]/;

/**
 * Whether Go's `url.Parse` accepts the text, which is all go-openapi's `uri` format checks: no
 * control characters, valid percent escapes, a scheme before any colon of the first segment,
 * and a numeric port.
 */
export function isUri(text: string): boolean {
  if (CONTROL.test(text) || BAD_ESCAPE.test(text)) return false;
  if (text.startsWith(':')) return false;
  const scheme = SCHEME.exec(text);
  const rest = scheme ? text.slice(scheme[0].length) : text;
  if (!scheme) {
    const firstSegment = rest.split(/[/?#]/)[0];
    if (firstSegment.includes(':')) return false;
  }
  if (rest.startsWith('//')) {
    const authority = rest.slice(2).split(/[/?#]/)[0];
    const host = authority.slice(authority.lastIndexOf('@') + 1);
    const port = /^(\[[^\]]*\]|[^:]*)(?::(.*))?$/.exec(host)?.[2];
    if (port !== undefined && !/^\d*$/.test(port)) return false;
  }
  return true;
}
