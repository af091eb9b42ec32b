/** Names of a Go pattern's capture groups by number (`(?P<name>...)`), for `${name}`. */
function groupNames(pattern: string): Map<string, number> {
  const names = new Map<string, number>();
  let group = 0;
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(') {
      const named = /^\(\?P?<([A-Za-z0-9_]+)>/.exec(pattern.slice(i));
      if (pattern[i + 1] !== '?' || named) group++;
      if (named) names.set(named[1], group);
    }
  }
  return names;
}

/**
 * Go's `Regexp.ReplaceAllString`: `$1`, `${1}`, `$name` and `${name}` expand to groups (an
 * unknown group to nothing; `$1x` names group `1x`), `$$` is a dollar.
 */
export function expandReplacement(
  re: RegExp,
  pattern: string,
  template: string,
  text: string,
): string {
  const names = groupNames(pattern);
  const global = new RegExp(re.source, `${re.flags.replace('g', '')}g`);
  return text.replace(global, (...match: unknown[]) => {
    const offsetAt = match.findIndex((m, i) => i > 0 && typeof m === 'number');
    const groups = match.slice(0, offsetAt) as (string | undefined)[];
    const groupAt = (name: string): string => {
      const index = /^\d+$/.test(name) ? Number(name) : names.get(name);
      return index === undefined ? '' : (groups[index] ?? '');
    };
    return template.replace(
      /\$(\$|\{([A-Za-z0-9_]+)\}|([A-Za-z0-9_]+))/g,
      (all, _x, braced?: string, bare?: string) => {
        if (all === '$$') return '$';
        return groupAt(braced ?? bare ?? '');
      },
    );
  });
}
