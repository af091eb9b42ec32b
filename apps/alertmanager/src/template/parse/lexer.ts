import { TemplateError } from '../template-error';

/** The kinds of token the lexer produces, as Go's `text/template/parse` items. */
export type TokenKind =
  | 'text'
  | 'leftDelim'
  | 'rightDelim'
  | 'space'
  | 'identifier'
  | 'keyword'
  | 'field'
  | 'variable'
  | 'declare'
  | 'assign'
  | 'pipe'
  | 'comma'
  | 'leftParen'
  | 'rightParen'
  | 'string'
  | 'rawString'
  | 'char'
  | 'number'
  | 'bool'
  | 'nil'
  | 'dot'
  | 'comment'
  | 'eof';

/** One token: its kind, its source text and where it starts (byte offset into the template). */
export interface Token {
  kind: TokenKind;
  text: string;
  pos: number;
}

const KEYWORDS = new Set([
  'if',
  'else',
  'end',
  'range',
  'with',
  'define',
  'template',
  'block',
  'break',
  'continue',
]);
const SPACE = /[ \t\r\n]/;
const ALNUM = /[\p{L}\p{N}_]/u;

/**
 * Splits a template into tokens: text outside actions, then each action's tokens between its
 * delimiters. `{{-` and `-}}` trim the white space of the neighbouring text, as Go does.
 */
export function lex(name: string, input: string): Token[] {
  const tokens: Token[] = [];
  let pos = 0;
  let trimNext = false;
  const fail = (at: number, message: string): never => {
    throw TemplateError.parse(name, input, at, message);
  };
  while (pos < input.length) {
    const open = input.indexOf('{{', pos);
    const end = open < 0 ? input.length : open;
    const trimLeft = open >= 0 && /^\{\{-[ \t\r\n]/.test(input.slice(open, open + 4));
    let text = input.slice(pos, end);
    let start = pos;
    if (trimNext) {
      const trimmed = text.replace(/^[ \t\r\n]+/, '');
      start += text.length - trimmed.length;
      text = trimmed;
    }
    if (trimLeft) text = text.replace(/[ \t\r\n]+$/, '');
    if (text) tokens.push({ kind: 'text', text, pos: start });
    if (open < 0) break;
    pos = lexAction(input, open, trimLeft, tokens, fail);
    trimNext = tokens[tokens.length - 1].text === '-}}';
  }
  tokens.push({ kind: 'eof', text: '', pos: input.length });
  return tokens;
}

function lexAction(
  input: string,
  open: number,
  trimLeft: boolean,
  tokens: Token[],
  fail: (at: number, message: string) => never,
): number {
  let pos = open + (trimLeft ? 3 : 2);
  // A comment fills the whole action: {{/* ... */}} with optional trim markers.
  if (trimLeft) pos++;
  if (input.startsWith('/*', pos)) {
    const close = input.indexOf('*/', pos + 2);
    if (close < 0) fail(open, 'unclosed comment');
    let after = close + 2;
    const trimRight = rightTrimAt(input, after);
    if (trimRight) after += 1;
    if (!input.startsWith(trimRight ? '-}}' : '}}', after))
      fail(open, 'comment ends before closing delimiter');
    tokens.push({ kind: 'comment', text: input.slice(open, after), pos: open });
    const closeText = trimRight ? '-}}' : '}}';
    tokens.push({ kind: 'rightDelim', text: closeText, pos: after });
    return after + closeText.length;
  }
  if (trimLeft) pos--;
  tokens.push({ kind: 'leftDelim', text: trimLeft ? '{{-' : '{{', pos: open });
  let parens = 0;
  for (;;) {
    if (rightTrimAt(input, pos) || input.startsWith('}}', pos)) {
      if (rightTrimAt(input, pos)) {
        tokens.push({ kind: 'space', text: ' ', pos });
        pos++;
      }
      if (parens > 0) fail(pos, 'unclosed left paren');
      const text = input.startsWith('-}}', pos) ? '-}}' : '}}';
      tokens.push({ kind: 'rightDelim', text, pos });
      return pos + text.length;
    }
    if (pos >= input.length) fail(pos, 'unclosed action');
    const c = input[pos];
    const start = pos;
    const push = (kind: TokenKind, length: number) => {
      tokens.push({ kind, text: input.slice(start, start + length), pos: start });
      pos = start + length;
    };
    if (SPACE.test(c)) {
      let n = 0;
      while (pos + n < input.length && SPACE.test(input[pos + n]) && !rightTrimAt(input, pos + n))
        n++;
      if (n === 0) n = 1;
      push('space', n);
    } else if (c === '/' && input.startsWith('/*', pos)) {
      fail(pos, 'comment ends before closing delimiter');
    } else if (c === ':') {
      if (input[pos + 1] !== '=') fail(pos, 'expected :=');
      push('declare', 2);
    } else if (c === '=') push('assign', 1);
    else if (c === '|') push('pipe', 1);
    else if (c === ',') push('comma', 1);
    else if (c === '(') {
      parens++;
      push('leftParen', 1);
    } else if (c === ')') {
      parens--;
      if (parens < 0) fail(pos, `unexpected right paren ${JSON.stringify(')')}`);
      push('rightParen', 1);
    } else if (c === '"') push('string', quotedLength(input, pos, '"', fail));
    else if (c === '`') {
      const close = input.indexOf('`', pos + 1);
      if (close < 0) fail(pos, 'unterminated raw quoted string');
      push('rawString', close + 1 - pos);
    } else if (c === "'") push('char', quotedLength(input, pos, "'", fail));
    else if (c === '$') push('variable', 1 + identLength(input, pos + 1));
    else if (c === '.') {
      if (/[0-9]/.test(input[pos + 1] ?? '')) push('number', numberLength(input, pos));
      else {
        const n = identLength(input, pos + 1);
        push(n === 0 ? 'dot' : 'field', 1 + n);
      }
    } else if (/[0-9+-]/.test(c)) {
      const n = numberLength(input, pos);
      if (n === 0) fail(pos, `bad character ${JSON.stringify(c)}`);
      push('number', n);
    } else if (ALNUM.test(c)) {
      const n = identLength(input, pos);
      const word = input.slice(pos, pos + n);
      const kind: TokenKind = KEYWORDS.has(word)
        ? 'keyword'
        : word === 'true' || word === 'false'
          ? 'bool'
          : word === 'nil'
            ? 'nil'
            : 'identifier';
      push(kind, n);
    } else fail(pos, `unexpected ${JSON.stringify(c)} in command`);
  }
}

/** Go's right trim marker: one white-space character, then `-}}`. */
function rightTrimAt(input: string, pos: number): boolean {
  return SPACE.test(input[pos] ?? '') && input.startsWith('-}}', pos + 1);
}

function identLength(input: string, pos: number): number {
  let n = 0;
  while (pos + n < input.length && ALNUM.test(input[pos + n])) n++;
  return n;
}

function numberLength(input: string, pos: number): number {
  const match =
    /^[+-]?(0[xX][0-9a-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+|(\d[\d_]*)?\.?\d*([eE][+-]?\d+)?)/.exec(
      input.slice(pos),
    );
  const text = match?.[0] ?? '';
  return /\d/.test(text) ? text.length : 0;
}

function quotedLength(
  input: string,
  pos: number,
  quote: string,
  fail: (at: number, message: string) => never,
): number {
  for (let i = pos + 1; i < input.length; i++) {
    if (input[i] === '\\') i++;
    else if (input[i] === '\n') break;
    else if (input[i] === quote) return i + 1 - pos;
  }
  return fail(
    pos,
    quote === '"' ? 'unterminated quoted string' : 'unterminated character constant',
  );
}
