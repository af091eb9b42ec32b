import type { Logger } from '../logging/logger';
import type { Clock } from '../time/clock';
import type { Scheduler, TimerHandle } from '../time/scheduler';
import { firstSlotAfter, groupOffsetNs, nextSlot } from './evaluation-slots';
import type { GroupEvaluator, RuleAlertNotification } from './group-evaluator';
import { forStateSeries, restoreForState, type RestoreSettings } from './restore-for-state';
import type { RuleQueries } from './rule-queries';
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
  readonly restore:
    { readonly queries: RuleQueries; readonly settings: RestoreSettings } | undefined;
}

/**
 * Runs one rule group on its slots, as upstream's `Group.run`: the first evaluation at the first
 * slot after start (slots are spread by the hash of file and name), then every interval; slots
 * an evaluation overran are counted as missed and skipped. After a start, the `for` state of
 * its alerting rules is restored after the second evaluation, when recording rules have written
 * fresh values. An evaluation waits for its queries' answers without holding the thread; the
 * next slot is set once it has finished.
 */
export class RuleGroupRunner {
  private timer: TimerHandle | undefined;
  private lastSlot = 0;
  private iterations = 0;
  private stopped = false;
  /** Results that arrive from now on are dropped (the server is closing). */
  private discarded = false;
  /** The evaluation under way, if any. */
  private running: Promise<void> | undefined;
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

  /**
   * Stops scheduling; the evaluation under way, if any, finishes (its alerts are sent) and the
   * returned promise resolves after it, as upstream's `Group.stop` waits for the iteration.
   */
  stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) this.deps.scheduler.clear(this.timer);
    this.timer = undefined;
    return this.running ?? Promise.resolve();
  }

  /** Stops, and drops what the evaluation under way would still do. */
  discard(): void {
    this.discarded = true;
    void this.stop();
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
    const running = this.evaluate(slot, started, startedHr).finally(() => {
      if (this.running === running) this.running = undefined;
    });
    this.running = running;
  }

  private async evaluate(slot: number, started: number, startedHr: number): Promise<void> {
    const { clock } = this.deps;
    try {
      await this.record(slot, started, startedHr);
    } catch (error) {
      this.deps.logger.error('rule group evaluation failed', {
        group: this.key,
        err: (error as Error).message,
      });
    }
    if (this.stopped) return;
    this.timer = this.deps.scheduler.set(this.lastSlot + this.intervalMs, () => {
      const next = nextSlot(this.lastSlot, clock.now(), this.intervalMs);
      this.tick(next.slot, next.missed);
    });
  }

  /** Evaluates the group at `slot`, then records how it went and hands its alerts over. */
  private async record(slot: number, started: number, startedHr: number): Promise<void> {
    const { metrics } = this.deps;
    const group = { rule_group: this.key };
    this.lastSlot = slot;
    const result = await this.evaluator.evaluate(slot);
    if (this.discarded) return;
    const durationMs = performance.now() - startedHr;
    this.lastEvaluation = started;
    this.lastDurationMs = durationMs;
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
    if (this.iterations === 2 && this.deps.restore) await this.restore(this.deps.restore);
  }

  private async restore({ queries, settings }: NonNullable<GroupRunnerDeps['restore']>) {
    const now = this.deps.clock.now();
    for (const { state } of this.evaluator.rules) {
      if (state === undefined) continue;
      const { series, mint, maxt } = forStateSeries(state, now, settings);
      let last: Awaited<ReturnType<RuleQueries['lastSamples']>> = [];
      try {
        if (series.length > 0) last = await queries.lastSamples(series, mint, maxt);
      } catch (error) {
        // As upstream, a store that cannot be read leaves the alerts as they are.
        this.deps.logger.error('restoring for state failed', {
          group: this.key,
          err: (error as Error).message,
        });
      }
      if (this.discarded) return;
      restoreForState(state, last, now, settings);
    }
    this.deps.logger.debug('for state restored', { group: this.key });
  }
}
