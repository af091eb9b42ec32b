import type { LabelSet } from '../../labels';
import type { Alert } from '../alert.model';
import { fingerprint } from '../fingerprint';

/** Builds an alert for specs: firing from `startsAt` until `endsAt` (0 = no end given). */
export function testAlert(labels: LabelSet, fields: Partial<Alert> = {}): Alert {
  return {
    labels,
    annotations: {},
    startsAt: 0,
    endsAt: 0,
    updatedAt: 0,
    generatorURL: '',
    timeout: false,
    fingerprint: fingerprint(labels),
    ...fields,
  };
}
