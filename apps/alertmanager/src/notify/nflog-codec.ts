import type { TupleCodec } from '../storage';
import { isNflogEntry, type NflogEntry } from './nflog-entry';

type NflogTuple = [string, string, string, number, number, string[], string[], number];

/** How a notification log entry is written in the journal's records. */
export const NFLOG_CODEC: TupleCodec<NflogEntry, NflogTuple> = {
  toTuple: (e) => [
    e.groupKey,
    e.receiver.groupName,
    e.receiver.integration,
    e.receiver.idx,
    e.timestamp,
    [...e.firingAlerts],
    [...e.resolvedAlerts],
    e.expiresAt,
  ],
  fromTuple(t) {
    const [groupKey, groupName, integration, idx, timestamp, firing, resolved, expiresAt] = t;
    const entry = {
      groupKey,
      receiver: { groupName, integration, idx },
      timestamp,
      firingAlerts: firing,
      resolvedAlerts: resolved,
      expiresAt,
    };
    if (!isNflogEntry(entry)) throw new Error('not a notification log entry');
    return entry;
  },
};
