import { isValidLabelName } from '../labels';
import type { YamlValue } from './decoder/yaml-value';
import {
  combineMatchers,
  decodeMatchers,
  decodeMatchMap,
  decodeMatchReMap,
} from './matchers.decoder';
import type { InhibitRule } from './model/inhibit-rule.model';
import type { Matcher } from '../labels';

const KEYS = [
  'name',
  'source_match',
  'source_match_re',
  'source_matchers',
  'target_match',
  'target_match_re',
  'target_matchers',
  'equal',
] as const;

/** Decodes one `inhibit_rules` entry, accepting both the matcher-list and deprecated map forms. */
export function decodeInhibitRule(value: YamlValue): InhibitRule {
  const r = value.object(KEYS);
  const equal = r.get('equal').list();
  for (const item of equal) {
    const name = item.string();
    if (!isValidLabelName(name))
      item.fail(`invalid label name ${JSON.stringify(name)} in equal list`);
  }
  return {
    name: r.optionalString('name'),
    source_match: decodeMatchMap(r.get('source_match')),
    source_match_re: decodeMatchReMap(r.get('source_match_re')),
    source_matchers: decodeMatchers(r.get('source_matchers')),
    target_match: decodeMatchMap(r.get('target_match')),
    target_match_re: decodeMatchReMap(r.get('target_match_re')),
    target_matchers: decodeMatchers(r.get('target_matchers')),
    equal: equal.map((item) => item.string()),
  };
}

/** All source-side matchers of a rule (deprecated maps included), sorted. */
export function inhibitSourceMatchers(rule: InhibitRule): Matcher[] {
  return combineMatchers(rule.source_match, rule.source_match_re, rule.source_matchers);
}

/** All target-side matchers of a rule (deprecated maps included), sorted. */
export function inhibitTargetMatchers(rule: InhibitRule): Matcher[] {
  return combineMatchers(rule.target_match, rule.target_match_re, rule.target_matchers);
}
