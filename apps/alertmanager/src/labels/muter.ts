import type { LabelSet } from './label-name';

/**
 * Decides whether an alert's labels are muted right now. Inhibition and silences are both
 * muters: `mutedBy` returns what mutes the labels (inhibiting alerts' fingerprints, or silence
 * ids), empty when nothing does.
 */
export interface Muter {
  mutedBy(labels: LabelSet, now: number): string[];
}

/** A muter that mutes nothing: the silence stage's muter until silences exist. */
export const NO_MUTER: Muter = { mutedBy: () => [] };
