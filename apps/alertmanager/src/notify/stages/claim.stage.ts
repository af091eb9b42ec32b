import type { Alert } from '../../alerts/alert.model';
import type { Logger } from '../../logging/logger';
import type { ReceiverKey } from '../nflog-entry';
import { claimKeyOf, type NotificationClaims } from '../notification-claims';
import type { NotifyContext } from '../notify-context';
import type { NotifyMetrics } from '../notify-metrics';
import type { Stage, StageResult } from '../stage';

/**
 * Sends (through `send`: retry and set-notifies) only the notifications this replica claims:
 * one another replica claimed first is skipped, as the other sends it and its notification log
 * entry reaches this one. A claim lasts until the flush's deadline; a send that fails gives the
 * claim back, so the next flush of any replica sends. When claims cannot be asked for, the
 * notification is sent anyway, and counted.
 */
export class ClaimStage implements Stage {
  constructor(
    private readonly claims: NotificationClaims,
    private readonly receiver: ReceiverKey,
    private readonly send: Stage,
    private readonly metrics: NotifyMetrics,
    private readonly logger?: Logger,
  ) {}

  async exec(ctx: NotifyContext, alerts: Alert[]): Promise<StageResult> {
    const key = claimKeyOf(ctx, this.receiver);
    const outcome = await this.claims.claim(key, Math.max(ctx.deadline - ctx.now, 1000));
    this.metrics.countClaim(this.receiver.integration, outcome);
    if (outcome === 'lost') return { ctx, alerts: [] };
    if (outcome === 'unavailable') {
      this.logger?.warn(
        'Redis did not answer the claim: sending without it, another replica may too',
        {
          group: ctx.groupKey,
          integration: this.receiver.integration,
        },
      );
    }
    try {
      return await this.send.exec(ctx, alerts);
    } catch (error) {
      if (outcome === 'won') await this.claims.release(key);
      throw error;
    }
  }
}
