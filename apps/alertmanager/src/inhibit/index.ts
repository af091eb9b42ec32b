export { InhibitionRule } from './inhibit-rule';
export { Inhibitor, INHIBITOR_GC_INTERVAL } from './inhibitor';
