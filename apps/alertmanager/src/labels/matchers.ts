import type { LabelSet } from './label-name';
import { MATCH_TYPES, type Matcher } from './matcher';

/** Orders matchers by name, then value, then operator, as Alertmanager does. */
export function compareMatchers(a: Matcher, b: Matcher): number {
  if (a.name !== b.name) return a.name < b.name ? -1 : 1;
  if (a.value !== b.value) return a.value < b.value ? -1 : 1;
  return MATCH_TYPES.indexOf(a.type) - MATCH_TYPES.indexOf(b.type);
}

/** Returns a sorted copy of the matchers. */
export function sortMatchers(matchers: readonly Matcher[]): Matcher[] {
  return [...matchers].sort(compareMatchers);
}

/** Prints a matcher set as `{a="1",b=~"x"}` (no spaces), the upstream format. */
export function formatMatchers(matchers: readonly Matcher[]): string {
  return `{${matchers.map((m) => m.toString()).join(',')}}`;
}

/** True when every matcher accepts the labels; a missing label compares as the empty string. */
export function matchesLabels(matchers: readonly Matcher[], labels: LabelSet): boolean {
  return matchers.every((m) => m.matches(labels[m.name] ?? ''));
}
