import { formatAlerts, type ListedAlert } from './alert-output';
import { formatTime } from '../template/funcs/go-time';

const alert = (fields: Partial<ListedAlert>): ListedAlert => ({
  labels: {},
  annotations: {},
  startsAt: '2026-11-21T04:41:46.405Z',
  endsAt: '2026-11-21T04:46:46.405Z',
  status: { state: 'active' },
  ...fields,
});

// Two alerts as amtool 0.25 printed them (trailing spaces included: every cell ends in a tab).
const ALERTS = [
  alert({
    labels: { alertname: 'TestAlert', severity: 'critical', team: 'db' },
    annotations: { summary: 'db is down' },
    generatorURL: 'http://gen/x',
  }),
  alert({
    labels: { severity: 'warning', alertname: 'Other' },
    annotations: { summary: 'hello' },
    startsAt: '2026-01-02T03:04:05.000Z',
    endsAt: '2026-11-21T04:46:46.419Z',
  }),
];

describe('formatAlerts', () => {
  it.each([
    [
      'simple',
      [
        'Alertname  Starts At                Summary     State   ',
        'Other      2026-01-02 03:04:05 UTC  hello       active  ',
        'TestAlert  2026-11-21 04:41:46 UTC  db is down  active  ',
      ],
    ],
    [
      'extended',
      [
        'Labels                                               Annotations           Starts At                Ends At                  Generator URL  State   ',
        'alertname="Other" severity="warning"                 summary="hello"       2026-01-02 03:04:05 UTC  2026-11-21 04:46:46 UTC                 active  ',
        'alertname="TestAlert" severity="critical" team="db"  summary="db is down"  2026-11-21 04:41:46 UTC  2026-11-21 04:46:46 UTC  http://gen/x   active  ',
      ],
    ],
    ['json', [JSON.stringify(ALERTS)]],
  ])('%s', (output, expected) => {
    expect(formatAlerts(ALERTS, output, '2006-01-02 15:04:05 MST')).toEqual(expected);
  });

  it('prints the header alone when nothing matched', () => {
    expect(formatAlerts([], 'simple', '2006-01-02 15:04:05 MST')).toEqual([
      'Alertname  Starts At  Summary  State  ',
    ]);
  });
});

describe('formatTime for --date.format', () => {
  const t = Date.UTC(2026, 0, 2, 15, 4, 5, 67);
  it.each([
    ['2006-01-02 15:04:05 MST', '2026-01-02 15:04:05 UTC'],
    ['Mon Jan _2 03:04:05PM 2006', 'Fri Jan  2 03:04:05PM 2026'],
    ['2006-01-02T15:04:05.000Z07:00', '2026-01-02T15:04:05.067Z'],
    ['02/01/06 -0700', '02/01/26 +0000'],
  ])('%s', (layout, expected) => {
    expect(formatTime(t, layout, 'UTC')).toBe(expected);
  });
});
