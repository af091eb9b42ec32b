import { RE2JS, RE2JSSyntaxException } from 're2js';
import { scanPattern, type GoOnlyError, type RepeatedName } from './pattern-scan';
import { RegexpSyntaxError } from './regexp-syntax-error';

/**
 * The largest estimated program (see `PatternScan.cost`) handed to re2js. Go allows 3,355,443
 * instructions, but re2js takes about 10 µs and 2 KB per instruction to compile (more for large
 * Unicode classes): this keeps compiling any pattern under about a second and 300 MB, so that a
 * pattern sent to the API cannot stall the server. Larger ones fail as Go's do, with
 * `expression too large`. Literal patterns that skip re2js (see `fast-paths.ts`) are not bound
 * by it.
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
  const scan = scanPattern(source);
  if (scan.goOnlyError) throw earliestError(scan.goOnlyError, scan.repeatedNames);
  // A count over Go's limits makes re2js fail while parsing, before the costly compile.
  if (!scan.badRepeatCount && scan.cost > RE2JS_MAX_COST) {
    throw new RegexpSyntaxError('expression too large', source);
  }
  return { re: compileRenamed(source, scan.repeatedNames), groupNames: scan.groupNames };
}

/**
 * Go parses left to right and stops at the first error: a syntax error before a construct that
 * only Go refuses comes first. re2js judges the text before it alike.
 */
function earliestError(goOnly: GoOnlyError, repeatedNames: readonly RepeatedName[]): Error {
  if (goOnly.beforeCost > RE2JS_MAX_COST) return goOnly.error;
  const names = repeatedNames.filter((n) => n.end <= goOnly.before.length);
  try {
    compileRenamed(goOnly.before, names);
  } catch (error) {
    if (!(error instanceof RegexpSyntaxError)) throw error;
    return error;
  }
  return goOnly.error;
}

/**
 * Go lets several groups share a name (`$name` then means the first that matched); re2js
 * refuses it, so later groups of a name lose it (`(?P<n>` becomes `(`), which keeps the numbers.
 */
function compileRenamed(source: string, repeatedNames: readonly RepeatedName[]): RE2JS {
  let text = source;
  for (let i = repeatedNames.length - 1; i >= 0; i--) {
    const { start, end } = repeatedNames[i];
    text = `${text.slice(0, start)}(${text.slice(end)}`;
  }
  try {
    return RE2JS.compile(text);
  } catch (error) {
    if (!(error instanceof RE2JSSyntaxException)) throw error;
    throw goError(error, source, text, repeatedNames);
  }
}

/**
 * re2js's error as Go words it: Go quotes the whole pattern for a too deep or too large one, an
 * empty text for a trailing backslash, and a lone `(?<` or `(?P<` at the end is flag syntax
 * to Go. A text quoted from the renamed pattern is quoted from the source instead.
 */
function goError(
  error: RE2JSSyntaxException,
  source: string,
  renamed: string,
  repeatedNames: readonly RepeatedName[],
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
  if (repeatedNames.length > 0 && renamed.endsWith(text) && text !== '') {
    text = source.slice(sourceIndex(renamed.length - text.length, repeatedNames));
  }
  return new RegexpSyntaxError(code, text);
}

/** Maps an index of the renamed pattern back to the source. */
function sourceIndex(index: number, repeatedNames: readonly RepeatedName[]): number {
  let shift = 0;
  for (const { start, end } of repeatedNames) {
    if (start - shift >= index) break;
    shift += end - start - 1;
  }
  return index + shift;
}
