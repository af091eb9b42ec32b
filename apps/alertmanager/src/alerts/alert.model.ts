import type { LabelSet } from '../labels';
import { GO_ZERO_TIME } from '../time/go-zero-time';

/**
 * An alert as the server holds it. Times are milliseconds since the Unix epoch; Go's zero time
 * (`GO_ZERO_TIME`) stands for "unset", which is how upstream clients such as amtool send an
 * absent time.
 */
export interface Alert {
  labels: LabelSet;
  annotations: LabelSet;
  startsAt: number;
  /** When the alert resolves (or resolved); always set once stored. */
  endsAt: number;
  /** When the server last received this alert. */
  updatedAt: number;
  generatorURL: string;
  /** True when `endsAt` was not sent and was set to `now + resolve_timeout` by the server. */
  timeout: boolean;
  /** 16 lower-case hex digits of the 64-bit FNV-1a hash of the sorted labels, as upstream. */
  fingerprint: string;
}

/** An alert is resolved at `now` when its end is set and not after `now`. */
export function isResolvedAt(alert: Pick<Alert, 'endsAt'>, now: number): boolean {
  return alert.endsAt !== GO_ZERO_TIME && alert.endsAt <= now;
}
