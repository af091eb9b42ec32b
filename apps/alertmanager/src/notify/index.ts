export { DEFAULT_BACKOFF, ExponentialBackoff } from './backoff';
export type { BackoffOptions } from './backoff';
export { buildPipeline } from './build-pipeline';
export type { PipelineDeps } from './build-pipeline';
export { dedupDecision } from './dedup-decision';
export type { DedupInput, LastNotification } from './dedup-decision';
export { isNflogEntry, nflogKey } from './nflog-entry';
export type { NflogEntry, ReceiverKey } from './nflog-entry';
export { NflogMetrics } from './nflog-metrics';
export { DEFAULT_NFLOG_RETENTION, NFLOG_FILE_NAME, NotificationLog } from './notification-log';
export type { NotificationLogOptions } from './notification-log';
export { FAILURE_REASONS, NotifyError, reasonForStatus } from './notifier';
export type { FailureReason, Integration, Notifier } from './notifier';
export { CanceledError, DeadlineExceededError } from './notify-context';
export type { NotificationReason, NotifyContext } from './notify-context';
export { NotifyMetrics } from './notify-metrics';
export type { Sleep } from './sleep';
export { fanOut, FanOutError, routeByReceiver, sequence } from './stage';
export type { Stage, StageResult } from './stage';
export { AttemptStage } from './stages/attempt.stage';
export { CatchUpStage } from './stages/catch-up.stage';
export { DedupStage } from './stages/dedup.stage';
export { MuteStage } from './stages/mute.stage';
export { NotificationFailedError, RetryStage } from './stages/retry.stage';
export type { RetryDeps } from './stages/retry.stage';
export { SetNotifiesStage } from './stages/set-notifies.stage';
export { TimeActiveStage } from './stages/time-active.stage';
export { TimeMuteStage } from './stages/time-mute.stage';
export { claimKeyOf } from './notification-claims';
export type { ClaimOutcome, NotificationClaims } from './notification-claims';
export type { SharedDeliveries, SharedEntry } from './shared-deliveries';
export {
  DEFAULT_HISTORY_RECORDS,
  HISTORY_FILE_NAME,
  NotificationHistory,
} from './notification-history';
export type {
  HistoryQuery,
  NotificationHistoryOptions,
  NotificationRecord,
  SentAlert,
} from './notification-history';
