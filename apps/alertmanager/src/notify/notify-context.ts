import type { LabelSet } from '../labels';

/** Why the dedup stage decided to notify (upstream HEAD's `notification_reason`). */
export type NotificationReason =
  | 'first notification'
  | 'new alerts added'
  | 'some alerts resolved'
  | 'all alerts resolved'
  | 'repeat interval elapsed';

/**
 * Everything one flush of one aggregation group carries through the pipeline. Stages never
 * read the wall clock: `now` is the timer tick that started the flush.
 */
export interface NotifyContext {
  /** The flush time, epoch milliseconds. */
  readonly now: number;
  /** `<route key>:<group labels>`, e.g. `{}/{team="db"}:{alertname="DB"}`. */
  readonly groupKey: string;
  /** Receiver name (not escaped). */
  readonly receiver: string;
  readonly groupLabels: LabelSet;
  /** Upstream's route ID of the group's route. */
  readonly routeId: string;
  /** Milliseconds. */
  readonly repeatInterval: number;
  readonly muteTimeIntervals: readonly string[];
  readonly activeTimeIntervals: readonly string[];
  /** Epoch milliseconds after which the flush gives up; `signal` aborts then. */
  readonly deadline: number;
  /** Aborted at the deadline or when the dispatcher stops. */
  readonly signal: AbortSignal;
  /** Set by the dedup stage for the integration branch below it. */
  readonly reason?: NotificationReason;
  /** When the log's last notification of this group to the integration was, set by dedup. */
  readonly previousNotification?: number;
  /** The integration's `send_resolved`, set by the dedup stage. */
  readonly sendResolved?: boolean;
  /** Fingerprints of the firing alerts of this flush, set by the dedup stage. */
  readonly firing?: readonly string[];
  /** Fingerprints of the resolved alerts of this flush, set by the dedup stage. */
  readonly resolved?: readonly string[];
}

/** The abort reason of a flush that ran past its deadline. */
export class DeadlineExceededError extends Error {
  constructor() {
    super('context deadline exceeded');
    this.name = 'DeadlineExceededError';
  }
}

/** The abort reason of a flush cancelled because the dispatcher stopped. */
export class CanceledError extends Error {
  constructor() {
    super('context canceled');
    this.name = 'CanceledError';
  }
}
