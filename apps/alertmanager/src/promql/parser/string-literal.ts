const SIMPLE: Record<string, number> = {
  a: 0x07,
  b: 0x08,
  f: 0x0c,
  n: 0x0a,
  r: 0x0d,
  t: 0x09,
  v: 0x0b,
  '\\': 0x5c,
};

/** Why a quoted string was refused, in Go's words. */
export class StringSyntaxError extends Error {}

/**
 * The value of a PromQL string literal as upstream unquotes it: `"..."` and `'...'` with Go's
 * escapes (`\n`, `\x41`, `\101`, `\u00e9`, `\U0001F600`, and the quote it is delimited by), or
 * a raw `` `...` `` taken as written.
 */
export function unquoteString(quoted: string): string {
  const quote = quoted[0];
  if (quoted.length < 2 || quoted[quoted.length - 1] !== quote) throw invalid();
  const body = quoted.slice(1, -1);
  if (quote === '`') {
    if (body.includes('`')) throw invalid();
    return body.replace(/\r/g, '');
  }
  if (quote !== '"' && quote !== "'") throw invalid();
  if (!body.includes('\\') && !body.includes(quote) && !body.includes('\n')) return body;
  const bytes: number[] = [];
  const text = (value: string) => bytes.push(...Buffer.from(value, 'utf8'));
  for (let i = 0; i < body.length;) {
    const ch = body[i];
    if (ch === quote || ch === '\n') throw invalid();
    if (ch !== '\\') {
      const code = body.codePointAt(i) as number;
      const char = String.fromCodePoint(code);
      text(char);
      i += char.length;
      continue;
    }
    const escape = body[i + 1];
    if (escape === undefined) throw invalid();
    i += 2;
    if (escape in SIMPLE) bytes.push(SIMPLE[escape]);
    else if (escape === quote) bytes.push(quote.charCodeAt(0));
    else if (escape === 'x' || escape === 'u' || escape === 'U') {
      const width = escape === 'x' ? 2 : escape === 'u' ? 4 : 8;
      const digits = body.slice(i, i + width);
      if (!/^[0-9a-fA-F]+$/.test(digits) || digits.length !== width) throw invalid();
      i += width;
      const value = parseInt(digits, 16);
      if (escape === 'x') bytes.push(value);
      else if (value > 0x10ffff || (value >= 0xd800 && value < 0xe000)) throw invalid();
      else text(String.fromCodePoint(value));
    } else if (escape >= '0' && escape <= '7') {
      const digits = body.slice(i - 1, i + 2);
      if (!/^[0-7]{3}$/.test(digits)) throw invalid();
      const value = parseInt(digits, 8);
      if (value > 255) throw invalid();
      bytes.push(value);
      i += 2;
    } else throw invalid();
  }
  return Buffer.from(bytes).toString('utf8');
}

function invalid(): StringSyntaxError {
  return new StringSyntaxError('invalid syntax');
}
