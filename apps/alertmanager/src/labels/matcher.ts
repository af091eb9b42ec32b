import { compileAnchoredRe2, type Re2Pattern } from '../re2';

/** The four matcher operators, in Alertmanager's sort order. */
export const MATCH_TYPES = ['=', '!=', '=~', '!~'] as const;

/** A matcher operator: equal, not equal, regex match, negative regex match. */
export type MatchType = (typeof MATCH_TYPES)[number];

/** Characters that force a label name to be quoted when printed (as upstream's `isReserved`). */
const RESERVED_IN_NAME = /[\s{}!=~,\\"'`]/u;

/** Escapes a value the OpenMetrics way: backslash, newline and double quote. */
export function escapeMatcherValue(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

/**
 * One label matcher such as `severity=~"critical|page"`. Regex values are Go RE2 syntax and
 * always anchored at both ends, so `=~"a"` matches only `a`, never `abc`; they are matched in
 * time linear in the value (see `re2/`), whatever the pattern.
 */
export class Matcher {
  private readonly regexp: Re2Pattern | undefined;

  /** Throws RegexpSyntaxError (Go's text) when a regex matcher's value does not compile. */
  constructor(
    readonly type: MatchType,
    readonly name: string,
    readonly value: string,
  ) {
    this.regexp = type === '=~' || type === '!~' ? compileAnchoredRe2(value) : undefined;
    // Keep the compiled regexp out of equality checks and JSON, which should see only the text.
    Object.defineProperty(this, 'regexp', { enumerable: false });
  }

  /** Whether the matcher is a regex matcher (`=~` or `!~`). */
  get isRegex(): boolean {
    return this.regexp !== undefined;
  }

  /** Whether the matcher is positive (`=` or `=~`), as the API's `isEqual` flag. */
  get isEqual(): boolean {
    return this.type === '=' || this.type === '=~';
  }

  /** Matches one label value; callers pass `''` for a missing label, as upstream does. */
  matches(value: string): boolean {
    switch (this.type) {
      case '=':
        return value === this.value;
      case '!=':
        return value !== this.value;
      case '=~':
        return (this.regexp as Re2Pattern).matches(value);
      case '!~':
        return !(this.regexp as Re2Pattern).matches(value);
    }
  }

  /** Prints `name="value"`, quoting the name too when it holds characters the parser reserves. */
  toString(): string {
    if (RESERVED_IN_NAME.test(this.name)) {
      return `${JSON.stringify(this.name)}${this.type}${JSON.stringify(this.value)}`;
    }
    return `${this.name}${this.type}"${escapeMatcherValue(this.value)}"`;
  }

  /** Serialises as the matcher string, which is also how config files spell matchers. */
  toJSON(): string {
    return this.toString();
  }
}
