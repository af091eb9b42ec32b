import type { Logger } from '../logging/logger';
import { isNflogEntry, type NflogEntry, type NotificationLog } from '../notify';
import type { RedisStreamLink } from './redis-stream-link';

/** The stream the replicas' notification log entries go through. */
export const NFLOG_STREAM = 'nflog';

/**
 * The notification log shared by the replicas: every notification logged here (once durable)
 * is published to the `nflog` stream, and every replica's entries are merged into the local log
 * with upstream's rule (the later notification wins), so each replica's log on disk holds what
 * the others sent. The publish is not waited for, and is lost with a replica killed before it
 * reaches Redis: what a replica decides on is also read from the record of deliveries each
 * replica writes before a send counts as done (`redis-deliveries.ts`).
 */
export function shareNotificationLog(
  nflog: NotificationLog,
  link: RedisStreamLink,
  logger: Logger,
): void {
  nflog.onLog((entry) => {
    link.publish(NFLOG_STREAM, JSON.stringify(entry)).catch((error: Error) =>
      logger.error('publishing a notification log entry to the cluster failed', {
        group: entry.groupKey,
        err: error.message,
      }),
    );
  });
  link.follow(NFLOG_STREAM, async (entries) => {
    for (const item of entries) {
      if (item.from === link.replica) continue;
      let entry: unknown;
      try {
        entry = JSON.parse(item.data);
      } catch {
        entry = undefined;
      }
      if (!isNflogEntry(entry)) {
        logger.warn('ignoring an unreadable notification log entry from the cluster', {
          entry: item.id,
        });
        continue;
      }
      await nflog.merge(entry as NflogEntry);
    }
  });
}
