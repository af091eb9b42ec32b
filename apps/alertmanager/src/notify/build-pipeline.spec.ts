import { testAlert } from '../alerts/testing/test-alert';
import type { LabelSet } from '../labels';
import { TimeIntervalSet } from '../timeinterval';
import type { Integration } from './notifier';
import {
  clientError,
  metricValue,
  pipelineFixture,
  ScriptedNotifier,
  serverError,
} from './testing/notify-fixtures';

const firing = (labels: LabelSet) => testAlert(labels, { startsAt: 1 });
const resolved = (labels: LabelSet, endsAt: number) => testAlert(labels, { startsAt: 1, endsAt });

function integration(notifier: ScriptedNotifier, sendResolved = true, index = 0): Integration {
  return { name: 'webhook', index, sendResolved, notifier };
}

describe('notification pipeline', () => {
  it('notifies once, then stays quiet until the repeat interval has passed', async () => {
    let notifier = new ScriptedNotifier({ now: () => 0 });
    const g = await pipelineFixture((clock) => ({
      r: [integration((notifier = new ScriptedNotifier(clock)))],
    }));
    const alerts = [firing({ alertname: 'A' })];
    await g.pipeline.exec(g.context({ repeatInterval: 60_000 }), alerts);
    expect(notifier.calls.map((c) => c.ctx.reason)).toEqual(['first notification']);
    await g.scheduler.advance(30_000);
    await g.pipeline.exec(g.context({ repeatInterval: 60_000 }), alerts);
    expect(notifier.calls).toHaveLength(1);
    await g.scheduler.advance(30_001);
    await g.pipeline.exec(g.context({ repeatInterval: 60_000 }), alerts);
    expect(notifier.calls.map((c) => c.ctx.reason)).toEqual([
      'first notification',
      'repeat interval elapsed',
    ]);
    expect(
      await metricValue(g.registry, 'alertmanager_notifications_total', { integration: 'webhook' }),
    ).toBe(2);
  });

  it('drops inhibited and silenced alerts, resolved ones included, before the integrations', async () => {
    const notifier = new ScriptedNotifier({ now: () => 0 });
    const f = await pipelineFixture(() => ({ r: [integration(notifier)] }), {
      inhibitor: { mutedBy: (l) => (l.alertname === 'Inhibited' ? ['abc'] : []) },
      silencer: { mutedBy: (l) => (l.alertname === 'Silenced' ? ['s1'] : []) },
    });
    const now = f.scheduler.now();
    await f.pipeline.exec(f.context(), [
      firing({ alertname: 'A' }),
      firing({ alertname: 'Inhibited' }),
      resolved({ alertname: 'Silenced' }, now - 1),
    ]);
    expect(notifier.calls[0].alerts.map((a) => a.labels.alertname)).toEqual(['A']);
  });

  it.each([
    ['outside active intervals: nothing', { activeTimeIntervals: ['never'] }, 0],
    ['inside an active interval: sent', { activeTimeIntervals: ['never', 'always'] }, 1],
    ['inside a mute interval: nothing', { muteTimeIntervals: ['always'] }, 0],
    ['mute interval not active: sent', { muteTimeIntervals: ['never'] }, 1],
  ])('time intervals: %s', async (_name, fields, calls) => {
    const notifier = new ScriptedNotifier({ now: () => 0 });
    const spec = { times: [], weekdays: [], days_of_month: [], months: [], years: [] };
    const intervals = new TimeIntervalSet([
      { name: 'always', time_intervals: [spec] },
      { name: 'never', time_intervals: [{ ...spec, years: [{ begin: 1990, end: 1990 }] }] },
    ]);
    const f = await pipelineFixture(() => ({ r: [integration(notifier)] }), { intervals });
    await f.pipeline.exec(f.context(fields), [firing({ alertname: 'A' })]);
    expect(notifier.calls).toHaveLength(calls);
  });

  it('without send_resolved, strips resolved alerts and logs "all resolved" without sending', async () => {
    const notifier = new ScriptedNotifier({ now: () => 0 });
    const f = await pipelineFixture(() => ({ r: [integration(notifier, false)] }));
    const a = firing({ alertname: 'A' });
    const b = firing({ alertname: 'B' });
    await f.pipeline.exec(f.context(), [a, b]);
    await f.scheduler.advance(1000);
    const now = f.scheduler.now();
    await f.pipeline.exec(f.context(), [a, resolved({ alertname: 'B' }, now - 1)]);
    expect(notifier.calls).toHaveLength(1); // B resolved: no notification without send_resolved
    await f.scheduler.advance(1000);
    const later = f.scheduler.now();
    await f.pipeline.exec(f.context(), [
      resolved({ alertname: 'A' }, later - 1),
      resolved({ alertname: 'B' }, now - 1),
    ]);
    expect(notifier.calls).toHaveLength(1);
    const entry = f.nflog.query('{}:{alertname="A"}', {
      groupName: 'r',
      integration: 'webhook',
      idx: 0,
    });
    expect(entry).toMatchObject({ timestamp: later, firingAlerts: [] });
    expect(entry?.resolvedAlerts).toHaveLength(2);
  });

  it('with send_resolved, sends a resolution with the resolved alert in it', async () => {
    const notifier = new ScriptedNotifier({ now: () => 0 });
    const f = await pipelineFixture(() => ({ r: [integration(notifier, true)] }));
    const a = firing({ alertname: 'A' });
    await f.pipeline.exec(f.context(), [a]);
    await f.scheduler.advance(1000);
    await f.pipeline.exec(f.context(), [resolved({ alertname: 'A' }, f.scheduler.now() - 1)]);
    expect(notifier.calls.map((c) => c.ctx.reason)).toEqual([
      'first notification',
      'all alerts resolved',
    ]);
    expect(notifier.calls[1].alerts).toHaveLength(1);
  });

  it('retries 5xx with exponential backoff until the deadline, then fails', async () => {
    let notifier = new ScriptedNotifier({ now: () => 0 });
    const script = Array.from({ length: 100 }, serverError);
    const f = await pipelineFixture((clock) => ({
      r: [integration((notifier = new ScriptedNotifier(clock, script)))],
    }));
    const start = f.scheduler.now();
    const done = f.pipeline.exec(f.context(), [firing({ alertname: 'A' })]).catch((e) => e);
    await f.scheduler.advance(20_000);
    const err = await done;
    expect(err).toBeInstanceOf(Error);
    expect(String(err.message)).toMatch(
      /notify retry canceled after \d+ attempts: unexpected status code 503/,
    );
    // random 0.5 gives the mean: 500ms, then x1.5 each time; the deadline is 10s.
    expect(notifier.calls.map((c) => c.at - start)).toEqual([0, 500, 1250, 2375, 4063, 6594]);
    expect(
      await metricValue(f.registry, 'alertmanager_notifications_failed_total', {
        integration: 'webhook',
        reason: 'serverError',
      }),
    ).toBe(1);
    expect(
      await metricValue(f.registry, 'alertmanager_notification_requests_failed_total', {
        integration: 'webhook',
      }),
    ).toBe(6);
    expect(f.nflog.size).toBe(0);
    expect(f.lines.filter((l) => l.includes('will retry later'))).toHaveLength(1);
  });

  it('does not retry a 4xx', async () => {
    const notifier = new ScriptedNotifier({ now: () => 0 }, [clientError()]);
    const f = await pipelineFixture(() => ({ r: [integration(notifier)] }));
    await expect(f.pipeline.exec(f.context(), [firing({ alertname: 'A' })])).rejects.toThrow(
      /unrecoverable error after 1 attempts: unexpected status code 400/,
    );
    expect(notifier.calls).toHaveLength(1);
    expect(
      await metricValue(f.registry, 'alertmanager_notifications_failed_total', {
        integration: 'webhook',
        reason: 'clientError',
      }),
    ).toBe(1);
  });

  it('retries network errors and records the notification once it succeeds', async () => {
    const errors = [new Error('ECONNREFUSED'), new Error('ECONNRESET')];
    const notifier = new ScriptedNotifier({ now: () => 0 }, errors);
    const g = await pipelineFixture(() => ({ r: [integration(notifier)] }));
    const done = g.pipeline.exec(g.context(), [firing({ alertname: 'A' })]);
    await g.scheduler.advance(5_000);
    await done;
    expect(notifier.calls).toHaveLength(3);
    expect(g.nflog.size).toBe(1);
    expect(
      await metricValue(g.registry, 'alertmanager_notification_requests_total', {
        integration: 'webhook',
      }),
    ).toBe(3);
  });

  it('keeps each outcome in the history: retries counted, the final error of a failure', async () => {
    const flaky = new ScriptedNotifier({ now: () => 0 }, [new Error('ECONNRESET')]);
    const broken = new ScriptedNotifier({ now: () => 0 }, [clientError()]);
    const f = await pipelineFixture(() => ({
      r: [integration(flaky), integration(broken, true, 1)],
    }));
    const done = f.pipeline.exec(f.context({ reason: 'first notification' }), [
      firing({ alertname: 'A', instance: 'x' }),
      resolved({ alertname: 'A', instance: 'y' }, 2),
    ]);
    const failure = done.then(
      () => undefined,
      (error: Error) => error,
    );
    await f.scheduler.advance(5_000);
    expect((await failure)?.message).toMatch(/unexpected status code 400/);
    const records = f.history.list({ limit: 10 });
    expect(
      records.map((r) => [r.receiver, r.integration, r.index, r.outcome, r.attempts, r.error]),
    ).toEqual([
      ['r', 'webhook', 0, 'success', 2, ''],
      [
        'r',
        'webhook',
        1,
        'failed',
        1,
        'r/webhook[1]: notify retry canceled due to unrecoverable error after 1 attempts: unexpected status code 400',
      ],
    ]);
    expect(records[0]).toMatchObject({
      groupKey: '{}:{alertname="A"}',
      groupLabels: { alertname: 'A' },
      reason: 'first notification',
    });
    expect(records[0].alerts.map((a) => [a.labels['instance'], a.status])).toEqual([
      ['x', 'firing'],
      ['y', 'resolved'],
    ]);
    expect(f.history.list({ outcome: 'failed', limit: 10 })).toHaveLength(1);
  });

  it.each([
    ['sent', []],
    ['failed', [clientError()]],
  ])(
    'without send_resolved, the history of a %s notification lists the firing alerts it carried',
    async (outcome, script) => {
      const notifier = new ScriptedNotifier({ now: () => 0 }, script);
      const f = await pipelineFixture(() => ({ r: [integration(notifier, false)] }));
      const done = f.pipeline.exec(f.context(), [
        firing({ alertname: 'A', instance: 'x' }),
        resolved({ alertname: 'A', instance: 'y' }, 2),
      ]);
      await done.catch(() => undefined);
      expect(notifier.calls[0].alerts.map((a) => a.labels['instance'])).toEqual(['x']);
      const [record] = f.history.list({ limit: 10 });
      expect(record.outcome).toBe(outcome === 'sent' ? 'success' : 'failed');
      expect(record.alerts.map((a) => [a.labels['instance'], a.status])).toEqual([['x', 'firing']]);
    },
  );

  it('fans out: one failing integration neither blocks the other nor hides its failure', async () => {
    const ok = new ScriptedNotifier({ now: () => 0 });
    const bad = new ScriptedNotifier({ now: () => 0 }, [clientError()]);
    const f = await pipelineFixture(() => ({
      r: [integration(ok, true, 0), integration(bad, true, 1)],
    }));
    await expect(f.pipeline.exec(f.context(), [firing({ alertname: 'A' })])).rejects.toThrow(
      /r\/webhook\[1\]/,
    );
    expect(ok.calls).toHaveLength(1);
    expect(f.nflog.size).toBe(1); // only the successful integration is recorded
  });

  it('fails for a receiver it has no stages for', async () => {
    const f = await pipelineFixture(() => ({}));
    await expect(f.pipeline.exec(f.context({ receiver: 'x' }), [])).rejects.toThrow(
      'stage for receiver missing: x',
    );
  });

  it('a receiver without integrations succeeds without sending', async () => {
    const f = await pipelineFixture(() => ({ r: [] }));
    await expect(f.pipeline.exec(f.context(), [firing({ alertname: 'A' })])).resolves.toEqual(
      expect.objectContaining({ alerts: [] }),
    );
  });
});
