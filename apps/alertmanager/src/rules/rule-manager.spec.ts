import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { recordingLogger } from '../logging/testing/recording-logger';
import { PromqlEngine } from '../promql';
import { FakeScheduler } from '../time/testing/fake-scheduler';
import { Labels } from '../tsdb/labels';
import { MemoryStore } from '../tsdb/memory-store';
import type { RuleAlertNotification } from './group-evaluator';
import { RuleLoadError } from './load-rule-groups';
import { RuleManager } from './rule-manager';
import { RuleMetrics } from './rule-metrics';
import { InProcessRuleQueries } from './rule-queries';
import { MemoryAppender } from './unit-test/memory-appender';

const MINUTE = 60_000;
const TESTDATA = join(__dirname, 'testdata');
const UP = (job: string) => Labels.fromRecord({ __name__: 'up', job, instance: 'a' });

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rule-manager-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** A server's rule side on a fake clock: a store `up` is written to each minute, sent alerts. */
function harness(
  store = new MemoryStore(),
  scheduler = new FakeScheduler(0),
  warmUp?: (nowMs: number) => Promise<void>,
) {
  const registry = new Registry();
  const sent: { at: number; alerts: RuleAlertNotification[] }[] = [];
  const queries = new InProcessRuleQueries(new PromqlEngine(store), store);
  const manager = new RuleManager({
    queries: warmUp === undefined ? queries : Object.assign(queries, { warmUp }),
    storage: { appender: () => new MemoryAppender(store) },
    clock: scheduler,
    scheduler,
    metrics: new RuleMetrics(registry),
    logger: recordingLogger([]),
    notify: (alerts) => sent.push({ at: scheduler.now(), alerts }),
    resendDelayMs: MINUTE,
    restore: { outageToleranceMs: 60 * MINUTE, forGracePeriodMs: MINUTE },
  });
  const settings = (ruleFiles: string[]) => ({
    ruleFiles,
    evaluationIntervalMs: MINUTE,
    externalLabels: {},
    externalUrl: 'http://am:9093',
  });
  /** `up` of redis each 15 s while `down(t)` says if it is 0, until the clock stops. */
  const scrape = (down: (t: number) => boolean) => {
    const tick = () => {
      const t = scheduler.now();
      store.append(UP('redis'), t, down(t) ? 0 : 1);
      scheduler.set(t + 15_000, tick);
    };
    scheduler.set(Math.ceil(scheduler.now() / 15_000) * 15_000, tick);
  };
  const firing = () => sent.filter((s) => s.alerts.some((a) => a.endsAt > s.at)).map((s) => s.at);
  return { store, scheduler, registry, manager, sent, settings, scrape, firing };
}

async function rulesFile(name = 'redis-down.rules.yml'): Promise<string> {
  const path = join(dir, name);
  await copyFile(join(TESTDATA, name), path);
  return path;
}

describe('RuleManager', () => {
  it('is warm once the first rules loaded have had their query thread started and compiled', async () => {
    let finish = () => {};
    const warmUps: number[] = [];
    const h = harness(undefined, undefined, (nowMs) => {
      warmUps.push(nowMs);
      return new Promise<void>((resolve) => (finish = resolve));
    });
    expect(h.manager.warm).toBe(true);
    await h.manager.update(h.settings([await rulesFile()]));
    expect(h.manager.warm).toBe(false);
    finish();
    await new Promise((resolve) => setImmediate(resolve));
    expect(h.manager.warm).toBe(true);
    // A reload does not warm again.
    await h.manager.update(h.settings([await rulesFile()]));
    expect(h.manager.warm).toBe(true);
    expect(warmUps).toEqual([0]);
    h.manager.stop();
  });

  it('evaluates each group on its slots and fires after for, with Prometheus metrics', async () => {
    const h = harness();
    const file = await rulesFile();
    h.scrape((t) => t >= 2 * MINUTE);
    await h.manager.update(h.settings([file]));
    const [group] = h.manager.groups;
    expect(group.key).toBe(`${file};redis`);
    await h.scheduler.advance(10 * MINUTE);
    // Down from minute 2; pending at the first slot after that, firing five minutes later.
    const firstFiring = h.firing()[0];
    const slotOffset = group.lastEvaluation % MINUTE;
    expect(firstFiring).toBe(2 * MINUTE + slotOffset + 5 * MINUTE);
    const alert = h.sent.find((s) => s.at === firstFiring)?.alerts[0];
    expect(alert?.labels.toRecord()).toEqual({
      alertname: 'RedisDown',
      job: 'redis',
      severity: 'critical',
    });
    expect(alert?.annotations).toEqual({ summary: 'redis is down (0)' });
    expect(alert?.generatorUrl).toMatch(/^http:\/\/am:9093\/graph\?g0\.expr=/);
    const metrics = await h.registry.getMetricsAsJSON();
    const value = (name: string) =>
      metrics.find((m) => m.name === name)?.values.find((v) => v.labels['rule_group'] === group.key)
        ?.value;
    expect(value('prometheus_rule_group_iterations_total')).toBe(10);
    expect(value('prometheus_rule_evaluations_total')).toBe(20);
    expect(value('prometheus_rule_evaluation_failures_total')).toBe(0);
    expect(value('prometheus_rule_group_interval_seconds')).toBe(60);
    expect(value('prometheus_rule_group_rules')).toBe(2);
    expect(value('prometheus_rule_group_last_evaluation_timestamp_seconds')).toBe(
      group.lastEvaluation / 1000,
    );
    h.manager.stop();
  });

  it('restores the for state after a restart in the middle of for', async () => {
    const store = new MemoryStore();
    const scheduler = new FakeScheduler(0);
    const file = await rulesFile();
    const before = harness(store, scheduler);
    before.scrape(() => true);
    await before.manager.update(before.settings([file]));
    await scheduler.advance(3 * MINUTE);
    const forState = store
      .querier(0, scheduler.now())
      .select([
        {
          name: '__name__',
          type: '=',
          value: 'ALERTS_FOR_STATE',
          matches: (v) => v === 'ALERTS_FOR_STATE',
        },
      ])[0]
      .samples(0, scheduler.now());
    const last = forState.t.length - 1;
    const leftPending =
      5 * MINUTE - (Math.floor(forState.t[last] / 1000) - forState.v[last]) * 1000;
    before.manager.stop();
    // Two minutes down; redis is still down when the server is back.
    await scheduler.advance(2 * MINUTE);
    const after = harness(store, scheduler);
    await after.manager.update(after.settings([file]));
    await scheduler.advance(MINUTE);
    // The restore runs at the second evaluation after the start.
    const restoredAt = after.manager.groups[0].lastEvaluation + MINUTE;
    await scheduler.advance(10 * MINUTE);
    // What was left of for when the server stopped is what is left after the restore: neither
    // the time pending before the stop nor the downtime is lost or counted twice.
    expect(after.firing()[0]).toBeGreaterThanOrEqual(restoredAt + leftPending);
    expect(after.firing()[0]).toBeLessThan(restoredAt + leftPending + 1000);
    expect(leftPending).toBeLessThan(5 * MINUTE);
    after.manager.stop();
  });

  it('keeps a firing alert firing across a reload of the same group', async () => {
    const h = harness();
    const file = await rulesFile();
    h.scrape(() => true);
    await h.manager.update(h.settings([file]));
    await h.scheduler.advance(8 * MINUTE);
    const firedBefore = h.firing().length;
    expect(firedBefore).toBeGreaterThan(0);
    await h.manager.update(h.settings([file]));
    await h.scheduler.advance(2 * MINUTE);
    expect(h.firing().length).toBeGreaterThan(firedBefore);
    h.manager.stop();
  });

  it('refuses a reload with an invalid rule file and keeps the running groups', async () => {
    const h = harness();
    const file = await rulesFile();
    await h.manager.update(h.settings([file]));
    const invalid = await rulesFile('invalid.rules.yml');
    await expect(h.manager.update(h.settings([file, invalid]))).rejects.toThrow(RuleLoadError);
    await expect(h.manager.update(h.settings([file, invalid]))).rejects.toThrow(
      `${invalid}: 5:15: group "redis", rule 1, "Broken": could not parse expression: 1:6: parse error: unexpected end of input`,
    );
    expect(h.manager.groups.map((g) => g.key)).toEqual([`${file};redis`]);
    h.manager.stop();
  });

  it('marks the series of a removed group stale two intervals later', async () => {
    const h = harness();
    const file = await rulesFile();
    h.scrape(() => false);
    await h.manager.update(h.settings([file]));
    await h.scheduler.advance(3 * MINUTE);
    const empty = join(dir, 'empty.rules.yml');
    await writeFile(empty, 'groups: []\n');
    await h.manager.update(h.settings([empty]));
    expect(h.manager.groups).toEqual([]);
    await h.scheduler.advance(3 * MINUTE);
    const recorded = h.store.get(Labels.fromRecord({ __name__: 'job:up:min', job: 'redis' }));
    const run = recorded?.samples(0, h.scheduler.now());
    expect(run?.stale?.[run.t.length - 1]).toBe(1);
  });
});
