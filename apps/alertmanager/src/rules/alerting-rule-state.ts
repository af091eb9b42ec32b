import { Labels } from '../tsdb/labels';

/** How long a resolved alert is kept (and re-sent) after it resolved, as upstream. */
export const RESOLVED_RETENTION_MS = 15 * 60_000;

export type AlertState = 'pending' | 'firing' | 'inactive';

/** One alert of an alerting rule: a series of its expression, tracked across evaluations. */
export interface RuleAlert {
  state: AlertState;
  readonly labels: Labels;
  annotations: Readonly<Record<string, string>>;
  value: number;
  /** When the series first appeared this time (ms). */
  activeAt: number;
  /** When it went from pending to firing; 0 while pending. */
  firedAt: number;
  /** When it resolved; 0 while active. */
  resolvedAt: number;
  /** When it was last handed to the notifier; -Infinity if never. */
  lastSentAt: number;
  /** When the notifier may forget it, unless sent again (`endsAt` of a firing alert). */
  validUntil: number;
  /** Since when `keep_firing_for` keeps it firing without its series; 0 when not. */
  keepFiringSince: number;
}

/** A result sample of the rule's expression at one evaluation, its labels and templates expanded. */
export interface ExpandedSample {
  /** Alert labels: the sample's without `__name__`, the rule's (expanded), `alertname`. */
  readonly labels: Labels;
  readonly annotations: Readonly<Record<string, string>>;
  readonly value: number;
}

/** The series an evaluation writes: `ALERTS` and `ALERTS_FOR_STATE` for each active alert. */
export interface RuleSeries {
  readonly labels: Labels;
  readonly value: number;
}

/** An alert as the notifier receives it. */
export interface OutgoingAlert {
  readonly labels: Labels;
  readonly annotations: Readonly<Record<string, string>>;
  readonly startsAt: number;
  readonly endsAt: number;
}

export interface AlertingRuleSettings {
  readonly name: string;
  readonly forMs: number;
  readonly keepFiringForMs: number;
  /** The rule's own labels, unexpanded, which `ALERTS` carries under the alert's. */
  readonly labels: Readonly<Record<string, string>>;
  /** Most alerts per evaluation; 0 is no limit. */
  readonly limit: number;
}

/** Why an evaluation failed; the rule's health becomes `err` with this message. */
export class RuleEvaluationError extends Error {}

/**
 * The alerts of one alerting rule and their life as upstream's `AlertingRule.Eval` leads it:
 * pending when a series appears, firing once it held for `for`, kept firing by `keep_firing_for`,
 * resolved when it disappears (kept and re-sent 15 minutes), dropped silently when it disappears
 * while pending. Time is an input: every call takes the evaluation timestamp.
 */
export class AlertingRuleState {
  private readonly active = new Map<string, RuleAlert>();
  /** False until the `for` state was restored after start: until then no ALERTS series. */
  restored = false;

  constructor(private settings: AlertingRuleSettings) {}

  get alerts(): RuleAlert[] {
    return [...this.active.values()];
  }

  /** Takes new settings on a reload, keeping the alerts (upstream's `CopyState`). */
  update(settings: AlertingRuleSettings): void {
    this.settings = settings;
  }

  /** Takes over the alerts of the same rule in the group this one replaces on a reload. */
  adopt(previous: AlertingRuleState): void {
    for (const [key, alert] of previous.active) this.active.set(key, alert);
  }

  /**
   * Applies one evaluation's result at `ts` and returns the `ALERTS` and `ALERTS_FOR_STATE`
   * series to write. Throws {@link RuleEvaluationError} for two samples with one label set, or
   * more alerts than `limit` (then every alert is dropped, as upstream).
   */
  evaluate(ts: number, samples: readonly ExpandedSample[]): RuleSeries[] {
    const current = new Map<string, ExpandedSample>();
    for (const sample of samples) {
      if (current.has(sample.labels.key)) {
        throw new RuleEvaluationError(
          'vector contains metrics with the same labelset after applying alert labels',
        );
      }
      current.set(sample.labels.key, sample);
    }
    for (const [key, sample] of current) {
      const existing = this.active.get(key);
      if (existing !== undefined && existing.state !== 'inactive') {
        existing.value = sample.value;
        existing.annotations = sample.annotations;
        continue;
      }
      this.active.set(key, {
        state: 'pending',
        labels: sample.labels,
        annotations: sample.annotations,
        value: sample.value,
        activeAt: ts,
        firedAt: 0,
        resolvedAt: 0,
        lastSentAt: -Infinity,
        validUntil: 0,
        keepFiringSince: 0,
      });
    }
    const { forMs, keepFiringForMs } = this.settings;
    const series: RuleSeries[] = [];
    let activeCount = 0;
    for (const [key, alert] of this.active) {
      if (!current.has(key)) {
        let keepFiring = false;
        if (alert.state === 'firing' && keepFiringForMs > 0) {
          if (alert.keepFiringSince === 0) alert.keepFiringSince = ts;
          keepFiring = ts - alert.keepFiringSince < keepFiringForMs;
        }
        if (
          alert.state === 'pending' ||
          (alert.resolvedAt !== 0 && ts - alert.resolvedAt > RESOLVED_RETENTION_MS)
        ) {
          this.active.delete(key);
          continue;
        }
        if (!keepFiring) {
          if (alert.state !== 'inactive') {
            alert.state = 'inactive';
            alert.resolvedAt = ts;
          }
          continue;
        }
      } else {
        alert.keepFiringSince = 0;
      }
      activeCount++;
      if (alert.state === 'pending' && ts - alert.activeAt >= forMs) {
        alert.state = 'firing';
        alert.firedAt = ts;
      }
      if (alert.state === 'firing' && ts - alert.activeAt < forMs) {
        // Only after a reload made `for` longer: back to pending.
        alert.state = 'pending';
        alert.firedAt = 0;
        alert.lastSentAt = -Infinity;
        alert.keepFiringSince = 0;
      }
      if (this.restored) series.push(...this.seriesOf(alert));
    }
    const { limit } = this.settings;
    if (limit > 0 && activeCount > limit) {
      this.active.clear();
      throw new RuleEvaluationError(`exceeded limit of ${limit} with ${activeCount} alerts`);
    }
    return series;
  }

  /**
   * Alerts to hand to the notifier at `ts`: firing ones not sent for longer than `resendDelayMs`
   * (strictly), and resolved ones once at resolution and then each resend period.
   */
  alertsToSend(ts: number, resendDelayMs: number, intervalMs: number): OutgoingAlert[] {
    const out: OutgoingAlert[] = [];
    for (const alert of this.active.values()) {
      if (alert.state === 'pending') continue;
      const resolvedSinceSent = alert.resolvedAt !== 0 && alert.resolvedAt > alert.lastSentAt;
      const due = resolvedSinceSent || alert.lastSentAt + resendDelayMs < ts;
      if (!due) continue;
      alert.lastSentAt = ts;
      alert.validUntil = ts + 4 * Math.max(intervalMs, resendDelayMs);
      out.push({
        labels: alert.labels,
        annotations: alert.annotations,
        startsAt: alert.firedAt,
        endsAt: alert.resolvedAt !== 0 ? alert.resolvedAt : alert.validUntil,
      });
    }
    return out;
  }

  /** The rule's state as the API shows it: the most advanced of its alerts. */
  get state(): AlertState {
    let state: AlertState = 'inactive';
    for (const alert of this.active.values()) {
      if (alert.state === 'firing') return 'firing';
      if (alert.state === 'pending') state = 'pending';
    }
    return state;
  }

  /** The rule's `for` duration, which a restart must not reset. */
  get forMs(): number {
    return this.settings.forMs;
  }

  /** The labels of an alert's `ALERTS_FOR_STATE` series, where its `for` state is kept. */
  forStateLabels(alert: RuleAlert): Labels {
    return this.seriesLabels(alert, 'ALERTS_FOR_STATE');
  }

  /** `ALERTS{..., alertstate}` 1 and `ALERTS_FOR_STATE{...}` with the unix second it became active. */
  private seriesOf(alert: RuleAlert): RuleSeries[] {
    return [
      { labels: this.seriesLabels(alert, 'ALERTS', alert.state), value: 1 },
      { labels: this.forStateLabels(alert), value: Math.floor(alert.activeAt / 1000) },
    ];
  }

  private seriesLabels(alert: RuleAlert, name: string, alertstate?: AlertState): Labels {
    const labels = new Map<string, string>(Object.entries(this.settings.labels));
    for (let i = 0; i < alert.labels.size; i++)
      labels.set(alert.labels.names[i], alert.labels.values[i]);
    labels.set('alertname', this.settings.name);
    labels.set('__name__', name);
    if (alertstate !== undefined) labels.set('alertstate', alertstate);
    return Labels.from(labels);
  }
}
