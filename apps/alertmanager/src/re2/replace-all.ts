import type { RE2JS, Matcher } from 're2js';
import { codePointLength } from './pattern-tokens';

/**
 * Go's `Regexp.ReplaceAllString`: replaces each successive non-overlapping match, where an
 * empty match right after a previous match does not count (Go: `a*` on `baaac` gives `XbXcX`,
 * where JavaScript's `replace` gives `XbXXcX`), and expands `template` per match.
 */
export function replaceAllString(
  re: RE2JS,
  groupNames: readonly (string | undefined)[],
  text: string,
  template: string,
): string {
  const m = re.matcher(text);
  let out = '';
  let lastEnd = 0;
  let searchFrom = 0;
  while (searchFrom <= text.length && m.find(searchFrom)) {
    const start = m.start();
    const end = m.end();
    out += text.slice(lastEnd, start);
    if (end > lastEnd || start === 0) out += expand(template, m, groupNames);
    lastEnd = end;
    // Advance past the match, and always by at least one character.
    const width = codePointLength(text, searchFrom);
    if (searchFrom + width > end) searchFrom += width;
    else if (searchFrom + 1 > end) searchFrom++;
    else searchFrom = end;
  }
  return out + text.slice(lastEnd);
}

/**
 * Go's `Regexp.Expand` for one match: `$$` is `$`; `$name` takes the longest run of letters,
 * digits and `_` (so `$1x` is the group named `1x`), `${name}` the braced one; an all-digit name
 * without a leading zero is a group number, any other a group name (the first group of that name
 * that took part in the match). A group that does not exist or did not match expands to nothing;
 * a `$` that starts no valid reference stays as it is.
 */
export function expand(
  template: string,
  m: Matcher,
  groupNames: readonly (string | undefined)[],
): string {
  let out = '';
  let i = 0;
  while (i < template.length) {
    const dollar = template.indexOf('$', i);
    if (dollar < 0) break;
    out += template.slice(i, dollar);
    i = dollar + 1;
    if (template[i] === '$') {
      out += '$';
      i++;
      continue;
    }
    const ref = reference(template, i);
    if (!ref) {
      out += '$';
      continue;
    }
    i = ref.end;
    out += groupText(m, groupNames, ref.name);
  }
  return out + template.slice(i);
}

/** The reference after a `$` at `from`: its name and where it ends, or undefined if malformed. */
function reference(template: string, from: number): { name: string; end: number } | undefined {
  const braced = template[from] === '{';
  const start = braced ? from + 1 : from;
  let end = start;
  while (end < template.length) {
    const ch = String.fromCodePoint(template.codePointAt(end) as number);
    if (!/^[\p{L}\p{Nd}_]$/u.test(ch)) break;
    end += ch.length;
  }
  if (end === start) return undefined;
  if (braced && template[end] !== '}') return undefined;
  return { name: template.slice(start, end), end: braced ? end + 1 : end };
}

function groupText(m: Matcher, groupNames: readonly (string | undefined)[], name: string): string {
  if (/^(0|[1-9][0-9]{0,8})$/.test(name)) {
    const n = Number(name);
    return n <= m.groupCount() ? (m.group(n) ?? '') : '';
  }
  for (let g = 1; g < groupNames.length; g++) {
    if (groupNames[g] === name && m.start(g) >= 0) return m.group(g) ?? '';
  }
  return '';
}
