import { Matcher, isValidLabelName, parseMatchers, sortMatchers } from '../labels';
import type { YamlValue } from './decoder/yaml-value';

/** Decodes a `matchers` list: each item may hold several comma-separated matchers. */
export function decodeMatchers(value: YamlValue): Matcher[] {
  const matchers = value.list().flatMap((item) => {
    try {
      return parseMatchers(item.string());
    } catch (err) {
      return item.fail((err as Error).message);
    }
  });
  return sortMatchers(matchers);
}

/** Decodes a deprecated `match` map: keys must be valid label names. */
export function decodeMatchMap(value: YamlValue): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, item] of value.entries()) {
    if (!isValidLabelName(name)) item.fail(`invalid label name ${JSON.stringify(name)}`);
    out[name] = item.string();
  }
  return out;
}

/** Decodes a deprecated `match_re` map: valid label names and RE2 regexes. */
export function decodeMatchReMap(value: YamlValue): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, item] of value.entries()) {
    if (!isValidLabelName(name)) item.fail(`invalid label name ${JSON.stringify(name)}`);
    if (item.isNull) item.fail(`invalid regexp value for ${JSON.stringify(name)}`);
    try {
      out[name] = new Matcher('=~', name, item.string()).value;
    } catch (err) {
      item.fail((err as Error).message);
    }
  }
  return out;
}

/**
 * Combines deprecated `match` / `match_re` maps and a `matchers` list into one sorted list,
 * the form dispatch and inhibition work with. A `match_re` value becomes the anchored pattern
 * upstream compiles it to, `^(?:<value>)$`: that text is what group keys (and so webhook
 * payloads and PagerDuty dedup keys) and the routing tree show, as upstream's do.
 */
export function combineMatchers(
  match: Record<string, string>,
  matchRe: Record<string, string>,
  matchers: readonly Matcher[],
): Matcher[] {
  return sortMatchers([
    ...Object.entries(match).map(([name, value]) => new Matcher('=', name, value)),
    ...Object.entries(matchRe).map(([name, value]) => new Matcher('=~', name, `^(?:${value})$`)),
    ...matchers,
  ]);
}
