import type { LastNotification } from './dedup-decision';

/** Identifies one integration of one receiver in the notification log, as upstream's nflogpb. */
export interface ReceiverKey {
  groupName: string;
  integration: string;
  idx: number;
}

/** One notification log entry: the last successful notification of a group to an integration. */
export interface NflogEntry extends LastNotification {
  groupKey: string;
  receiver: ReceiverKey;
  /** Epoch milliseconds after which the entry is garbage. */
  expiresAt: number;
}

/** Upstream's state key: `<group key>:<receiver>/<integration>/<index>`. */
export function nflogKey(groupKey: string, receiver: ReceiverKey): string {
  return `${groupKey}:${receiver.groupName}/${receiver.integration}/${receiver.idx}`;
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string');
}

/** Checks the shape of an entry read back from disk; anything else is treated as corrupt. */
export function isNflogEntry(value: unknown): value is NflogEntry {
  if (typeof value !== 'object' || value === null) return false;
  const e = value as Record<string, unknown>;
  const r = e.receiver as Record<string, unknown> | null | undefined;
  return (
    typeof e.groupKey === 'string' &&
    typeof e.timestamp === 'number' &&
    typeof e.expiresAt === 'number' &&
    isStringArray(e.firingAlerts) &&
    isStringArray(e.resolvedAlerts) &&
    typeof r === 'object' &&
    r !== null &&
    typeof r.groupName === 'string' &&
    typeof r.integration === 'string' &&
    typeof r.idx === 'number'
  );
}
