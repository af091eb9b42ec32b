import type { NflogEntry, ReceiverKey } from './nflog-entry';

/** The latest entry of the replicas' record, and whether it is only an attempt. */
export interface SharedEntry {
  entry: NflogEntry;
  attempt: boolean;
}

/**
 * The replicas' record of every delivery, one entry per group and integration as the
 * notification log keeps it. A replica records its delivery there before the flush that sent it
 * counts as done, and reads it before deciding whether to notify, so what one replica delivered
 * is known to the others (and to itself, started again) even if it died right after the send.
 * As a record can only follow the receiver's answer, the replica that won a notification's claim
 * first records the entry it is about to make as an attempt: a replica dying in between leaves
 * that attempt, and the others take it as delivered when deciding on a resolution (see the
 * catch-up stage).
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
   * Records, before the send, the entry a successful send would record. Resolves once it is
   * recorded or waiting longer would hold up the flush; never rejects, failures are logged.
   */
  attempt(entry: NflogEntry): Promise<void>;
  /**
   * Takes back an attempt whose send failed, unless another has replaced it since; never
   * rejects, failures are logged.
   */
  withdraw(entry: NflogEntry): Promise<void>;
  /**
   * The latest entry any replica recorded for the group and integration, or the attempt when it
   * is later than that record (`attempt`: its send may have reached the receiver although its
   * record never came). Undefined when there is neither or they cannot be read in time (the
   * replica then goes by its own log).
   */
  latest(groupKey: string, receiver: ReceiverKey): Promise<SharedEntry | undefined>;
}
