import type { LineCounter, YAMLError } from 'yaml';
import { missingColonLine } from './go-yaml-missing-colon';

/**
 * Upstream reads its configuration with Go's yaml.v2, whose syntax errors users know by heart
 * (`yaml: line 3: mapping values are not allowed in this context`). The parser here reports the
 * same mistakes in its own words and places; this turns one of its errors into yaml.v2's text.
 *
 * yaml.v2 numbers lines in two ways: an error of its scanner (a token that cannot be read) names
 * the 1-based line of the offending character, an error of its parser (tokens in the wrong
 * order) the 0-based one, so one less than the line a reader counts; and where that number is 0,
 * no line is named at all.
 */
export function goYamlSyntaxError(text: string, error: YAMLError, lines: LineCounter): string {
  const at = lines.linePos(error.pos[0]);
  const message = error.message;
  const problem = (kind: 'scanner' | 'parser', line: number, what: string) => {
    const shown = kind === 'scanner' ? line : line - 1;
    // A scanner error on the first line is reported without its line, as yaml.v2 does.
    const named = kind === 'scanner' ? line > 1 : shown > 0;
    return named ? `yaml: line ${shown}: ${what}` : `yaml: ${what}`;
  };
  const source = text.split(/\r?\n/);
  switch (error.code) {
    case 'BLOCK_AS_IMPLICIT_KEY':
    case 'MULTILINE_IMPLICIT_KEY': {
      const missing = missingColonLine(source, at.line, at.col - 1);
      if (missing !== undefined) return problem('scanner', missing, "could not find expected ':'");
      if (message.startsWith('A block sequence'))
        return problem('parser', at.line, expectedEntry(source, at.line, at.col));
      // The scanner reads on to the `:` that cannot start a mapping value where it stands.
      const colon = colonLineFrom(source, at.line, at.col);
      if (colon !== undefined)
        return problem('scanner', colon, 'mapping values are not allowed in this context');
      return problem('parser', at.line, expectedEntry(source, at.line, at.col));
    }
    case 'BAD_INDENT':
      if (message.startsWith('Flow sequence'))
        return problem('parser', at.line, "did not find expected ',' or ']'");
      if (message.startsWith('Flow map'))
        return problem('parser', at.line, "did not find expected ',' or '}'");
      return problem('parser', at.line, expectedEntry(source, at.line, at.col));
    case 'UNEXPECTED_TOKEN':
      return problem('parser', at.line, expectedEntry(source, at.line, at.col));
    case 'TAB_AS_INDENT':
    case 'BAD_SCALAR_START':
      return problem('scanner', at.line, 'found character that cannot start any token');
    case 'MISSING_CHAR':
      if (message.startsWith('Missing closing'))
        return problem('scanner', at.line, 'found unexpected end of stream');
      // A key without its `:` is noticed on a line after it.
      return problem(
        'scanner',
        missingColonLine(source, at.line, at.col - 1) ?? at.line + 1,
        "could not find expected ':'",
      );
    case 'BAD_DIRECTIVE':
      return problem('scanner', at.line, 'found unknown directive name');
    default:
      return `yaml: line ${at.line}: ${message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '')}`;
  }
}

/**
 * What yaml.v2's parser expected where a line broke the block it is in: the next `-` entry of a
 * block sequence, or the next key of a block mapping. The block is the one of the nearest line
 * above (or the line itself, when the problem is after its start) indented no deeper.
 */
function expectedEntry(source: readonly string[], line: number, col: number): string {
  const own = source[line - 1] ?? '';
  const indent = (l: string) => l.length - l.trimStart().length;
  if (col > indent(own) + 1 && own.trim() !== '') {
    return own.trimStart().startsWith('- ')
      ? "did not find expected '-' indicator"
      : 'did not find expected key';
  }
  // The broken line's own indentation, where the problem is reported at or before its content.
  const depth = Math.max(col - 1, own.trim() === '' ? 0 : indent(own));
  for (let i = line - 2; i >= 0; i--) {
    const l = source[i];
    if (l.trim() === '' || l.trimStart().startsWith('#')) continue;
    if (indent(l) > depth) continue;
    return l.trimStart().startsWith('-')
      ? "did not find expected '-' indicator"
      : 'did not find expected key';
  }
  return 'did not find expected key';
}

/** The line of the first `:` followed by a blank or the line's end, from a position on. */
function colonLineFrom(source: readonly string[], line: number, col: number): number | undefined {
  for (let i = line - 1; i < source.length; i++) {
    const text = i === line - 1 ? source[i].slice(col - 1) : source[i];
    if (i > line - 1 && text.trimStart().startsWith('-')) return undefined;
    if (/:(\s|$)/.test(text.replace(/#.*$/, ''))) return i + 1;
  }
  return undefined;
}
