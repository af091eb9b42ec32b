import { Registry } from 'prom-client';
import type { Alert } from '../alerts/alert.model';
import { parseConfig } from '../config';
import type { LabelSet } from '../labels';
import { StreamLogger } from '../logging/stream-logger';
import type { NotifyContext } from '../notify/notify-context';
import type { Stage } from '../notify/stage';
import { pipelineFixture, ScriptedNotifier } from '../notify/testing/notify-fixtures';
import { Dispatcher } from './dispatcher';
import { DispatcherMetrics } from './dispatcher-metrics';
import { FakeScheduler } from '../time/testing/fake-scheduler';
import { MemoryAlertStore } from '../alerts/memory-alert-store';
import { testAlert } from '../alerts/testing/test-alert';
import { GO_ZERO_TIME } from '../time/go-zero-time';

const T0 = 1_700_000_000_000;
const S = 1000;

/** A pipeline that records every flush and answers from a script (true = success). */
class RecordingStage implements Stage {
  readonly flushes: { ctx: NotifyContext; alerts: Alert[] }[] = [];
  outcomes: boolean[] = [];
  onExec?: (ctx: NotifyContext) => Promise<void> | void;

  async exec(ctx: NotifyContext, alerts: Alert[]) {
    this.flushes.push({ ctx, alerts });
    await this.onExec?.(ctx);
    if (this.outcomes.shift() === false) throw new Error('receiver down');
    return { ctx, alerts: [] };
  }

  times(): number[] {
    return this.flushes.map((f) => (f.ctx.now - T0) / S);
  }
}

function setup(routeYaml: string, pipeline: Stage = new RecordingStage()) {
  const config = parseConfig(`${routeYaml}\nreceivers: [{name: r}, {name: db}]\n`, 'x.yml');
  const scheduler = new FakeScheduler(T0);
  const store = new MemoryAlertStore(scheduler);
  const registry = new Registry();
  const metrics = new DispatcherMetrics(registry);
  const lines: string[] = [];
  const logger = new StreamLogger('debug', 'logfmt', (l) => lines.push(l));
  const dispatcher = new Dispatcher({
    config,
    store,
    pipeline,
    clock: scheduler,
    scheduler,
    logger,
    metrics,
  });
  return { dispatcher, scheduler, store, registry, lines, pipeline: pipeline as RecordingStage };
}

const ROUTE = `route: {receiver: r, group_by: [alertname], group_wait: 30s, group_interval: 1m, repeat_interval: 1h}`;
const alert = (labels: LabelSet, fields: Partial<Alert> = {}) =>
  testAlert(labels, { startsAt: T0, endsAt: T0 + 3600 * S, updatedAt: T0, ...fields });

describe('Dispatcher timers (fake clock)', () => {
  it('waits group_wait for the first flush, then flushes every group_interval', async () => {
    const t = setup(ROUTE);
    t.dispatcher.start();
    await t.store.put([alert({ alertname: 'A' })]);
    await t.scheduler.advance(29 * S);
    expect(t.pipeline.flushes).toHaveLength(0);
    await t.scheduler.advance(1 * S);
    expect(t.pipeline.times()).toEqual([30]);
    // A new alert in the group waits for the next tick; nothing else triggers a flush.
    await t.store.put([alert({ alertname: 'A', instance: '2' })]);
    await t.scheduler.advance(59 * S);
    expect(t.pipeline.flushes).toHaveLength(1);
    await t.scheduler.advance(1 * S + 60 * S);
    expect(t.pipeline.times()).toEqual([30, 90, 150]);
    expect(t.pipeline.flushes[1].alerts).toHaveLength(2);
  });

  it('skips group_wait for an alert that started longer than group_wait ago', async () => {
    const t = setup(ROUTE);
    t.dispatcher.start();
    await t.store.put([alert({ alertname: 'A' }, { startsAt: T0 - 31 * S })]);
    await t.scheduler.advance(0);
    expect(t.pipeline.times()).toEqual([0]);
    await t.scheduler.advance(60 * S);
    expect(t.pipeline.times()).toEqual([0, 60]);
  });

  it('an old alert joining a waiting group makes it flush at once', async () => {
    const t = setup(ROUTE);
    t.dispatcher.start();
    await t.store.put([alert({ alertname: 'A' })]);
    await t.scheduler.advance(10 * S);
    await t.store.put([alert({ alertname: 'A', x: '1' }, { startsAt: T0 - 60 * S })]);
    await t.scheduler.advance(0);
    expect(t.pipeline.times()).toEqual([10]);
    expect(t.pipeline.flushes[0].alerts).toHaveLength(2);
  });

  it('replays alerts already in the store on start (a reload), skipping group_wait for old ones', async () => {
    const t = setup(ROUTE);
    await t.store.put([alert({ alertname: 'A' }, { startsAt: T0 - 600 * S })]);
    t.dispatcher.start();
    await t.scheduler.advance(0);
    expect(t.pipeline.times()).toEqual([0]);
  });

  it('repeats only at a flush: repeat_interval rounds up to a multiple of group_interval', async () => {
    const notifier = new ScriptedNotifier({ now: () => 0 });
    const f = await pipelineFixture(() => ({
      r: [{ name: 'webhook', index: 0, sendResolved: true, notifier }],
    }));
    const t = setup(
      'route: {receiver: r, group_wait: 0s, group_interval: 60s, repeat_interval: 90s}',
      f.pipeline,
    );
    t.dispatcher.start();
    await t.store.put([alert({ alertname: 'A' }, { endsAt: T0 + 10 * 3600 * S })]);
    await t.scheduler.advance(300 * S);
    expect(notifier.calls.map((c) => (c.ctx.now - T0) / S)).toEqual([0, 120, 240]);
    expect(notifier.calls.map((c) => c.ctx.reason)).toEqual([
      'first notification',
      'repeat interval elapsed',
      'repeat interval elapsed',
    ]);
  });

  it('removes resolved alerts only after a successful flush, and then drops the empty group', async () => {
    const t = setup(ROUTE);
    t.dispatcher.start();
    const a = alert({ alertname: 'A' }, { endsAt: T0 + 40 * S });
    await t.store.put([a]);
    t.pipeline.outcomes = [true, false];
    await t.scheduler.advance(30 * S); // firing at 30s
    await t.scheduler.advance(60 * S); // resolved at 90s, but the flush fails
    expect(t.dispatcher.holds(a.fingerprint)).toBe(true);
    expect(t.store.gc(T0 + 90 * S, (x) => !t.dispatcher.holds(x.fingerprint))).toEqual([]);
    expect(t.lines.join('\n')).toMatch(/Notify for alerts failed.*receiver down/);
    await t.scheduler.advance(60 * S); // retried at the next tick, succeeds
    expect(t.pipeline.times()).toEqual([30, 90, 150]);
    expect(t.dispatcher.holds(a.fingerprint)).toBe(false);
    expect(t.dispatcher.groups()).toEqual([]);
    expect(
      (await t.registry.getSingleMetric('alertmanager_dispatcher_aggregation_groups')?.get())
        ?.values[0].value,
    ).toBe(0);
    await t.scheduler.advance(600 * S);
    expect(t.pipeline.flushes).toHaveLength(3);
    expect(t.scheduler.pending).toBe(0);
  });

  it('keeps a resolved alert that fired again during the flush', async () => {
    const t = setup(ROUTE);
    t.dispatcher.start();
    const a = alert({ alertname: 'A' }, { endsAt: T0 + 10 * S });
    await t.store.put([a]);
    t.pipeline.onExec = () =>
      t.store.put([alert({ alertname: 'A' }, { updatedAt: T0 + 31 * S, endsAt: T0 + 900 * S })]);
    await t.scheduler.advance(30 * S);
    expect(t.dispatcher.holds(a.fingerprint)).toBe(true);
  });
});

describe('Dispatcher flushes', () => {
  it('passes a context with the group, receiver, timers and a deadline of max(group_interval, 10s)', async () => {
    const t = setup(`route:
  receiver: r
  group_wait: 1s
  group_interval: 5s
  routes: [{matchers: [team="db"], receiver: db, group_by: [alertname], mute_time_intervals: [m], repeat_interval: 2h}]
time_intervals: [{name: m, time_intervals: [{years: ['1990']}]}]`);
    t.dispatcher.start();
    await t.store.put([alert({ alertname: 'DB', team: 'db' })]);
    await t.scheduler.advance(1 * S);
    const { ctx } = t.pipeline.flushes[0];
    expect(ctx).toMatchObject({
      now: T0 + S,
      groupKey: '{}/{team="db"}:{alertname="DB"}',
      receiver: 'db',
      groupLabels: { alertname: 'DB' },
      routeId: '{}/{team="db"}/0',
      repeatInterval: 7_200_000,
      muteTimeIntervals: ['m'],
      activeTimeIntervals: [],
      deadline: T0 + S + 10 * S,
    });
    expect(ctx.signal.aborted).toBe(false);
  });

  it('aborts a flush at its deadline', async () => {
    const t = setup(ROUTE);
    let aborted: unknown;
    t.pipeline.onExec = (ctx) =>
      new Promise<void>((resolve) =>
        ctx.signal.addEventListener('abort', () => {
          aborted = ctx.signal.reason;
          resolve();
        }),
      );
    t.dispatcher.start();
    await t.store.put([alert({ alertname: 'A' })]);
    await t.scheduler.advance(30 * S + 60 * S);
    expect(String(aborted)).toMatch(/deadline exceeded/);
  });

  it('sends firing alerts with a zero endsAt, resolved ones with theirs, in upstream order', async () => {
    const t = setup('route: {receiver: r, group_wait: 10s}');
    t.pipeline.outcomes = [false];
    t.dispatcher.start();
    await t.store.put([
      alert({ alertname: 'Z', job: 'b' }),
      alert({ alertname: 'Y', job: 'a' }, { endsAt: T0 + 5 * S }),
      alert({ alertname: 'X' }),
    ]);
    await t.scheduler.advance(10 * S);
    expect(
      t.pipeline.flushes[0].alerts.map((a) => [
        a.labels.alertname,
        a.endsAt === GO_ZERO_TIME ? 'zero' : a.endsAt - T0,
      ]),
    ).toEqual([
      ['Y', 5 * S],
      ['Z', 'zero'],
      ['X', 'zero'],
    ]);
    // The group itself keeps the real end times (the failed flush kept the resolved alert).
    expect(t.dispatcher.groups()[0].alerts.map((a) => a.endsAt)).toEqual([
      T0 + 5 * S,
      T0 + 3600 * S,
      T0 + 3600 * S,
    ]);
  });

  it('lists groups with upstream group keys, one per matched route', async () => {
    const t = setup(`route:
  receiver: r
  group_by: [alertname]
  routes:
    - {matchers: [team="db"], receiver: db, continue: true}
    - {match: {all: 'yes'}, receiver: r, group_by: ['...']}`);
    t.dispatcher.start();
    await t.store.put([
      alert({ alertname: 'TestAlert' }),
      alert({ alertname: 'DB', team: 'db' }),
      alert({ alertname: 'B', all: 'yes' }),
    ]);
    expect(t.dispatcher.groups().map((g) => [g.groupKey, g.receiver, g.alerts.length])).toEqual([
      ['{}/{team="db"}:{alertname="DB"}', 'db', 1],
      ['{}:{alertname="TestAlert"}', 'r', 1],
      ['{}/{all="yes"}:{alertname="B", all="yes"}', 'r', 1],
    ]);
  });

  it('stop() cancels timers and running flushes and ignores later alerts', async () => {
    const t = setup(ROUTE);
    let reason: unknown;
    t.pipeline.onExec = (ctx) =>
      new Promise<void>((resolve) =>
        ctx.signal.addEventListener('abort', () => {
          reason = ctx.signal.reason;
          resolve();
        }),
      );
    t.dispatcher.start();
    await t.store.put([alert({ alertname: 'A' }), alert({ alertname: 'B' }, { startsAt: 0 })]);
    await t.scheduler.advance(0); // B's group flushes and hangs
    await t.dispatcher.stop();
    expect(String(reason)).toMatch(/canceled/);
    await t.store.put([alert({ alertname: 'C' })]);
    await t.scheduler.advance(3600 * S);
    expect(t.pipeline.flushes).toHaveLength(1);
    expect(t.dispatcher.groups()).toEqual([]);
  });
});
