import type { AlertStore } from '../alerts/alert-store';
import type { AlertmanagerConfig } from '../config';
import type { LabelSet } from '../labels';
import type { Muter } from '../labels/muter';
import { InhibitionRule } from './inhibit-rule';

/** Upstream drops resolved alerts from the source caches every 15 minutes. */
export const INHIBITOR_GC_INTERVAL = 15 * 60 * 1000;

/**
 * Mutes alerts that a firing source alert inhibits under `inhibit_rules`. It is fed by the
 * alert store's subscription (so it knows every source alert) and is rebuilt on config reload.
 */
export class Inhibitor implements Muter {
  private readonly rules: InhibitionRule[];
  private unsubscribe: (() => void) | undefined;

  constructor(
    config: Pick<AlertmanagerConfig, 'inhibit_rules'>,
    private readonly store: AlertStore,
  ) {
    this.rules = config.inhibit_rules.map((rule) => new InhibitionRule(rule));
  }

  /** Subscribes to the store; the alerts it already holds are replayed at once. */
  start(): void {
    if (this.unsubscribe || this.rules.length === 0) return;
    this.unsubscribe = this.store.subscribe((alert) => {
      for (const rule of this.rules) rule.observe(alert);
    });
  }

  /** Stops listening to the store. */
  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  /**
   * The fingerprint of the alert inhibiting `labels` at `now` (upstream reports the first one
   * found, by the first rule whose target side matches), or an empty list.
   */
  mutedBy(labels: LabelSet, now: number): string[] {
    for (const rule of this.rules) {
      const source = rule.inhibitedBy(labels, now);
      if (source !== undefined) return [source];
    }
    return [];
  }

  /** Drops resolved source alerts from the caches; call every {@link INHIBITOR_GC_INTERVAL}. */
  gc(now: number): number {
    return this.rules.reduce((sum, rule) => sum + rule.gc(now), 0);
  }
}
