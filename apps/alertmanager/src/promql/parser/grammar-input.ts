/** Names the query language accepts in any case before `(`, which the grammar knows only in lower case. */
const CASE_FREE = new Set(['step', 'range', 'min_of', 'max_of']);

/**
 * The query as handed to the grammar: the same length (so every position still points into the
 * original), with the few spellings upstream's lexer accepts and the grammar does not rewritten:
 * `STEP()` and friends lower-cased, a number's trailing dot (`2.`) blanked, and a comment ended
 * at a `\r`.
 */
export function grammarInput(input: string): string {
  const out = input.split('');
  let i = 0;
  while (i < input.length) {
    const ch = input[i];
    if (ch === '"' || ch === "'" || ch === '`') {
      i = skipString(input, i);
      continue;
    }
    if (ch === '#') {
      while (i < input.length && input[i] !== '\n' && input[i] !== '\r') i++;
      // Upstream's comment ends at a `\r` too; the grammar's only at a `\n`.
      if (input[i] === '\r') out[i] = '\n';
      continue;
    }
    const word = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(input.slice(i, i + 64));
    if (word) {
      const lower = word[0].toLowerCase();
      if (CASE_FREE.has(lower) && /^\s*\(/.test(input.slice(i + word[0].length))) {
        for (let k = 0; k < lower.length; k++) out[i + k] = lower[k];
      }
      i += word[0].length;
      continue;
    }
    const number = /^[0-9][0-9_]*\.(?![0-9.])/.exec(input.slice(i, i + 64));
    if (number && !/[a-zA-Z_]/.test(input[i + number[0].length] ?? '')) {
      out[i + number[0].length - 1] = ' ';
      i += number[0].length;
      continue;
    }
    const digits = /^[0-9a-zA-Z_.]+/.exec(input.slice(i, i + 64));
    i += digits ? digits[0].length : 1;
  }
  return out.join('');
}

/** Function names the grammar reads only inside durations, and same-length stand-ins it reads anywhere. */
export const STAND_INS: ReadonlyMap<string, string> = new Map([
  ['min_of', 'minute'],
  ['max_of', 'minute'],
]);

function skipString(input: string, at: number): number {
  const quote = input[at];
  let i = at + 1;
  while (i < input.length && input[i] !== quote) {
    if (input[i] === '\\' && quote !== '`') i++;
    i++;
  }
  return i + 1;
}
