import { RE2JS, RE2JSSyntaxException } from 're2js';
import { applyEdits, sourceQuote, type PatternEdit } from './pattern-edits';
import { scanPattern, type GoOnlyError } from './pattern-scan';
import { RegexpSyntaxError } from './regexp-syntax-error';

/**
 * The largest estimated program (see `PatternScan.cost`), and the longest pattern, handed to
 * re2js. Go allows 3,355,443 instructions, but re2js takes about 5 µs and 1.5 KB per instruction
 * to compile (more for large Unicode classes) and 3 µs per character to parse: this keeps any
 * pattern under about half a second and 150 MB, so that a pattern sent to the API cannot stall
 * the server. Larger ones fail as Go's do, with `expression too large`. Literal patterns that
 * skip re2js (see `fast-paths.ts`) are not bound by it.
 */
export const RE2JS_MAX_COST = 100_000;

/** A pattern compiled by re2js with the names of its capture groups, by number. */
export interface CompiledPattern {
  readonly re: RE2JS;
  readonly groupNames: readonly (string | undefined)[];
}

/**
 * Compiles a Go RE2 pattern with re2js, accepting and refusing what Go's `regexp.Compile`
 * does, with Go's messages (`error parsing regexp: <code>: \`<text>\``) as
 * {@link RegexpSyntaxError}. re2js parses as Go does but for a few places; the scan before it
 * covers those (see `pattern-scan.ts`), and {@link goError} its messages.
 */
export function compileGoPattern(source: string): CompiledPattern {
  const tooLarge = () => new RegexpSyntaxError('expression too large', source);
  if (source.length > RE2JS_MAX_COST) throw tooLarge();
  const scan = scanPattern(source);
  if (scan.goOnlyError) throw earliestError(scan.goOnlyError, scan.edits);
  // A count over Go's limits makes re2js fail while parsing, before the costly compile (and
  // Go report it, where the size of an invalid nesting of counts would mean nothing).
  if (!scan.badRepeatCount && scan.cost > RE2JS_MAX_COST) throw tooLarge();
  return { re: compileEdited(source, scan.edits), groupNames: scan.groupNames };
}

/**
 * Go parses left to right and stops at the first error: a syntax error before a construct that
 * only Go refuses comes first. re2js judges the text before it alike.
 */
function earliestError(goOnly: GoOnlyError, edits: readonly PatternEdit[]): Error {
  if (goOnly.beforeCost > RE2JS_MAX_COST) return goOnly.error;
  try {
    compileEdited(
      goOnly.before,
      edits.filter((e) => e.end <= goOnly.before.length),
    );
  } catch (error) {
    if (!(error instanceof RegexpSyntaxError)) throw error;
    return error;
  }
  return goOnly.error;
}

/**
 * Compiles with the scan's edits: later groups of a repeated name lose it (Go lets groups share
 * a name, re2js refuses it), and a class's `[:` with no `:]` after it becomes `\[:` (the same
 * class to Go, which would otherwise look for `:]` again at each one: quadratic time).
 */
function compileEdited(source: string, edits: readonly PatternEdit[]): RE2JS {
  const edited = applyEdits(source, edits);
  try {
    return RE2JS.compile(edited);
  } catch (error) {
    if (!(error instanceof RE2JSSyntaxException)) throw error;
    throw goError(error, source, edited, edits);
  }
}

/**
 * re2js's error as Go words it: Go quotes the whole pattern for a too deep or too large one, an
 * empty text for a trailing backslash, and a lone `(?<` or `(?P<` at the end is flag syntax
 * to Go. A text quoted from the edited pattern is quoted from the source instead.
 */
function goError(
  error: RE2JSSyntaxException,
  source: string,
  edited: string,
  edits: readonly PatternEdit[],
): RegexpSyntaxError {
  const code = error.error;
  let text = error.input ?? '';
  if (code === 'expression nests too deeply' || code === 'expression too large') text = source;
  if (code === 'trailing backslash at end of expression') text = '';
  if (code === 'invalid named capture' && (text === '(?<' || text === '(?P<')) {
    return new RegexpSyntaxError(
      'invalid or unsupported Perl syntax',
      text === '(?<' ? text : '(?P',
    );
  }
  return new RegexpSyntaxError(code, sourceQuote(text, source, edited, edits));
}
