import { createHash } from 'node:crypto';
import type { Alert } from '../../alerts/alert.model';
import type { AlertListener, AlertStore } from '../../alerts/alert-store';
import type { LabelSet } from '../../labels';

/** A stand-in fingerprint for tests (stable and unique per label set; not upstream's hash). */
export function testFingerprint(labels: LabelSet): string {
  const text = Object.keys(labels)
    .sort()
    .map((k) => `${k}\xff${labels[k]}\xff`)
    .join('');
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/** Builds an alert for tests: firing from `startsAt` until `endsAt` (0 = no end given). */
export function testAlert(labels: LabelSet, fields: Partial<Alert> = {}): Alert {
  return {
    labels,
    annotations: {},
    startsAt: 0,
    endsAt: 0,
    updatedAt: 0,
    generatorURL: '',
    timeout: false,
    fingerprint: testFingerprint(labels),
    ...fields,
  };
}

/** A minimal in-memory {@link AlertStore} for specs: no merging, last write wins. */
export class MemoryAlertStore implements AlertStore {
  private readonly alerts = new Map<string, Alert>();
  private readonly listeners = new Set<AlertListener>();

  async put(alerts: readonly Alert[]): Promise<void> {
    for (const alert of alerts) {
      this.alerts.set(alert.fingerprint, alert);
      for (const listener of this.listeners) listener(alert);
    }
  }

  get(fingerprint: string): Alert | undefined {
    return this.alerts.get(fingerprint);
  }

  list(): Iterable<Alert> {
    return this.alerts.values();
  }

  get size(): number {
    return this.alerts.size;
  }

  subscribe(listener: AlertListener): () => void {
    for (const alert of this.alerts.values()) listener(alert);
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  gc(now: number, canRemove: (alert: Alert) => boolean = () => true): Alert[] {
    const removed: Alert[] = [];
    for (const alert of this.alerts.values()) {
      if (alert.endsAt !== 0 && alert.endsAt <= now && canRemove(alert)) {
        this.alerts.delete(alert.fingerprint);
        removed.push(alert);
      }
    }
    return removed;
  }
}
