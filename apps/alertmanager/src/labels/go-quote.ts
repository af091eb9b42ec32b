function hex(code: number, width: number): string {
  return code.toString(16).padStart(width, '0');
}

const SIMPLE_ESCAPES: Record<string, string> = {
  '\x07': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
  '\\': '\\\\',
  '"': '\\"',
};

/**
 * Go's `strconv.Quote`: double quotes, the C-style escapes, and `\x`/`\u`/`\U` for
 * characters that are not printable. Printable non-ASCII characters stay as they are.
 */
export function goQuote(value: string): string {
  let out = '"';
  for (const ch of value) {
    const code = ch.codePointAt(0) as number;
    if (SIMPLE_ESCAPES[ch]) out += SIMPLE_ESCAPES[ch];
    else if (code < 0x20 || code === 0x7f) out += `\\x${hex(code, 2)}`;
    else if (code >= 0xd800 && code <= 0xdfff) out += '\\ufffd';
    else if (code >= 0x80 && !/[\p{L}\p{M}\p{N}\p{P}\p{S}\u0020]/u.test(ch)) {
      out += code > 0xffff ? `\\U${hex(code, 8)}` : `\\u${hex(code, 4)}`;
    } else out += ch;
  }
  return `${out}"`;
}
