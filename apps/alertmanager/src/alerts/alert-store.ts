import type { Alert } from './alert.model';

/** Called with every alert the store accepts (after merging), in the order accepted. */
export type AlertListener = (alert: Alert) => void;

/**
 * The alert store: alerts keyed by fingerprint. The API writes to it; the dispatcher subscribes.
 * Implementations may persist, but the in-memory view is always current once `put` returns.
 */
export interface AlertStore {
  /** Merges each alert with the stored one of the same fingerprint and stores the result. */
  put(alerts: readonly Alert[]): Promise<void>;
  get(fingerprint: string): Alert | undefined;
  /** All stored alerts, in no particular order. */
  list(): Iterable<Alert>;
  readonly size: number;
  /**
   * Calls `listener` for every alert already stored, synchronously, then for each one accepted
   * later. Returns the function that stops the subscription.
   */
  subscribe(listener: AlertListener): () => void;
  /** Removes alerts resolved at `now` for which `canRemove` agrees; returns the removed ones. */
  gc(now: number, canRemove?: (alert: Alert) => boolean): Alert[];
}

/** Injection token for {@link AlertStore}. */
export const AlertStore = Symbol('AlertStore');
