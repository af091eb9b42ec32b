/**
 * The message Go's `encoding/json` Decoder gives for the first syntax error in `text`, or
 * undefined when the first JSON value is well-formed (the Decoder ignores what follows it).
 * Called only after `JSON.parse` failed, to answer with the text upstream clients expect.
 */
export function goJsonSyntaxError(text: string): string | undefined {
  return scanFirstValue(text).error;
}

/** Scans the first JSON value of `text`: where it ends, or Go's message for its first error. */
export function scanFirstValue(text: string): { end: number; error?: string } {
  let i = 0;
  const eof = Symbol('eof');
  const fail = (where: string): never => {
    throw new SyntaxError(`invalid character ${quoteChar(text[i])} ${where}`);
  };
  const skipSpace = () => {
    while (i < text.length && ' \t\r\n'.includes(text[i])) i++;
  };
  const need = () => {
    if (i >= text.length) throw eof;
  };
  const value = (where: string): void => {
    skipSpace();
    need();
    const c = text[i];
    if (c === '{') return object();
    if (c === '[') return array();
    if (c === '"') return string();
    if (c === '-' || (c >= '0' && c <= '9')) return number();
    for (const word of ['true', 'false', 'null']) {
      if (c !== word[0]) continue;
      for (let k = 1; k < word.length; k++) {
        i++;
        need();
        if (text[i] !== word[k]) fail(`in literal ${word} (expecting '${word[k]}')`);
      }
      i++;
      return;
    }
    fail(where);
  };
  const string = () => {
    for (i++; ; i++) {
      need();
      const c = text[i];
      if (c === '"') return void i++;
      if (c < ' ') fail('in string literal');
      if (c === '\\') {
        i++;
        need();
        if (text[i] === 'u') {
          for (let k = 0; k < 4; k++) {
            i++;
            need();
            if (!/[0-9a-fA-F]/.test(text[i])) fail('in \\u hexadecimal character escape');
          }
        } else if (!'"\\/bfnrt'.includes(text[i])) fail('in string escape code');
      }
    }
  };
  const digits = (where: string) => {
    need();
    if (!/[0-9]/.test(text[i])) fail(where);
    while (i < text.length && /[0-9]/.test(text[i])) i++;
  };
  const number = () => {
    if (text[i] === '-') i++;
    need();
    if (text[i] === '0') i++;
    else digits('in numeric literal');
    if (text[i] === '.') {
      i++;
      digits('after decimal point in numeric literal');
    }
    if (text[i] === 'e' || text[i] === 'E') {
      i++;
      if (text[i] === '+' || text[i] === '-') i++;
      digits('in exponent of numeric literal');
    }
  };
  const array = () => {
    i++;
    skipSpace();
    need();
    if (text[i] === ']') return void i++;
    for (;;) {
      value('looking for beginning of value');
      skipSpace();
      need();
      if (text[i] === ']') return void i++;
      if (text[i] !== ',') fail('after array element');
      i++;
    }
  };
  const object = () => {
    i++;
    skipSpace();
    need();
    if (text[i] === '}') return void i++;
    for (;;) {
      skipSpace();
      need();
      if (text[i] !== '"') fail('looking for beginning of object key string');
      string();
      skipSpace();
      need();
      if (text[i] !== ':') fail('after object key');
      i++;
      value('looking for beginning of value');
      skipSpace();
      need();
      if (text[i] === '}') return void i++;
      if (text[i] !== ',') fail('after object key:value pair');
      i++;
    }
  };
  try {
    value('looking for beginning of value');
    return { end: i };
  } catch (error) {
    return { end: i, error: error === eof ? 'unexpected EOF' : (error as Error).message };
  }
}

/** Go's `quoteChar`: a character in single quotes, escaped as Go would. */
function quoteChar(c: string): string {
  if (c === "'") return `'\\''`;
  if (c === '"') return `'"'`;
  return `'${JSON.stringify(c).slice(1, -1)}'`;
}
