/**
 * Where yaml.v2 reports a block mapping's key that has no `:` (`could not find expected ':'`),
 * or `undefined` where it reports something else.
 *
 * yaml.v2's scanner requires a key written at the column of a block mapping already open (a
 * sibling key above it) to be followed by its `:` on the same line. It notices the `:` is
 * missing when it has read past that line: at the next line that is not blank, where the key's
 * text ends (a comment line, or a line indented no deeper than the key), or at the `:` of a
 * deeper line that its text runs on to. A key that opens its mapping is not required, and
 * yaml.v2 words its mistake otherwise (`mapping values are not allowed in this context`).
 *
 * `line` is 1-based, `col` the 0-based column of the key's first character.
 */
export function missingColonLine(
  source: readonly string[],
  line: number,
  col: number,
): number | undefined {
  if (!opensNoMapping(source, line, col)) return undefined;
  const end = source[source.length - 1] === '' ? source.length : source.length + 1;
  let commentEnded = hasTrailingComment(source[line - 1].slice(col));
  for (let i = line + 1; i <= source.length; i++) {
    const text = source[i - 1];
    if (text.trim() === '') continue;
    if (commentEnded) {
      // The key's text ended at a comment: the scanner skips comments to the next token.
      if (!text.trimStart().startsWith('#')) return i;
      continue;
    }
    if (text.trimStart().startsWith('#') || indent(text) <= col) return i;
    // A deeper line goes on with the key's text, up to a `:` or a comment.
    if (/:(\s|$)/.test(stripComment(text))) return i;
    commentEnded = hasTrailingComment(text);
  }
  return end;
}

/** Whether a sibling key above, in the same block mapping, has opened it at column `col`. */
function opensNoMapping(source: readonly string[], line: number, col: number): boolean {
  const own = source[line - 1] ?? '';
  if (keyColumn(own) !== col) return false;
  for (let i = line - 2; i >= 0; i--) {
    const text = source[i];
    if (text.trim() === '' || text.trimStart().startsWith('#')) continue;
    if (indent(text) > col) continue;
    const entry = keyColumn(text);
    const isKey = /^[^#]*?:(\s|$)/.test(text.slice(entry));
    if (entry === col && isKey) return true;
    // An entry of a sequence at the mapping's column (`key:` then `- item`) leaves it open.
    if (indent(text) === col && text.trimStart().startsWith('-')) continue;
    return false;
  }
  return false;
}

/** The column of a line's first key or value, after its `- ` sequence indicators. */
function keyColumn(text: string): number {
  return /^(\s*(?:-\s+)*)/.exec(text)?.[1].length ?? 0;
}

function indent(text: string): number {
  return text.length - text.trimStart().length;
}

function hasTrailingComment(text: string): boolean {
  return /\s#/.test(text);
}

function stripComment(text: string): string {
  return text.replace(/\s#.*$/, '');
}
