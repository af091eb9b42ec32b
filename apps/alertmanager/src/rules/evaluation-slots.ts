import { Labels } from '../tsdb/labels';

const NS_PER_MS = 1_000_000n;

/**
 * Where in its interval a group evaluates, as upstream spreads groups: the hash of the labels
 * `{file, name}` modulo the interval (computed in nanoseconds, returned in milliseconds).
 */
export function groupOffsetNs(file: string, name: string, intervalMs: number): bigint {
  const hash = Labels.fromRecord({ name, file }).hash();
  return hash % (BigInt(intervalMs) * NS_PER_MS);
}

/** The latest slot at or before `nowMs` (upstream's `EvalTimestamp`), in milliseconds. */
export function slotAtOrBefore(nowMs: number, intervalMs: number, offsetNs: bigint): number {
  const interval = BigInt(intervalMs) * NS_PER_MS;
  const adjusted = BigInt(Math.floor(nowMs)) * NS_PER_MS - offsetNs;
  const base = adjusted - (((adjusted % interval) + interval) % interval);
  return Number((base + offsetNs) / NS_PER_MS);
}

/** The first slot strictly after `nowMs`: when a group that starts now first evaluates. */
export function firstSlotAfter(nowMs: number, intervalMs: number, offsetNs: bigint): number {
  return slotAtOrBefore(nowMs, intervalMs, offsetNs) + intervalMs;
}

/**
 * Slots skipped by an evaluation that ran long: the next slot after the last one evaluated,
 * and how many were missed (counted in `..._iterations_missed_total`).
 */
export function nextSlot(
  lastSlotMs: number,
  nowMs: number,
  intervalMs: number,
): { slot: number; missed: number } {
  const missed = Math.max(0, Math.floor((nowMs - lastSlotMs) / intervalMs) - 1);
  return { slot: lastSlotMs + (missed + 1) * intervalMs, missed };
}
