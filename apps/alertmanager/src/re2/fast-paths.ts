/** How one end of an affix pattern is open: not at all, `.*`, or `.+`. */
export type OpenEnd = 'none' | 'star' | 'plus';

/**
 * A pattern simple enough to match without re2js: a set of literals (`a`, `a|b|c`, `(a|b)`),
 * or a literal after and/or before `.*` or `.+` (`prefix.*`, `.*suffix`, `.+part.*`), each
 * optionally `(?i)` for ASCII literals, and `^...$` around it (a no-op in a fully anchored match).
 */
export type FastShape =
  | { readonly kind: 'set'; readonly fold: boolean; readonly literals: readonly string[] }
  | {
      readonly kind: 'affix';
      readonly fold: boolean;
      readonly literal: string;
      readonly left: OpenEnd;
      readonly right: OpenEnd;
    };

type Token =
  { readonly op: '.' | '*' | '+' | '|' | '(' | ')' | '^' | '$' } | { readonly ch: string };

/** Longer patterns exceed Go's program size limit; let the full compile report it. */
const GO_MAX_SIZE = Math.floor((128 << 20) / 40);

/**
 * The fast shape of `pattern` when matched fully anchored (`^(?:pattern)$`), or undefined.
 * A pattern with this shape is valid RE2 by construction, anchored or not. Like Prometheus's
 * `FastRegexMatcher`, it is decided from the pattern's text; anything else goes to re2js.
 */
export function fastShape(pattern: string): FastShape | undefined {
  const fold = pattern.startsWith('(?i)');
  const body = fold ? pattern.slice(4) : pattern;
  if (body.length > GO_MAX_SIZE) return undefined;
  let tokens = tokenize(body);
  if (!tokens) return undefined;
  if (isOp(tokens[0], '^')) tokens = tokens.slice(1);
  if (isOp(tokens[tokens.length - 1], '$')) tokens = tokens.slice(0, -1);
  const inner = tokens.slice(1, -1);
  if (isOp(tokens[0], '(') && isOp(tokens[tokens.length - 1], ')') && !inner.some(isParen)) {
    tokens = inner;
  }
  if (tokens.some((t) => isParen(t) || isOp(t, '^') || isOp(t, '$'))) return undefined;
  if (fold && tokens.some((t) => 'ch' in t && t.ch.charCodeAt(0) >= 0x80)) return undefined;
  const shape = setShape(tokens, fold) ?? affixShape(tokens, fold);
  return shape;
}

function tokenize(text: string): Token[] | undefined {
  const out: Token[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    const code = text.charCodeAt(i);
    // Surrogates (pairs or lone ones, which Go refuses) take the full path.
    if (code >= 0xd800 && code <= 0xdfff) return undefined;
    if (c === '\\') {
      // An escaped ASCII punctuation character is itself, as in Go; other escapes are not literals.
      const next = text.charCodeAt(i + 1);
      if (!(next < 0x80 && !isAlnum(next))) return undefined;
      out.push({ ch: text[++i] });
    } else if (c === '(') {
      if (text[i + 1] === '?') {
        if (!text.startsWith('(?:', i)) return undefined;
        i += 2;
      }
      out.push({ op: '(' });
    } else if (c === '.' || c === '*' || c === '+' || c === '|' || c === ')') {
      out.push({ op: c });
    } else if (c === '^' || c === '$') {
      out.push({ op: c });
    } else if ('?[]{}'.includes(c)) {
      return undefined;
    } else {
      out.push({ ch: c });
    }
  }
  return out;
}

function setShape(tokens: readonly Token[], fold: boolean): FastShape | undefined {
  const literals: string[] = [''];
  for (const t of tokens) {
    if ('ch' in t) literals[literals.length - 1] += fold ? t.ch.toLowerCase() : t.ch;
    else if (t.op === '|') literals.push('');
    else return undefined;
  }
  return { kind: 'set', fold, literals };
}

function affixShape(tokens: readonly Token[], fold: boolean): FastShape | undefined {
  let from = 0;
  let to = tokens.length;
  const left = openEnd(tokens[0], tokens[1]);
  if (left !== 'none') from = 2;
  const right = to - 2 >= from ? openEnd(tokens[to - 2], tokens[to - 1]) : 'none';
  if (right !== 'none') to -= 2;
  if (left === 'none' && right === 'none') return undefined;
  let literal = '';
  for (const t of tokens.slice(from, to)) {
    // A newline in the literal would need the newline rules of `.`: leave it to re2js.
    if (!('ch' in t) || t.ch === '\n') return undefined;
    literal += fold ? t.ch.toLowerCase() : t.ch;
  }
  return { kind: 'affix', fold, literal, left, right };
}

function openEnd(dot: Token | undefined, repeat: Token | undefined): OpenEnd {
  if (!isOp(dot, '.')) return 'none';
  if (isOp(repeat, '*')) return 'star';
  if (isOp(repeat, '+')) return 'plus';
  return 'none';
}

function isOp(t: Token | undefined, op: string): boolean {
  return t !== undefined && 'op' in t && t.op === op;
}

function isParen(t: Token): boolean {
  return isOp(t, '(') || isOp(t, ')');
}

function isAlnum(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}
