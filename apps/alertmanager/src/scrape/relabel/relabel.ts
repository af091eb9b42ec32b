import { createHash } from 'node:crypto';
import { isValidLabelName } from '../../labels';
import type { Labels } from '../../tsdb/labels';
import { goToLower, goToUpper } from './go-case';
import type { RelabelConfig } from './relabel-config';
import { WorkingLabels } from './working-labels';

/**
 * Applies the rules in order, as upstream's `relabel.Process`: the relabeled set, or undefined
 * when a rule drops it. A set that no rule changes comes back as the same object.
 */
export function relabel(labels: Labels, configs: readonly RelabelConfig[]): Labels | undefined {
  if (configs.length === 0) return labels;
  const work = new WorkingLabels(labels);
  for (const config of configs) {
    if (!applyRule(config, work)) return undefined;
  }
  return work.result();
}

/** {@link relabel} with its rules bound: the function a scrape pool applies per target or sample. */
export function relabeler(
  configs: readonly RelabelConfig[],
): (labels: Labels) => Labels | undefined {
  if (configs.length === 0) return (labels) => labels;
  return (labels) => relabel(labels, configs);
}

/** One rule on the working set; false when it drops the set. */
function applyRule(c: RelabelConfig, work: WorkingLabels): boolean {
  const val = sourceValue(c, work);
  switch (c.action) {
    case 'drop':
      return !c.regex.matches(val);
    case 'keep':
      return c.regex.matches(val);
    case 'dropequal':
      return work.get(c.targetLabel.source) !== val;
    case 'keepequal':
      return work.get(c.targetLabel.source) === val;
    case 'replace':
      replace(c, val, work);
      return true;
    case 'lowercase':
      work.set(c.targetLabel.source, goToLower(val));
      return true;
    case 'uppercase':
      work.set(c.targetLabel.source, goToUpper(val));
      return true;
    case 'hashmod':
      work.set(c.targetLabel.source, hashMod(val, c.modulus));
      return true;
    case 'labelmap':
      labelMap(c, work);
      return true;
    case 'labeldrop':
    case 'labelkeep':
      labelDropOrKeep(c, work, c.action === 'labeldrop');
      return true;
  }
}

/** The source labels' values joined by the separator (a missing label counts as ''). */
function sourceValue(c: RelabelConfig, work: WorkingLabels): string {
  const names = c.sourceLabels;
  if (names.length === 0) return '';
  let val = work.get(names[0]);
  for (let i = 1; i < names.length; i++) val += c.separator + work.get(names[i]);
  return val;
}

/**
 * `replace`: nothing when the regex does not match. Otherwise the expanded `target_label` gets
 * the expanded `replacement`; an expansion that is not a valid label name skips the rule, and an
 * empty replacement deletes the expanded target. (2.42 deleted the unexpanded `target_label` in
 * both cases; upstream changed that in 2.50.)
 */
function replace(c: RelabelConfig, val: string, work: WorkingLabels): void {
  if (!c.regex.matches(val)) return;
  const target = c.regex.expand(val, c.targetLabel);
  // A literal target was checked when the rule loaded.
  if (!c.targetLabel.isLiteral && !isValidLabelName(target)) return;
  work.set(target, c.regex.expand(val, c.replacement));
}

/**
 * `hashmod`: the MD5 of the value, of which upstream's `sum64` keeps the low 8 bytes (its shifts
 * of the high 8 overflow to zero), big-endian, modulo `modulus`.
 */
function hashMod(val: string, modulus: bigint): string {
  const digest = createHash('md5').update(val, 'utf8').digest();
  return (digest.readBigUInt64BE(8) % modulus).toString();
}

/** `labelmap`: every label whose name matches is copied to the name `replacement` expands to. */
function labelMap(c: RelabelConfig, work: WorkingLabels): void {
  const { names, values } = work.snapshot();
  for (let i = 0; i < names.length; i++) {
    if (c.regex.matches(names[i])) work.set(c.regex.expand(names[i], c.replacement), values[i]);
  }
}

/** `labeldrop` deletes the labels whose name matches, `labelkeep` those whose name does not. */
function labelDropOrKeep(c: RelabelConfig, work: WorkingLabels, drop: boolean): void {
  const { names } = work.snapshot();
  for (const name of names) {
    if (c.regex.matches(name) === drop) work.delete(name);
  }
}
