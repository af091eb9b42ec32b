import { performance } from 'node:perf_hooks';
import { isResolvedAt, type Alert } from '../../alerts/alert.model';
import type { Logger } from '../../logging/logger';
import type { Clock } from '../../time/clock';
import { ExponentialBackoff } from '../backoff';
import { NotifyError, type FailureReason, type Integration } from '../notifier';
import { DeadlineExceededError, type NotifyContext } from '../notify-context';
import type { NotifyMetrics } from '../notify-metrics';
import type { NotificationHistory } from '../notification-history';
import type { Sleep } from '../sleep';
import type { Stage, StageResult } from '../stage';

/** What the retry stage needs besides its integration. */
export interface RetryDeps {
  clock: Clock;
  sleep: Sleep;
  metrics: NotifyMetrics;
  logger: Logger;
  /** Jitter source; `Math.random` by default. */
  random?: () => number;
  /** Where each notification's outcome is kept for people to read. */
  history?: NotificationHistory;
}

/** A notification that failed for good; `reason` is the failed-notifications metric label. */
export class NotificationFailedError extends Error {
  constructor(
    message: string,
    readonly reason: FailureReason,
  ) {
    super(message);
    this.name = 'NotificationFailedError';
  }
}

/**
 * Calls an integration's notifier until it succeeds, it fails with a non-retryable error, or the
 * flush's deadline passes: the first attempt at once, then after exponential backoff with jitter.
 * Without `send_resolved`, resolved alerts are left out; a batch with nothing firing then counts
 * as sent without a request, so the notification log still records it (upstream behaviour).
 */
export class RetryStage implements Stage {
  private readonly label: string;

  constructor(
    private readonly integration: Integration,
    private readonly groupName: string,
    private readonly deps: RetryDeps,
  ) {
    this.label = integration.name;
  }

  async exec(ctx: NotifyContext, alerts: Alert[]): Promise<StageResult> {
    this.deps.metrics.notifications.labels(this.label).inc();
    const startedAt = this.deps.clock.now();
    const tally = { attempts: 0 };
    const sending = this.toSend(ctx, alerts);
    try {
      if (sending !== undefined) {
        await this.send(ctx, sending, tally);
        this.remember(ctx, sending, startedAt, tally.attempts);
      }
    } catch (err) {
      const reason = err instanceof NotificationFailedError ? err.reason : 'other';
      this.deps.metrics.notificationsFailed.labels(this.label, reason).inc();
      // What the failed requests carried, as for a success.
      this.remember(ctx, sending ?? alerts, startedAt, tally.attempts, err);
      throw err;
    }
    return { ctx, alerts };
  }

  /**
   * The alerts a notification carries: without `send_resolved`, the firing ones only, and none
   * (undefined: nothing to send) when nothing is firing.
   */
  private toSend(ctx: NotifyContext, alerts: Alert[]): Alert[] | undefined {
    if (this.integration.sendResolved) return alerts;
    if ((ctx.firing ?? []).length === 0) return undefined;
    return alerts.filter((a) => !isResolvedAt(a, ctx.now));
  }

  /** Keeps the outcome in the notification history, when there is one. */
  private remember(
    ctx: NotifyContext,
    alerts: Alert[],
    startedAt: number,
    attempts: number,
    error?: unknown,
  ): void {
    this.deps.history?.record({
      at: this.deps.clock.now(),
      startedAt,
      receiver: this.groupName,
      integration: this.integration.name,
      index: this.integration.index,
      groupKey: ctx.groupKey,
      groupLabels: ctx.groupLabels,
      reason: ctx.reason ?? '',
      alerts: alerts.map((alert) => ({
        fingerprint: alert.fingerprint,
        status: isResolvedAt(alert, ctx.now) ? 'resolved' : 'firing',
        labels: alert.labels,
      })),
      attempts,
      outcome: error === undefined ? 'success' : 'failed',
      error: error === undefined ? '' : error instanceof Error ? error.message : String(error),
    });
  }

  /** Sends `sent` until it is delivered; throws when it cannot be. */
  private async send(
    ctx: NotifyContext,
    sent: Alert[],
    tally: { attempts: number },
  ): Promise<void> {
    const name = `${this.groupName}/${this.integration.name}[${this.integration.index}]`;
    const log = this.deps.logger.with({ receiver: this.groupName, integration: name });
    const backoff = new ExponentialBackoff(this.deps.random);
    let last: NotifyError | undefined;
    for (let attempt = 1; ; attempt++) {
      if (ctx.signal.aborted) {
        const cause = ctx.signal.reason;
        const reason: FailureReason =
          last?.reason ??
          (cause instanceof DeadlineExceededError ? 'contextDeadlineExceeded' : 'contextCanceled');
        const message = last?.message ?? String(cause?.message ?? cause);
        throw new NotificationFailedError(
          `${name}: notify retry canceled after ${attempt - 1} attempts: ${message}`,
          reason,
        );
      }
      tally.attempts = attempt;
      const err = await this.attempt(ctx, sent);
      if (!err) {
        const fields = { attempts: attempt };
        if (attempt <= 1) log.debug('Notify success', fields);
        else log.info('Notify success', fields);
        return;
      }
      if (!err.retryable) {
        throw new NotificationFailedError(
          `${name}: notify retry canceled due to unrecoverable error after ${attempt} attempts: ${err.message}`,
          err.reason,
        );
      }
      if (!ctx.signal.aborted) {
        if (last?.message !== err.message) {
          log.warn('Notify attempt failed, will retry later', {
            attempts: attempt,
            err: err.message,
          });
        }
        last = err;
      }
      await this.deps.sleep(this.deps.clock.now() + backoff.next(), ctx.signal);
    }
  }

  /** One request; returns its error, network errors being retryable. */
  private async attempt(ctx: NotifyContext, alerts: Alert[]): Promise<NotifyError | undefined> {
    const { metrics } = this.deps;
    const started = performance.now();
    try {
      await this.integration.notifier.notify(ctx, alerts);
      return undefined;
    } catch (err) {
      metrics.requestsFailed.labels(this.label).inc();
      if (err instanceof NotifyError) return err;
      return new NotifyError(err instanceof Error ? err.message : String(err), true);
    } finally {
      metrics.latency.labels(this.label).observe((performance.now() - started) / 1000);
      metrics.requests.labels(this.label).inc();
    }
  }
}
