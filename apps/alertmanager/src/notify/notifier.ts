import type { Alert } from '../alerts/alert.model';
import type { NotifyContext } from './notify-context';

/** Failure categories of `alertmanager_notifications_failed_total{reason}`, as upstream. */
export type FailureReason =
  'other' | 'clientError' | 'serverError' | 'contextCanceled' | 'contextDeadlineExceeded';

/** Every failure reason, to pre-create metric series. */
export const FAILURE_REASONS: readonly FailureReason[] = [
  'other',
  'clientError',
  'serverError',
  'contextCanceled',
  'contextDeadlineExceeded',
];

/**
 * A failed delivery. `retryable` is upstream's `(bool, error)` first result: 5xx and network
 * errors are retried, other statuses are not.
 */
export class NotifyError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly reason: FailureReason = 'other',
  ) {
    super(message);
    this.name = 'NotifyError';
  }
}

/** The failure reason upstream derives from an HTTP status (`GetFailureReasonFromStatusCode`). */
export function reasonForStatus(status: number): FailureReason {
  if (status >= 400 && status < 500) return 'clientError';
  if (status >= 500 && status < 600) return 'serverError';
  return 'other';
}

/**
 * Sends one notification. Resolves on success; rejects with a {@link NotifyError} (any other
 * error counts as retryable, like a network error). Must honour `ctx.signal`.
 */
export interface Notifier {
  notify(ctx: NotifyContext, alerts: readonly Alert[]): Promise<void>;
  /** Releases resources such as keep-alive connections, once the notifier is replaced. */
  close?(): void;
}

/** One configured integration of a receiver, e.g. its second webhook (`index` 1). */
export interface Integration {
  /** The integration name, e.g. `webhook`; a metric label. */
  readonly name: string;
  /** Position among the receiver's integrations of the same name. */
  readonly index: number;
  readonly sendResolved: boolean;
  readonly notifier: Notifier;
}
