import type { LabelSet } from '../labels';
import type { Alert } from './alert.model';
import { NO_ALERT_LIMITS, validateAlert, type AlertLimits } from './alert-validation';
import { fingerprint } from './fingerprint';
import { GO_ZERO_TIME } from '../time/go-zero-time';

/** An alert as a client posts it (API v1 or v2), already decoded; unset times are Go's zero. */
export interface PostedAlert {
  labels: LabelSet;
  annotations: LabelSet;
  startsAt: number;
  endsAt: number;
  generatorURL: string;
}

/** The outcome of {@link ingestAlerts}: the valid alerts, and one message per invalid one. */
export interface IngestResult {
  valid: Alert[];
  errors: string[];
  /** Counted before validation, as upstream's `alertmanager_alerts_received_total` does. */
  firing: number;
  resolved: number;
}

/**
 * Applies upstream's ingestion rules to a posted batch: `updatedAt = now`; a zero `startsAt`
 * becomes `endsAt` when set, else `now`; a zero `endsAt` becomes `now + resolveTimeout` with the
 * timeout flag; labels with empty values are dropped; then each alert is validated. Invalid
 * alerts are reported, never thrown, so the valid ones of a batch are still stored.
 */
export function ingestAlerts(
  posted: readonly PostedAlert[],
  now: number,
  resolveTimeout: number,
  limits: AlertLimits = NO_ALERT_LIMITS,
): IngestResult {
  const result: IngestResult = { valid: [], errors: [], firing: 0, resolved: 0 };
  for (const p of posted) {
    let startsAt = p.startsAt;
    let endsAt = p.endsAt;
    let timeout = false;
    if (startsAt === GO_ZERO_TIME) startsAt = endsAt === GO_ZERO_TIME ? now : endsAt;
    if (endsAt === GO_ZERO_TIME) {
      timeout = true;
      endsAt = now + resolveTimeout;
    }
    if (endsAt > now) result.firing++;
    else result.resolved++;
    const labels = withoutEmptyValues(p.labels);
    const error = validateAlert(
      { labels, annotations: p.annotations, startsAt, endsAt, generatorURL: p.generatorURL },
      limits,
    );
    if (error !== undefined) {
      result.errors.push(error);
      continue;
    }
    result.valid.push({
      labels,
      annotations: p.annotations,
      startsAt,
      endsAt,
      updatedAt: now,
      generatorURL: p.generatorURL,
      timeout,
      fingerprint: fingerprint(labels),
    });
  }
  return result;
}

function withoutEmptyValues(labels: LabelSet): LabelSet {
  for (const name in labels) {
    if (labels[name] === '') {
      return Object.fromEntries(Object.entries(labels).filter(([, value]) => value !== ''));
    }
  }
  return labels;
}
