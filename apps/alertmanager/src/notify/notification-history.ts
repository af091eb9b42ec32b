import type { LabelSet } from '../labels';
import type { Logger } from '../logging/logger';
import { openJournal, type Journal, type TupleCodec } from '../storage';
import type { NotificationReason } from './notify-context';

/** One alert as it was sent. */
export interface SentAlert {
  fingerprint: string;
  status: 'firing' | 'resolved';
  labels: LabelSet;
}

/** One notification: what was sent, when, where, and how it ended (after every retry). */
export interface NotificationRecord {
  /** Unique and increasing: `<at>-<sequence>`. */
  id: string;
  /** When the notification ended (its last attempt), epoch milliseconds. */
  at: number;
  /** When its first attempt started, epoch milliseconds. */
  startedAt: number;
  receiver: string;
  /** The integration's kind (`webhook`, `email`, ...). */
  integration: string;
  /** Its position among the receiver's integrations of that kind. */
  index: number;
  groupKey: string;
  groupLabels: LabelSet;
  /** Why the dedup stage notified. */
  reason: NotificationReason | '';
  alerts: SentAlert[];
  /** Requests made; 0 when the notification failed before any. */
  attempts: number;
  outcome: 'success' | 'failed';
  /** The final error of a failed notification. */
  error: string;
}

/** A query of the history, newest first. */
export interface HistoryQuery {
  receiver?: string;
  integration?: string;
  outcome?: 'success' | 'failed';
  /** Records whose group key contains it. */
  groupKey?: string;
  /** Records with the alert of this fingerprint. */
  fingerprint?: string;
  limit: number;
}

/** How to open a {@link NotificationHistory}. */
export interface NotificationHistoryOptions {
  /** `--storage.path`; undefined keeps the history in memory only (tests). */
  storagePath?: string;
  /** Most records kept; the oldest go first. */
  maxRecords: number;
  /** Records older than this are dropped at maintenance, milliseconds. */
  retention: number;
  now: number;
  logger: Logger;
}

/** Upstream has no history: this one keeps the last thousand notifications by default. */
export const DEFAULT_HISTORY_RECORDS = 1000;
/** Base name of the history's files under `--storage.path`. */
export const HISTORY_FILE_NAME = 'notifications';

type HistoryTuple = [
  string,
  number,
  number,
  string,
  string,
  number,
  string,
  LabelSet,
  string,
  [string, number, LabelSet][],
  number,
  number,
  string,
];

const HISTORY_CODEC: TupleCodec<NotificationRecord, HistoryTuple> = {
  toTuple: (r) => [
    r.id,
    r.at,
    r.startedAt,
    r.receiver,
    r.integration,
    r.index,
    r.groupKey,
    r.groupLabels,
    r.reason,
    r.alerts.map((a) => [a.fingerprint, a.status === 'firing' ? 1 : 0, a.labels]),
    r.attempts,
    r.outcome === 'success' ? 1 : 0,
    r.error,
  ],
  fromTuple(t) {
    if (!Array.isArray(t) || t.length !== 13 || !Array.isArray(t[9])) {
      throw new Error('not a notification history record');
    }
    const [id, at, startedAt, receiver, integration, index, groupKey, groupLabels, reason] = t;
    return {
      id,
      at,
      startedAt,
      receiver,
      integration,
      index,
      groupKey,
      groupLabels,
      reason: reason as NotificationRecord['reason'],
      alerts: t[9].map(([fingerprint, firing, labels]) => ({
        fingerprint,
        status: firing === 1 ? 'firing' : 'resolved',
        labels,
      })),
      attempts: t[10],
      outcome: t[11] === 1 ? 'success' : 'failed',
      error: t[12],
    };
  },
};

/**
 * What the server sent, kept for people rather than for deduplication (that is the notification
 * log's job): each notification's receiver, integration, group, alerts and outcome after its
 * retries, the newest {@link NotificationHistoryOptions.maxRecords} of them, on disk beside the
 * other stores so a restart keeps them.
 */
export class NotificationHistory {
  /** Oldest first. */
  private readonly records: NotificationRecord[] = [];
  private journal: Journal<NotificationRecord> | undefined;
  private sequence = 0;

  private constructor(private readonly options: NotificationHistoryOptions) {}

  static async open(options: NotificationHistoryOptions): Promise<NotificationHistory> {
    const history = new NotificationHistory(options);
    if (options.storagePath !== undefined) {
      const byId = new Map<string, NotificationRecord>();
      const { journal } = await openJournal({
        dir: options.storagePath,
        name: HISTORY_FILE_NAME,
        what: 'notification history',
        codec: HISTORY_CODEC,
        restore: (record) => byId.set(record.id, record),
        forget: (id) => byId.delete(id),
        syncIntervalMs: 1000,
        logger: options.logger,
      });
      history.journal = journal;
      history.records.push(...[...byId.values()].sort((a, b) => a.at - b.at));
      history.trim(options.now);
    }
    return history;
  }

  /** Keeps `record` (without `id`, which is given here); older ones beyond the bound go. */
  record(record: Omit<NotificationRecord, 'id'>): NotificationRecord {
    const kept = { id: `${record.at}-${++this.sequence}`, ...record };
    this.records.push(kept);
    // Written in the background: losing the last second of history to a crash is acceptable,
    // holding up the notification pipeline for it is not.
    this.journal?.commit([kept]).catch((error: unknown) => {
      this.options.logger.warn('Could not write the notification history', {
        err: (error as Error).message,
      });
    });
    this.trim(record.at);
    return kept;
  }

  /** Matching records, newest first, at most `query.limit`. */
  list(query: HistoryQuery): NotificationRecord[] {
    const found: NotificationRecord[] = [];
    for (let i = this.records.length - 1; i >= 0 && found.length < query.limit; i--) {
      const r = this.records[i];
      if (query.receiver !== undefined && r.receiver !== query.receiver) continue;
      if (query.integration !== undefined && r.integration !== query.integration) continue;
      if (query.outcome !== undefined && r.outcome !== query.outcome) continue;
      if (query.groupKey !== undefined && !r.groupKey.includes(query.groupKey)) continue;
      if (
        query.fingerprint !== undefined &&
        !r.alerts.some((alert) => alert.fingerprint === query.fingerprint)
      ) {
        continue;
      }
      found.push(r);
    }
    return found;
  }

  /** Drops expired records and rewrites the files as a snapshot of what is kept. */
  async maintenance(now: number): Promise<void> {
    this.trim(now);
    await this.journal?.compact(() => this.records);
  }

  async close(): Promise<void> {
    await this.journal?.close();
  }

  private trim(now: number): void {
    const { maxRecords, retention } = this.options;
    let drop = Math.max(0, this.records.length - maxRecords);
    while (drop < this.records.length && this.records[drop].at < now - retention) drop++;
    if (drop === 0) return;
    const gone = this.records.splice(0, drop);
    this.journal?.forget(gone.map((record) => record.id));
  }
}
