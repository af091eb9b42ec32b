import type { RuleGroup } from './rule-file';

/** Two rules that would write the same series: the name (record or alert) and the same labels. */
export interface DuplicateRule {
  readonly name: string;
  readonly labels: readonly [string, string][];
}

/**
 * promtool's `duplicate-rules` lint: rules across the groups of a file sharing a name and labels,
 * each reported once, in name then labels order.
 */
export function duplicateRules(groups: readonly RuleGroup[]): DuplicateRule[] {
  const rules = groups.flatMap((g) =>
    g.rules.map((r) => ({
      name: r.kind === 'alerting' ? r.alert : r.record,
      labels: Object.entries(r.labels).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    })),
  );
  const key = (r: DuplicateRule) => JSON.stringify([r.name, r.labels]);
  rules.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  const duplicates: DuplicateRule[] = [];
  for (let i = 1; i < rules.length; i++) {
    if (key(rules[i]) !== key(rules[i - 1])) continue;
    const last = duplicates[duplicates.length - 1];
    if (last === undefined || key(last) !== key(rules[i])) duplicates.push(rules[i]);
  }
  return duplicates;
}
