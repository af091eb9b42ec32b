import type { Matcher } from '../../labels';

/**
 * One `inhibit_rules` entry. The deprecated `*_match`/`*_match_re` maps are kept as written;
 * use {@link inhibitSourceMatchers} / {@link inhibitTargetMatchers} to get the combined lists.
 */
export interface InhibitRule {
  name?: string;
  source_match: Record<string, string>;
  source_match_re: Record<string, string>;
  source_matchers: Matcher[];
  target_match: Record<string, string>;
  target_match_re: Record<string, string>;
  target_matchers: Matcher[];
  equal: string[];
}
