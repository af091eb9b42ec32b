import type { NflogEntry, ReceiverKey } from './nflog-entry';

/**
 * The replicas' record of every delivery, one entry per group and integration as the
 * notification log keeps it. A replica records its delivery there before the flush that sent it
 * counts as done, and reads it before deciding whether to notify, so what one replica delivered
 * is known to the others (and to itself, started again) even if it died right after the send.
 * Implemented over Redis by `cluster/`; absent for a lone server.
 */
export interface SharedDeliveries {
  /**
   * Records an entry unless a later one of the same group and integration is there. Resolves
   * once it is recorded, or once waiting longer would hold up the flush (the record then
   * follows when it can); never rejects, failures are logged.
   */
  record(entry: NflogEntry): Promise<void>;
  /**
   * The latest entry any replica recorded for the group and integration; undefined when there
   * is none or it cannot be read in time (the replica then goes by its own log).
   */
  latest(groupKey: string, receiver: ReceiverKey): Promise<NflogEntry | undefined>;
}
