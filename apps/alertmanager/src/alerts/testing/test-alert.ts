import type { LabelSet } from '../../labels';
import type { Alert } from '../alert.model';
import { fingerprint } from '../fingerprint';
import { GO_ZERO_TIME } from '../../time/go-zero-time';

/** Builds an alert for specs: firing from `startsAt` until `endsAt` (Go's zero: no end given). */
export function testAlert(labels: LabelSet, fields: Partial<Alert> = {}): Alert {
  return {
    labels,
    annotations: {},
    startsAt: GO_ZERO_TIME,
    endsAt: GO_ZERO_TIME,
    updatedAt: 0,
    generatorURL: '',
    timeout: false,
    fingerprint: fingerprint(labels),
    ...fields,
  };
}
