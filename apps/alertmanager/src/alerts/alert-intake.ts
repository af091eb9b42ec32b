import { nextTurn } from '../time/next-turn';
import type { Clock } from '../time/clock';
import { ingestAlerts, type PostedAlert } from './alert-ingest';
import type { AlertStore } from './alert-store';
import type { AlertLimits } from './alert-validation';
import type { AlertsMetrics } from './alerts-metrics';

/** Alerts ingested between two turns of the event loop. */
const INGEST_SLICE = 1000;

/** What {@link AlertIntake} is built from; functions are read per batch so reloads apply. */
export interface AlertIntakeDeps {
  store: AlertStore;
  clock: Clock;
  /** `global.resolve_timeout` of the running config, in ms. */
  resolveTimeout: () => number;
  /** Bounds on one alert's size; none when absent. */
  limits?: AlertLimits;
  metrics?: AlertsMetrics;
}

/** Accepted alerts that could not be made durable: the sender should try again. */
export class AlertStorageError extends Error {
  override readonly name = 'AlertStorageError';

  constructor(cause: unknown) {
    super(`failed to store the alerts: ${(cause as Error).message}`);
  }
}

/**
 * Where posted alerts enter the server, whichever API version they came through: upstream's
 * ingestion rules, then the store, answered once the valid alerts are on disk.
 */
export class AlertIntake {
  constructor(private readonly deps: AlertIntakeDeps) {}

  /**
   * Ingests and stores the valid alerts; returns the messages of the invalid ones once the valid
   * ones are on disk, or rejects with {@link AlertStorageError}. A long batch is taken in slices
   * with a turn of the event loop between them, so that other requests are answered meanwhile.
   */
  async post(posted: readonly PostedAlert[]): Promise<string[]> {
    const now = this.deps.clock.now();
    const resolveTimeout = this.deps.resolveTimeout();
    const errors: string[] = [];
    const stored: Array<Promise<void>> = [];
    for (let from = 0; from < posted.length; from += INGEST_SLICE) {
      if (from > 0) await nextTurn();
      const slice = posted.length > INGEST_SLICE ? posted.slice(from, from + INGEST_SLICE) : posted;
      const result = ingestAlerts(slice, now, resolveTimeout, this.deps.limits);
      this.deps.metrics?.record(result);
      for (const error of result.errors) errors.push(error);
      if (result.valid.length === 0) continue;
      const put = this.deps.store.put(result.valid);
      // Awaited below with the others; a failure must not go unobserved until then.
      put.catch(() => undefined);
      stored.push(put);
    }
    try {
      await Promise.all(stored);
    } catch (error) {
      throw new AlertStorageError(error);
    }
    return errors;
  }
}
