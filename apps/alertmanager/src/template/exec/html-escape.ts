import { GoStruct, type Value } from './values';

const HTML_ESCAPES: Record<string, string> = {
  '\0': '\uFFFD',
  '"': '&#34;',
  '&': '&amp;',
  "'": '&#39;',
  '+': '&#43;',
  '<': '&lt;',
  '>': '&gt;',
};

/** `html/template`'s escaper for text and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[\0"&'+<>]/g, (c) => HTML_ESCAPES[c]);
}

const URL_ATTRIBUTES = new Set([
  'href',
  'src',
  'action',
  'cite',
  'background',
  'formaction',
  'poster',
]);
const URL_RESERVED = new Set('!#$&*+,/:;=?@[]');

/** Percent-encodes what `html/template` encodes in URLs; `normalize` keeps reserved characters. */
function escapeUrl(text: string, normalize: boolean): string {
  let out = '';
  for (const byte of Buffer.from(text)) {
    const c = String.fromCharCode(byte);
    const keep = /[A-Za-z0-9\-._~]/.test(c) || (normalize && (URL_RESERVED.has(c) || c === '%'));
    out += keep ? c : `%${byte.toString(16).padStart(2, '0')}`;
  }
  return out;
}

/** `html/template` replaces URLs with an unsafe scheme by this marker. */
const UNSAFE = '#ZgotmplZ';

function filterUrl(text: string): string {
  const scheme = /^([^/:]*):/.exec(text)?.[1];
  if (scheme === undefined) return text;
  return ['http', 'https', 'mailto'].includes(scheme.toLowerCase()) ? text : UNSAFE;
}

/** Where an action's output lands, read from the HTML written before it. */
function context(written: string): { attribute?: string; value: string } | undefined {
  const open = written.lastIndexOf('<');
  if (open < 0 || written.lastIndexOf('>') > open) return undefined;
  const tag = written.slice(open);
  // The lookbehind starts names only where a run of name characters starts: without it, a long
  // run (an escaped label value) is retried from each of its characters, in quadratic time.
  const attr = /(?<![a-zA-Z:-])([a-zA-Z-:]+)\s*=\s*(["'])((?:(?!\2)[^])*)$/.exec(tag);
  if (!attr) return { value: '' };
  return { attribute: attr[1].toLowerCase(), value: attr[3] };
}

/**
 * Escapes an action's output for where it appears in HTML, as Go's `html/template` does:
 * text and attribute values are HTML-escaped; in a URL attribute the value is filtered and
 * normalised at the start of the URL and query-escaped after a `?` or `#`. Values marked safe
 * (`safeHtml`) are written unchanged in text. This reads the context from the output so far,
 * which covers the markup notification templates use (no scripts or styles with actions).
 */
export function escapeForContext(written: string, text: string, value: Value): string {
  const where = context(written);
  if (!where) {
    const safe = value instanceof GoStruct && value.typeName === 'template.HTML';
    return safe ? text : escapeHtml(text);
  }
  if (where.attribute && URL_ATTRIBUTES.has(where.attribute)) {
    if (where.value === '') return escapeHtml(escapeUrl(filterUrl(text), true));
    // After `?`/`#` Go query-escapes, treating a `urlquery` in the pipeline as that escaper;
    // normalising keeps such already-escaped text as it is.
    return escapeHtml(escapeUrl(text, true));
  }
  return escapeHtml(text);
}

/** `html/template` drops HTML comments from template text. */
export function stripHtmlComments(text: string): string {
  return text.replace(/<!--[^]*?-->/g, '');
}
