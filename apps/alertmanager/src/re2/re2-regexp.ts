import type { RE2JS } from 're2js';
import { fastAnchoredPattern } from './fast-pattern';
import { fastShape } from './fast-paths';
import { compileGoPattern } from './go-compile';
import type { Re2Pattern } from './re2-pattern';
import { replaceAllString } from './replace-all';

/** A Go RE2 pattern compiled with re2js: what Go's `regexp.Compile` returns, and its methods we use. */
export class Re2Regexp implements Re2Pattern {
  /** @param groupNames the capture groups' names by number (0 is the whole match) */
  constructor(
    readonly source: string,
    private readonly re: RE2JS,
    readonly groupNames: readonly (string | undefined)[],
  ) {}

  test(text: string): boolean {
    return this.re.test(text);
  }

  matches(text: string): boolean {
    return this.re.matches(text);
  }

  /** Go's `ReplaceAllString`: `$1`, `${name}` and `$$` in `template` expand per match. */
  replaceAll(text: string, template: string): string {
    return replaceAllString(this.re, this.groupNames, text, template);
  }
}

/**
 * Compiles a Go RE2 pattern as Go's `regexp.Compile`. Throws {@link RegexpSyntaxError} with
 * Go's message when Go would refuse it.
 */
export function compileRe2(pattern: string): Re2Regexp {
  const { re, groupNames } = compileGoPattern(pattern);
  return new Re2Regexp(pattern, re, groupNames);
}

/**
 * Compiles a label-matching regex the way Alertmanager does: fully anchored as `^(?:re)$`, so
 * errors quote the anchored text, e.g. ``missing closing ): `^(?:()$` ``. Literals, sets of
 * literals and literals around `.*` are matched with string operations; the rest with re2js.
 */
export function compileAnchoredRe2(pattern: string): Re2Pattern {
  const fast = fastAnchoredPattern(pattern);
  if (fast) return fast;
  const anchored = compileRe2(`^(?:${pattern})$`);
  const matches = (text: string): boolean => anchored.test(text);
  return { source: pattern, test: matches, matches };
}

/**
 * Checks a pattern as Go's `regexp.Compile` would, without keeping it: the API validates a
 * silence's regexes unanchored before building its anchored matchers.
 */
export function checkRe2(pattern: string): void {
  if (!fastShape(pattern)) compileGoPattern(pattern);
}
