import { testAlert } from '../../alerts/testing/test-alert';
import { buildWebhookPayload, formatGoTime, quoteMeta } from './webhook-payload';
import { GO_ZERO_TIME } from '../../time/go-zero-time';

const NOW = Date.parse('2026-11-21T04:00:00Z');
const STARTS = Date.parse('2026-11-21T03:52:33.016Z');

describe('formatGoTime', () => {
  it.each([
    [GO_ZERO_TIME, '0001-01-01T00:00:00Z'],
    [0, '1970-01-01T00:00:00Z'],
    [Date.parse('2026-11-21T03:52:33.016Z'), '2026-11-21T03:52:33.016Z'],
    [Date.parse('2026-11-21T03:52:33.100Z'), '2026-11-21T03:52:33.1Z'],
    [Date.parse('2026-11-21T03:52:33.000Z'), '2026-11-21T03:52:33Z'],
  ])('%s -> %s', (ms, text) => expect(formatGoTime(ms)).toBe(text));
});

describe('quoteMeta', () => {
  it.each([
    ['hook', 'hook'],
    ['team.x-y', 'team\\.x-y'],
    ['a+b*c?(d)|[e]{f}^g$h\\i', 'a\\+b\\*c\\?\\(d\\)\\|\\[e\\]\\{f\\}\\^g\\$h\\\\i'],
  ])('%s -> %s', (name, quoted) => expect(quoteMeta(name)).toBe(quoted));
});

describe('buildWebhookPayload', () => {
  it('matches upstream version 4, key by key and in key order', () => {
    const payload = buildWebhookPayload({
      receiver: 'hook',
      groupKey: '{}:{alertname="TestAlert"}',
      groupLabels: { alertname: 'TestAlert' },
      externalURL: 'http://vm:19093',
      alerts: [
        testAlert(
          { job: 'j', alertname: 'TestAlert' },
          { annotations: { summary: 's' }, startsAt: STARTS, endsAt: GO_ZERO_TIME },
        ),
      ],
      maxAlerts: 0,
      now: NOW,
    });
    expect(JSON.stringify(payload)).toBe(
      '{"receiver":"hook","status":"firing","alerts":[{"status":"firing",' +
        '"labels":{"alertname":"TestAlert","job":"j"},"annotations":{"summary":"s"},' +
        '"startsAt":"2026-11-21T03:52:33.016Z","endsAt":"0001-01-01T00:00:00Z",' +
        `"generatorURL":"","fingerprint":"${payload.alerts[0].fingerprint}"}],` +
        '"groupLabels":{"alertname":"TestAlert"},"commonLabels":{"alertname":"TestAlert","job":"j"},' +
        '"commonAnnotations":{"summary":"s"},"externalURL":"http://vm:19093","version":"4",' +
        '"groupKey":"{}:{alertname=\\"TestAlert\\"}","truncatedAlerts":0}',
    );
  });

  it('escapes the receiver name with QuoteMeta', () => {
    const payload = buildWebhookPayload({
      receiver: 'team.x-y',
      groupKey: '{}:{}',
      groupLabels: {},
      externalURL: '',
      alerts: [],
      maxAlerts: 0,
      now: NOW,
    });
    expect(JSON.stringify(payload)).toContain('"receiver":"team\\\\.x-y"');
    expect(payload).toMatchObject({
      status: 'resolved',
      alerts: [],
      groupLabels: {},
      commonLabels: {},
      commonAnnotations: {},
    });
  });

  it('truncates to max_alerts and computes status and common labels on what is sent', () => {
    const payload = buildWebhookPayload({
      receiver: 'hook',
      groupKey: '{}:{}',
      groupLabels: {},
      externalURL: 'http://am',
      alerts: [
        testAlert({ alertname: 'A', team: 'x', zone: '1' }, { startsAt: STARTS, endsAt: NOW - 1 }),
        testAlert({ alertname: 'A', team: 'x', zone: '2' }, { startsAt: STARTS, endsAt: NOW }),
        testAlert(
          { alertname: 'B', team: 'x', zone: '2' },
          { startsAt: STARTS, endsAt: GO_ZERO_TIME },
        ),
      ],
      maxAlerts: 2,
      now: NOW,
    });
    expect(payload.truncatedAlerts).toBe(1);
    expect(payload.alerts.map((a) => [a.status, a.endsAt])).toEqual([
      ['resolved', '2026-11-21T03:59:59.999Z'],
      ['resolved', '2026-11-21T04:00:00Z'],
    ]);
    expect(payload.status).toBe('resolved'); // the firing alert B was cut
    expect(payload.commonLabels).toEqual({ alertname: 'A', team: 'x' });
  });

  it('keeps only labels and annotations shared with the same value by all alerts', () => {
    const payload = buildWebhookPayload({
      receiver: 'hook',
      groupKey: 'k',
      groupLabels: { b: '1', a: '2' },
      externalURL: 'http://am',
      alerts: [
        testAlert({ a: '1', b: '1' }, { annotations: { s: 'x', d: '1' }, startsAt: STARTS }),
        testAlert({ a: '2', b: '1' }, { annotations: { s: 'x' }, startsAt: STARTS }),
      ],
      maxAlerts: 5,
      now: NOW,
    });
    expect(payload.commonLabels).toEqual({ b: '1' });
    expect(payload.commonAnnotations).toEqual({ s: 'x' });
    expect(Object.keys(payload.groupLabels)).toEqual(['a', 'b']);
    expect(payload.truncatedAlerts).toBe(0);
    expect(payload.status).toBe('firing');
  });
});
