export { silenceState } from './silence';
export type { Silence, SilenceInput, SilenceState } from './silence';
export { SilenceStore, NO_JOURNAL } from './silence-store';
export type { SilenceJournal, SilenceLimits } from './silence-store';
export {
  SilenceError,
  buildMatchers,
  checkSilenceTimes,
  matchType,
  silenceNotFound,
} from './silence-validation';
export type { MatcherInput } from './silence-validation';
export { canUpdateInPlace, expiredAt } from './silence-rules';
export { listSilences, compareForListing } from './silence-listing';
export type { SilenceFilter } from './silence-listing';
export { registerSilenceMetrics } from './silence-metrics';
export { openSilenceStore } from './persistence/open-silence-store';
export type { OpenSilenceStoreOptions, PersistentSilences } from './persistence/open-silence-store';
export { SILENCE_CODEC } from './persistence/silence-codec';
