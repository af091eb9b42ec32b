import { compileAnchoredRe2, compileRe2, type Re2Pattern, type Re2Regexp } from '../../re2';
import type { ExpandTemplate } from './expand-template';

/** Upstream's default `regex`. */
const DEFAULT_SOURCE = '(.*)';

/**
 * A relabeling `regex`, anchored as Prometheus 2.x's `relabel.NewRegexp` does (`^(?:regex)$`,
 * so errors quote the anchored text), and compiled with RE2. Matching uses the RE2 module's
 * string fast paths for literals and alternations of literals; expansion uses a full RE2
 * compile, made only for the actions that expand.
 *
 * The default `(.*)` is one shared instance that needs no RE2 at all: it matches any text
 * without a newline (`.` does not match one in 2.x; Prometheus 3 anchors with `(?s:`), with
 * both groups 0 and 1 the whole text. Rules compare against it by identity as upstream
 * compares the pointer: `regex: (.*)` written out is not the default for `keepequal`.
 *
 * Other regexes remember their last answer for each question: on the scrape path a rule sees
 * the same value many times in a row (a target label on every sample, a metric name on each of
 * its series), and an RE2 expansion costs about ten times a match.
 */
export class RelabelRegexp {
  /** The regex of a rule that does not set one. */
  static readonly DEFAULT = new RelabelRegexp(DEFAULT_SOURCE, undefined, undefined);

  private constructor(
    /** The regex as written, without the anchors. */
    readonly source: string,
    private readonly pattern: Re2Pattern | undefined,
    private readonly expander: Re2Regexp | undefined,
  ) {}

  private lastMatched: { text: string; matches: boolean } | undefined;
  private readonly lastExpanded = new Map<ExpandTemplate, { text: string; result: string }>();

  /** Compiles `source` for matching; throws `RegexpSyntaxError` with Go's message. */
  static compile(source: string): RelabelRegexp {
    return new RelabelRegexp(source, compileAnchoredRe2(source), undefined);
  }

  /** This regex, ready for {@link expand} too (compiled once more, as a whole RE2 program). */
  forExpansion(): RelabelRegexp {
    if (this.pattern === undefined || this.expander !== undefined) return this;
    return new RelabelRegexp(this.source, this.pattern, compileRe2(`^(?:${this.source})$`));
  }

  /** Whether the regex matches all of `text`. */
  matches(text: string): boolean {
    if (this.pattern === undefined) return !text.includes('\n');
    if (this.lastMatched?.text !== text) {
      this.lastMatched = { text, matches: this.pattern.matches(text) };
    }
    return this.lastMatched.matches;
  }

  /**
   * Go's `ExpandString` of `template` with the match of `text`, which must match (see
   * {@link matches}). The anchored regex matches all of `text` once, so Go's `ReplaceAllString`
   * on it is that expansion.
   */
  expand(text: string, template: ExpandTemplate): string {
    if (template.literal !== undefined) return template.literal;
    if (this.pattern === undefined) return template.expandWhole(text);
    if (this.expander === undefined) throw new Error('relabel regex not compiled for expansion');
    let last = this.lastExpanded.get(template);
    if (last?.text !== text) {
      last = { text, result: this.expander.replaceAll(text, template.source) };
      this.lastExpanded.set(template, last);
    }
    return last.result;
  }
}
