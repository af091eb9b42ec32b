import { isResolvedAt, type Alert } from '../alerts/alert.model';
import { inhibitSourceMatchers, inhibitTargetMatchers, type InhibitRule } from '../config';
import { matchesLabels, type LabelSet, type Matcher } from '../labels';

/**
 * One inhibition rule with its cache of source alerts: every alert seen that matches the
 * source side, by fingerprint (resolved ones stay until {@link InhibitionRule.gc}).
 */
export class InhibitionRule {
  readonly sourceMatchers: readonly Matcher[];
  /** Empty matches every alert, as upstream. */
  readonly targetMatchers: readonly Matcher[];
  readonly equal: readonly string[];
  private readonly sources = new Map<string, Alert>();

  constructor(rule: InhibitRule) {
    this.sourceMatchers = inhibitSourceMatchers(rule);
    this.targetMatchers = inhibitTargetMatchers(rule);
    this.equal = [...new Set(rule.equal)];
  }

  /** Records an alert if it is a source of this rule. */
  observe(alert: Alert): void {
    if (matchesLabels(this.sourceMatchers, alert.labels)) {
      this.sources.set(alert.fingerprint, alert);
    }
  }

  /**
   * The fingerprint of a source alert inhibiting `labels` at `now`, if the target side matches:
   * a firing source whose `equal` labels have the same values (a label missing on both sides
   * counts as equal, both being empty). When the target also matches the source side, sources
   * that match the target side are skipped, so that alerts do not inhibit themselves or each
   * other (upstream's rule for two-sided matches).
   */
  inhibitedBy(labels: LabelSet, now: number): string | undefined {
    if (!matchesLabels(this.targetMatchers, labels)) return undefined;
    const twoSided = matchesLabels(this.sourceMatchers, labels);
    for (const source of this.sources.values()) {
      if (isResolvedAt(source, now)) continue;
      if (!this.equal.every((name) => (source.labels[name] ?? '') === (labels[name] ?? ''))) {
        continue;
      }
      if (twoSided && matchesLabels(this.targetMatchers, source.labels)) continue;
      return source.fingerprint;
    }
    return undefined;
  }

  /** Drops cached sources resolved at `now`; returns how many. */
  gc(now: number): number {
    let removed = 0;
    for (const [fingerprint, alert] of this.sources) {
      if (isResolvedAt(alert, now)) {
        this.sources.delete(fingerprint);
        removed++;
      }
    }
    return removed;
  }
}
