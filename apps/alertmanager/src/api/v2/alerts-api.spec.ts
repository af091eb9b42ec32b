import { MemoryAlertStore } from '../../alerts/memory-alert-store';
import { testAlert } from '../../alerts/testing/test-alert';
import { escapeMatcherValue } from '../../labels';
import { catastrophicCases } from '../../re2/testdata/cases';
import { parseAlertQuery } from './alert-query';
import { AlertsApi } from './alerts-api';

const NOW = Date.UTC(2026, 10, 23);

/** An API over one alert `{alertname="R", v=value}`, routed to a receiver named `value`. */
async function apiWith(value: string): Promise<AlertsApi> {
  const clock = { now: () => NOW };
  const store = new MemoryAlertStore(clock);
  const alert = testAlert({ alertname: 'R', v: value }, { startsAt: NOW - 1000 });
  await store.put([alert]);
  return new AlertsApi({
    store,
    clock,
    routing: {
      receiversFor: () => [value],
      groups: () => [{ labels: { alertname: 'R' }, receiver: value, alerts: [alert] }],
    },
    muting: { silencers: () => [], inhibitors: () => [] },
    receiverLabels: () => new Map(),
  });
}

const listed = (pieces: Iterable<string>): unknown[] =>
  JSON.parse([...pieces].join('')) as unknown[];

describe('hostile regexes in GET /api/v2/alerts and /alerts/groups', () => {
  it.each(catastrophicCases().map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const api = await apiWith(c.value);
    const started = performance.now();
    const filter = parseAlertQuery(
      new URLSearchParams({ filter: `v=~"${escapeMatcherValue(c.pattern)}"` }),
    );
    const receiver = parseAlertQuery(new URLSearchParams({ receiver: c.pattern }));
    const expected = c.matches ? 1 : 0;
    expect(listed(await api.alerts(filter))).toHaveLength(expected);
    expect(listed(await api.alerts(receiver))).toHaveLength(expected);
    expect(listed(await api.groups(filter))).toHaveLength(expected);
    expect(listed(await api.groups(receiver))).toHaveLength(expected);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
