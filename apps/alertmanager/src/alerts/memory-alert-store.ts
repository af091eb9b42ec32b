import type { Clock } from '../time/clock';
import type { AlertListener, AlertStore } from './alert-store';
import { isResolvedAt, type Alert } from './alert.model';
import { mergeAlerts, overlaps } from './alert-merge';

/**
 * The in-memory alert store: one map from fingerprint to alert. `put` merges each alert with the
 * stored one when their activity ranges overlap, stores the result and tells every subscriber.
 */
export class MemoryAlertStore implements AlertStore {
  private readonly alerts = new Map<string, Alert>();
  private readonly listeners = new Set<AlertListener>();

  constructor(private readonly clock: Clock) {}

  get size(): number {
    return this.alerts.size;
  }

  put(alerts: readonly Alert[]): Promise<void> {
    this.merge(alerts);
    return Promise.resolve();
  }

  /** `put` without the promise: merges, stores, notifies, and returns what was stored. */
  merge(alerts: readonly Alert[]): Alert[] {
    const now = this.clock.now();
    const stored: Alert[] = [];
    for (const incoming of alerts) {
      const old = this.alerts.get(incoming.fingerprint);
      const alert = old && overlaps(old, incoming) ? mergeAlerts(old, incoming, now) : incoming;
      this.alerts.set(alert.fingerprint, alert);
      stored.push(alert);
      for (const listener of this.listeners) listener(alert);
    }
    return stored;
  }

  /** Puts alerts back as they were (after a restart): no merging, no notifications. */
  restore(alert: Alert): void {
    this.alerts.set(alert.fingerprint, alert);
  }

  /** Drops an alert without notifying anyone (replaying a deletion). */
  forget(fingerprint: string): void {
    this.alerts.delete(fingerprint);
  }

  get(fingerprint: string): Alert | undefined {
    return this.alerts.get(fingerprint);
  }

  list(): Iterable<Alert> {
    return this.alerts.values();
  }

  subscribe(listener: AlertListener): () => void {
    // A listener added twice would be called twice per alert; wrap it so each call is distinct.
    const own: AlertListener = (alert) => listener(alert);
    for (const alert of [...this.alerts.values()]) own(alert);
    this.listeners.add(own);
    return () => this.listeners.delete(own);
  }

  gc(now: number, canRemove: (alert: Alert) => boolean = () => true): Alert[] {
    const removed: Alert[] = [];
    for (const [fp, alert] of this.alerts) {
      if (isResolvedAt(alert, now) && canRemove(alert)) {
        this.alerts.delete(fp);
        removed.push(alert);
      }
    }
    return removed;
  }
}
