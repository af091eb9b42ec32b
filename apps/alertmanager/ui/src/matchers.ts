// Matchers as people type them, in the API's syntax: `{alertname="Down", severity=~"crit.*"}`,
// the braces optional, values quoted or bare.
import type { ApiMatcher, LabelSet } from './api';

/** A bare label name, as a regular expression's source. */
export const LABEL_NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
/** A matcher's operator, as a regular expression's source (`=~` before `=`). */
export const OPERATOR = '=~|!~|!=|=';

/** A name, bare or quoted; the operator; the value, quoted or bare, spaces around trimmed. */
const MATCHER = new RegExp(
  String.raw`^\s*(${LABEL_NAME}|"(?:[^"\\]|\\.)*")\s*(${OPERATOR})\s*(.*?)\s*$`,
);

/** Splits a matcher list on the commas outside quotes. */
export function splitMatchers(input: string): string[] {
  let text = input.trim();
  if (text.startsWith('{') && text.endsWith('}')) text = text.slice(1, -1);
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\' && quoted) {
      current += c + (text[i + 1] ?? '');
      i++;
      continue;
    }
    if (c === '"') quoted = !quoted;
    if (c === ',' && !quoted) {
      if (current.trim() !== '') parts.push(current.trim());
      current = '';
      continue;
    }
    current += c;
  }
  if (current.trim() !== '') parts.push(current.trim());
  return parts;
}

/** One matcher string as the API's JSON form; throws with what is wrong. */
function parseMatcher(text: string): ApiMatcher {
  const match = MATCHER.exec(text);
  if (!match) throw new Error(`"${text}" is not a matcher such as name="value"`);
  const [, rawName, operator, rawValue] = match;
  const name = rawName.startsWith('"') ? (JSON.parse(rawName) as string) : rawName;
  let value = rawValue;
  if (value.startsWith('"')) {
    if (!value.endsWith('"') || value.length < 2)
      throw new Error(`unterminated quote in "${text}"`);
    value = JSON.parse(value) as string;
  }
  return {
    name,
    value,
    isRegex: operator === '=~' || operator === '!~',
    isEqual: operator === '=' || operator === '=~',
  };
}

/** The matchers of a list, or the first error. */
export function parseMatchers(input: string): ApiMatcher[] {
  return splitMatchers(input).map(parseMatcher);
}

/** The matcher string of the API's JSON form. */
export function formatMatcher(m: ApiMatcher): string {
  const operator = m.isRegex ? (m.isEqual ? '=~' : '!~') : m.isEqual ? '=' : '!=';
  return `${m.name}${operator}${JSON.stringify(m.value)}`;
}

/** Equality matchers for every label of an alert (a silence made from it). */
export function matchersForLabels(labels: LabelSet): ApiMatcher[] {
  return Object.keys(labels)
    .sort()
    .map((name) => ({ name, value: labels[name], isRegex: false, isEqual: true }));
}
