import type { Logger } from '../logging/logger';
import type { Clock } from '../time/clock';
import type { TimeIntervalSet } from '../timeinterval';
import type { Muter } from '../labels/muter';
import type { Integration } from './notifier';
import type { NotificationHistory } from './notification-history';
import type { NotificationLog } from './notification-log';
import type { NotifyMetrics } from './notify-metrics';
import type { Sleep } from './sleep';
import { fanOut, routeByReceiver, sequence, type Stage } from './stage';
import type { SharedDeliveries } from './shared-deliveries';
import { AttemptStage } from './stages/attempt.stage';
import { CatchUpStage } from './stages/catch-up.stage';
import { ClaimStage } from './stages/claim.stage';
import { DedupStage } from './stages/dedup.stage';
import type { NotificationClaims } from './notification-claims';
import { MuteStage } from './stages/mute.stage';
import { RetryStage } from './stages/retry.stage';
import { SetNotifiesStage } from './stages/set-notifies.stage';
import { TimeActiveStage } from './stages/time-active.stage';
import { TimeMuteStage } from './stages/time-mute.stage';

/** Everything the pipeline is built from; a config reload builds a new one. */
export interface PipelineDeps {
  /** Each receiver's integrations, from the receiver registry. */
  receivers: ReadonlyMap<string, readonly Integration[]>;
  inhibitor: Muter;
  /** Silences; a muter that mutes nothing until silences exist. */
  silencer: Muter;
  timeIntervals: TimeIntervalSet;
  nflog: NotificationLog;
  metrics: NotifyMetrics;
  clock: Clock;
  sleep: Sleep;
  logger: Logger;
  random?: () => number;
  /** The replicas' claims, when the server runs in a cluster: each notification sent once. */
  claims?: NotificationClaims;
  /** The replicas' record of every delivery, in a cluster: read before dedup, written on send. */
  deliveries?: SharedDeliveries;
  /** Keeps each notification's outcome for the UI and `/api/v2/notifications`. */
  history?: NotificationHistory;
}

/**
 * The notification pipeline, in upstream's order: per receiver, inhibition, active and mute
 * time intervals, silences, then for each integration concurrently: dedup against the
 * notification log, send with retries, record in the log. In a cluster, a claim before the
 * send takes the place of upstream's position-based wait: the replica that claims a
 * notification first sends it, the others skip it; and dedup reads, and the record writes, the
 * replicas' shared record of deliveries as well as the local log, the claimed send recording
 * its attempt there first.
 */
export function buildPipeline(deps: PipelineDeps): Stage {
  const logger = deps.logger.with({ component: 'notify' });
  const perReceiver = new Map<string, Stage>();
  for (const [receiver, integrations] of deps.receivers) {
    const branches = integrations.map((integration) => {
      const key = { groupName: receiver, integration: integration.name, idx: integration.index };
      deps.metrics.initIntegration(integration.name);
      const send = sequence([
        new RetryStage(integration, receiver, { ...deps, logger }),
        new SetNotifiesStage(deps.nflog, key, deps.deliveries),
      ]);
      const attempted = deps.deliveries
        ? new AttemptStage(deps.deliveries, deps.nflog, key, send)
        : send;
      return sequence([
        ...(deps.deliveries ? [new CatchUpStage(deps.deliveries, deps.nflog, key, logger)] : []),
        new DedupStage(deps.nflog, key, integration.sendResolved),
        deps.claims ? new ClaimStage(deps.claims, key, attempted, deps.metrics, logger) : attempted,
      ]);
    });
    perReceiver.set(
      receiver,
      sequence([
        new MuteStage(deps.inhibitor, logger),
        new TimeActiveStage(deps.timeIntervals),
        new TimeMuteStage(deps.timeIntervals),
        new MuteStage(deps.silencer, logger),
        fanOut(branches),
      ]),
    );
  }
  return routeByReceiver(perReceiver);
}
