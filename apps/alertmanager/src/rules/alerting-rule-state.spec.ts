import { Labels } from '../tsdb/labels';
import {
  AlertingRuleState,
  RESOLVED_RETENTION_MS,
  RuleEvaluationError,
  type ExpandedSample,
} from './alerting-rule-state';

const MINUTE = 60_000;
const labels = Labels.fromRecord({ alertname: 'Down', instance: 'a' });
const sample = (value = 1): ExpandedSample => ({ labels, annotations: { summary: 'down' }, value });

function rule(forMs: number, keepFiringForMs = 0, limit = 0) {
  const state = new AlertingRuleState({
    name: 'Down',
    forMs,
    keepFiringForMs,
    labels: { severity: 'page' },
    limit,
  });
  state.restored = true;
  return state;
}

/** Runs evaluations at each minute; `present` says at which the series is in the result. */
function run(state: AlertingRuleState, minutes: number, present: (minute: number) => boolean) {
  const states: string[] = [];
  for (let m = 0; m < minutes; m++) {
    state.evaluate(m * MINUTE, present(m) ? [sample()] : []);
    states.push(state.alerts[0]?.state ?? '-');
  }
  return states.join(' ');
}

describe('AlertingRuleState', () => {
  it.each([
    // for, keep_firing_for, minutes with the series, expected state per minute
    [
      2,
      0,
      [0, 10],
      'pending pending firing firing firing firing firing firing firing firing firing inactive',
    ],
    [0, 0, [0, 3], 'firing firing firing firing inactive'],
    [5, 0, [0, 3], 'pending pending pending pending -'],
    [
      2,
      3,
      [0, 10],
      'pending pending firing firing firing firing firing firing firing firing firing firing firing firing inactive',
    ],
  ])(
    'for %dm, keep_firing_for %dm, series at minutes %j: %s',
    (forMin, keepMin, [from, to], expected) => {
      const state = rule(forMin * MINUTE, keepMin * MINUTE);
      const minutes = expected.split(' ').length;
      expect(run(state, minutes, (m) => m >= from && m <= to)).toBe(expected);
    },
  );

  it('keeps a resolved alert 15 minutes, then forgets it; a new occurrence starts over', () => {
    const state = rule(0);
    state.evaluate(0, [sample()]);
    state.evaluate(MINUTE, []);
    expect(state.alerts[0]).toMatchObject({ state: 'inactive', resolvedAt: MINUTE });
    state.evaluate(MINUTE + RESOLVED_RETENTION_MS, []);
    expect(state.alerts).toHaveLength(1);
    state.evaluate(2 * MINUTE + RESOLVED_RETENTION_MS, []);
    expect(state.alerts).toHaveLength(0);
    state.evaluate(20 * MINUTE, [sample()]);
    expect(state.alerts[0]).toMatchObject({
      state: 'firing',
      activeAt: 20 * MINUTE,
      firedAt: 20 * MINUTE,
    });
  });

  it('writes ALERTS and ALERTS_FOR_STATE once restored, with the rule labels under the alert labels', () => {
    const state = new AlertingRuleState({
      name: 'Down',
      forMs: MINUTE,
      keepFiringForMs: 0,
      labels: { severity: 'page' },
      limit: 0,
    });
    expect(state.evaluate(0, [sample()])).toEqual([]);
    state.restored = true;
    const series = state.evaluate(90_000, [sample(5)]);
    expect(series.map((s) => [s.labels.toString(), s.value])).toEqual([
      [
        '{__name__="ALERTS", alertname="Down", alertstate="firing", instance="a", severity="page"}',
        1,
      ],
      ['{__name__="ALERTS_FOR_STATE", alertname="Down", instance="a", severity="page"}', 0],
    ]);
    expect(state.alerts[0].value).toBe(5);
  });

  it('sends firing alerts when the resend delay has passed (strictly), and a resolution at once', () => {
    const state = rule(0);
    const sent: string[] = [];
    for (let m = 0; m < 6; m++) {
      state.evaluate(m * MINUTE, m < 4 ? [sample()] : []);
      for (const a of state.alertsToSend(m * MINUTE, MINUTE, MINUTE))
        sent.push(`${m}:${a.endsAt / MINUTE}`);
    }
    // Every second evaluation with a 1m interval and a 1m resend delay; endsAt 4 intervals ahead.
    expect(sent).toEqual(['0:4', '2:6', '4:4']);
  });

  it('refuses two samples with one label set, and more alerts than the limit', () => {
    expect(() => rule(0).evaluate(0, [sample(), sample()])).toThrow(
      new RuleEvaluationError(
        'vector contains metrics with the same labelset after applying alert labels',
      ),
    );
    const limited = rule(0, 0, 1);
    const other = { ...sample(), labels: Labels.fromRecord({ alertname: 'Down', instance: 'b' }) };
    expect(() => limited.evaluate(0, [sample(), other])).toThrow(
      'exceeded limit of 1 with 2 alerts',
    );
    expect(limited.alerts).toEqual([]);
  });

  it('goes back to pending when a reload makes `for` longer than the alert has been active', () => {
    const state = rule(0);
    state.evaluate(0, [sample()]);
    state.update({ name: 'Down', forMs: 10 * MINUTE, keepFiringForMs: 0, labels: {}, limit: 0 });
    state.evaluate(MINUTE, [sample()]);
    expect(state.alerts[0]).toMatchObject({ state: 'pending', firedAt: 0, lastSentAt: -Infinity });
  });
});
