import type { Logger } from '../logging/logger';
import type { Clock } from '../time/clock';
import type { Scheduler, TimerHandle } from '../time/scheduler';
import type { Queryable } from '../tsdb/queryable';
import { firstSlotAfter, groupOffsetNs, nextSlot } from './evaluation-slots';
import type { GroupEvaluator, RuleAlertNotification } from './group-evaluator';
import { restoreForState, type RestoreSettings } from './restore-for-state';
import type { RuleMetrics } from './rule-metrics';

/** What a running group needs besides its evaluator. */
export interface GroupRunnerDeps {
  readonly clock: Clock;
  readonly scheduler: Scheduler;
  readonly metrics: RuleMetrics;
  readonly logger: Logger;
  /** Hands the alerts of one evaluation to the notifier (the dispatcher, in-process). */
  readonly notify: (alerts: RuleAlertNotification[]) => void;
  /** Where `for` state is restored from after a start; undefined when nothing is restored. */
  readonly restore: { readonly store: Queryable; readonly settings: RestoreSettings } | undefined;
}

/**
 * Runs one rule group on its slots, as upstream's `Group.run`: the first evaluation at the first
 * slot after start (slots are spread by the hash of file and name), then every interval; slots
 * an evaluation overran are counted as missed and skipped. After a start, the `for` state of
 * its alerting rules is restored after the second evaluation, when recording rules have written
 * fresh values.
 */
export class RuleGroupRunner {
  private timer: TimerHandle | undefined;
  private lastSlot = 0;
  private iterations = 0;
  private stopped = false;
  /** When the last evaluation ran (ms) and how long it took; 0 before the first. */
  lastEvaluation = 0;
  lastDurationMs = 0;

  constructor(
    readonly file: string,
    readonly evaluator: GroupEvaluator,
    private readonly deps: GroupRunnerDeps,
  ) {}

  /** Upstream's group key, `file;name`: the `rule_group` label of the group's metrics. */
  get key(): string {
    return `${this.file};${this.evaluator.group.name}`;
  }

  get intervalMs(): number {
    return this.evaluator.intervalMs;
  }

  start(): void {
    const { metrics } = this.deps;
    metrics.groupInterval.set({ rule_group: this.key }, this.intervalMs / 1000);
    metrics.groupRules.set({ rule_group: this.key }, this.evaluator.group.rules.length);
    // Upstream creates the group's counters at zero when it loads.
    for (const counter of [
      metrics.iterationsMissed,
      metrics.iterationsScheduled,
      metrics.evalTotal,
      metrics.evalFailures,
    ])
      counter.inc({ rule_group: this.key }, 0);
    const offset = groupOffsetNs(this.file, this.evaluator.group.name, this.intervalMs);
    const first = firstSlotAfter(this.deps.clock.now(), this.intervalMs, offset);
    this.timer = this.deps.scheduler.set(first, () => this.tick(first, 0));
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) this.deps.scheduler.clear(this.timer);
    this.timer = undefined;
  }

  private tick(slot: number, missed: number): void {
    if (this.stopped) return;
    const { metrics, clock } = this.deps;
    const group = { rule_group: this.key };
    if (missed > 0) {
      metrics.iterationsMissed.inc(group, missed);
      metrics.iterationsScheduled.inc(group, missed);
    }
    metrics.iterationsScheduled.inc(group);
    const started = clock.now();
    const startedHr = performance.now();
    if (this.evaluator.remote) {
      // Results of a remote datasource arrive later; the next slot waits for this evaluation.
      void this.evaluator.prefetch(slot).then((fetched) => {
        if (!this.stopped) this.finish(slot, started, startedHr, fetched);
      });
      return;
    }
    this.finish(slot, started, startedHr, undefined);
  }

  private finish(
    slot: number,
    started: number,
    startedHr: number,
    fetched: Awaited<ReturnType<GroupEvaluator['prefetch']>>,
  ): void {
    const { metrics, clock } = this.deps;
    const group = { rule_group: this.key };
    const result = this.evaluator.evaluate(slot, fetched);
    const durationMs = performance.now() - startedHr;
    this.lastEvaluation = started;
    this.lastDurationMs = durationMs;
    this.lastSlot = slot;
    this.iterations++;
    metrics.iterationDuration.observe(durationMs / 1000);
    metrics.lastDuration.set(group, durationMs / 1000);
    metrics.lastEvalTime.set(group, started / 1000);
    metrics.lastSamples.set(group, result.samples);
    for (const { status } of this.evaluator.rules) {
      metrics.evalTotal.inc(group);
      metrics.evalDuration.observe(status.durationMs / 1000);
      if (status.health === 'err') metrics.evalFailures.inc(group);
    }
    if (result.alerts.length > 0) this.deps.notify(result.alerts);
    if (this.iterations === 2 && this.deps.restore) this.restore(this.deps.restore);
    this.timer = this.deps.scheduler.set(this.lastSlot + this.intervalMs, () => {
      const next = nextSlot(this.lastSlot, clock.now(), this.intervalMs);
      this.tick(next.slot, next.missed);
    });
  }

  private restore({ store, settings }: NonNullable<GroupRunnerDeps['restore']>): void {
    const now = this.deps.clock.now();
    for (const { state } of this.evaluator.rules) {
      if (state) restoreForState(state, store, now, settings);
    }
    this.deps.logger.debug('for state restored', { group: this.key });
  }
}
