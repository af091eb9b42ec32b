import type { LabelMatcher, MatchType } from '../ast';
import { compileAnchoredRe2, compileRe2, RegexpSyntaxError } from '../../re2';
import type { PromqlDialect } from './dialect';

/** Patterns with no regex syntax in them, matched by plain comparison. */
const LITERAL = /^[^\\^$.|?*+()[\]{}]*$/;

/**
 * A label matcher as upstream builds one: regexes are fully anchored and `.` matches newlines
 * (`^(?s:re)$`), with Go's RE2 semantics; 2.42 anchors them as `^(?:re)$`, where `.` does not
 * match a newline. Returns upstream's error message for a bad regex (quoting the anchored text).
 */
export function newLabelMatcher(
  name: string,
  type: MatchType,
  value: string,
  dialect: PromqlDialect = 'v3',
): LabelMatcher | string {
  if (type === '=') return { name, type, value, matches: (v) => v === value };
  if (type === '!=') return { name, type, value, matches: (v) => v !== value };
  let test: (v: string) => boolean;
  if (LITERAL.test(value)) test = (v) => v === value;
  else {
    try {
      if (dialect === 'v2.42') {
        const re = compileAnchoredRe2(value);
        test = (v) => re.matches(v);
      } else {
        const re = compileRe2(`^(?s:${value})$`);
        test = (v) => re.test(v);
      }
    } catch (error) {
      if (error instanceof RegexpSyntaxError) return error.message;
      throw error;
    }
  }
  const matches = type === '=~' ? test : (v: string) => !test(v);
  return { name, type, value, matches };
}
