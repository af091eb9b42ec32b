import type { LabelSet } from '../../labels';
import type { TupleCodec } from '../../storage';
import type { Alert } from '../alert.model';
import { fingerprint } from '../fingerprint';

type AlertTuple = [LabelSet, LabelSet, number, number, number, string, 0 | 1];

/** How an alert is written in the alert journal's records (its fingerprint is recomputed). */
export const ALERT_CODEC: TupleCodec<Alert, AlertTuple> = {
  toTuple: (a) => [
    a.labels,
    a.annotations,
    a.startsAt,
    a.endsAt,
    a.updatedAt,
    a.generatorURL,
    a.timeout ? 1 : 0,
  ],
  fromTuple(t) {
    const [labels, annotations, startsAt, endsAt, updatedAt, generatorURL, timeout] = t;
    return {
      labels,
      annotations,
      startsAt,
      endsAt,
      updatedAt,
      generatorURL,
      timeout: timeout === 1,
      fingerprint: fingerprint(labels),
    };
  },
};
