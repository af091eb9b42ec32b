/** What Go's `mime.ParseMediaType` makes of a header value: the media type, or its error. */
export type ParsedMediaType = { mediaType: string } | { error: string };

// RFC 1521 tspecials plus space and controls: what may not appear in a token.
const TSPECIALS = '()<>@,;:\\"/[]?=';

function isTokenChar(c: string): boolean {
  const code = c.charCodeAt(0);
  return code > 0x20 && code < 0x7f && !TSPECIALS.includes(c);
}

function consumeToken(v: string): [token: string, rest: string] {
  let i = 0;
  while (i < v.length && isTokenChar(v[i])) i++;
  return [v.slice(0, i), v.slice(i)];
}

/** A token, or a quoted string with backslash escapes; `''` with `v` unchanged when neither. */
function consumeValue(v: string): [value: string, rest: string] {
  if (!v.startsWith('"')) return consumeToken(v);
  let value = '';
  for (let i = 1; i < v.length; i++) {
    const c = v[i];
    if (c === '"') return [value, v.slice(i + 1)];
    if (c === '\\' && i + 1 < v.length && isTokenChar(v[i + 1])) {
      value += v[++i];
    } else if (c === '\r' || c === '\n') {
      return ['', v];
    } else {
      value += c;
    }
  }
  return ['', v];
}

/** One `; name=value` parameter; an empty name means none could be read at the start of `v`. */
function consumeParam(v: string): [name: string, rest: string] {
  const start = v.trimStart();
  if (!start.startsWith(';')) return ['', v];
  const [name, afterName] = consumeToken(start.slice(1).trimStart());
  if (name === '') return ['', v];
  let rest = afterName.trimStart();
  if (!rest.startsWith('=')) return ['', v];
  rest = rest.slice(1).trimStart();
  const [value, after] = consumeValue(rest);
  if (value === '' && after === rest) return ['', v];
  return [name.toLowerCase(), after];
}

function mediaTypeError(mediaType: string): string | undefined {
  const [type, rest] = consumeToken(mediaType);
  if (type === '') return 'mime: no media type';
  if (rest === '') return undefined;
  if (!rest.startsWith('/')) return 'mime: expected slash after first token';
  const [subtype, after] = consumeToken(rest.slice(1));
  if (subtype === '') return 'mime: expected token after slash';
  if (after !== '') return 'mime: unexpected content after media subtype';
  return undefined;
}

/**
 * Parses a `Content-Type` value as Go's `mime.ParseMediaType` does, with its error texts: the
 * media type lower-cased and trimmed, parameters checked (a trailing `;` is allowed, a repeated
 * name is not). RFC 2231 continuations (`name*0=`) are read as plain names.
 */
export function parseMediaType(value: string): ParsedMediaType {
  const semicolon = value.indexOf(';');
  const base = semicolon === -1 ? value : value.slice(0, semicolon);
  const mediaType = base.trim().toLowerCase();
  const error = mediaTypeError(mediaType);
  if (error !== undefined) return { error };
  const seen = new Set<string>();
  let rest = value.slice(base.length);
  while (rest.length > 0) {
    rest = rest.trimStart();
    if (rest.length === 0) break;
    const [name, after] = consumeParam(rest);
    if (name === '') {
      if (rest.trim() === ';') break;
      return { error: 'mime: invalid media parameter' };
    }
    if (seen.has(name)) return { error: 'mime: duplicate parameter name' };
    seen.add(name);
    rest = after;
  }
  return { mediaType };
}
