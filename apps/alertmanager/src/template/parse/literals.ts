const SIMPLE_ESCAPES: Record<string, string> = {
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  '"': '"',
  "'": "'",
};

/** Go's `strconv.Unquote` for the string forms templates allow: "...", `...` and '.'. */
export function unquote(text: string): string {
  if (text.startsWith('`')) return text.slice(1, -1).replace(/\r/g, '');
  const body = text.slice(1, -1);
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c !== '\\') {
      out += c;
      continue;
    }
    const e = body[++i];
    if (e in SIMPLE_ESCAPES) out += SIMPLE_ESCAPES[e];
    else if (e === 'x' || e === 'u' || e === 'U') {
      const n = e === 'x' ? 2 : e === 'u' ? 4 : 8;
      const hex = body.slice(i + 1, i + 1 + n);
      out +=
        e === 'x'
          ? Buffer.from([parseInt(hex, 16)]).toString('latin1')
          : String.fromCodePoint(parseInt(hex, 16));
      i += n;
    } else if (/[0-7]/.test(e)) {
      out += String.fromCharCode(parseInt(body.slice(i, i + 3), 8));
      i += 2;
    } else out += e;
  }
  return out;
}

/**
 * A number constant as Go's parser types it: a character constant or a number without a
 * fraction or exponent is an int; anything else a float64. Undefined for bad syntax.
 */
export function parseNumber(text: string): { value: number; isFloat: boolean } | undefined {
  if (text.startsWith("'")) {
    const rune = unquote(text);
    return { value: rune.codePointAt(0) ?? 0, isFloat: false };
  }
  const clean = text.replace(/_/g, '');
  const sign = clean.startsWith('-') ? -1 : 1;
  const unsigned = clean.replace(/^[+-]/, '');
  let value: number;
  let isFloat = false;
  if (/^0[xX][0-9a-fA-F]+$/.test(unsigned)) value = parseInt(unsigned.slice(2), 16);
  else if (/^0[bB][01]+$/.test(unsigned)) value = parseInt(unsigned.slice(2), 2);
  else if (/^0[oO]?[0-7]+$/.test(unsigned)) value = parseInt(unsigned.replace(/^0[oO]?/, ''), 8);
  else if (/^\d+$/.test(unsigned)) value = Number(unsigned);
  else if (/^(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(unsigned)) {
    value = Number(unsigned);
    isFloat = true;
  } else return undefined;
  return { value: sign * value, isFloat };
}
