export { isValidLabelName, LABEL_NAME_PATTERN, MATCHER_NAME_PATTERN } from './label-name';
export type { LabelSet } from './label-name';
export { Matcher, MATCH_TYPES, escapeMatcherValue } from './matcher';
export type { MatchType } from './matcher';
export { parseMatcher, parseMatchers, MatcherParseError } from './matcher-parser';
export { compareMatchers, formatMatchers, matchesLabels, sortMatchers } from './matchers';
export { NO_MUTER } from './muter';
export type { Muter } from './muter';
export { goQuote } from './go-quote';
export {
  compareGoStrings,
  formatLabelSet,
  labelSetBefore,
  sortedLabelNames,
} from './label-set-format';
