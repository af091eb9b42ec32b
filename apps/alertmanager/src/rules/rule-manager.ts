import type { Logger } from '../logging/logger';
import type { Clock } from '../time/clock';
import type { Scheduler } from '../time/scheduler';
import {
  GroupEvaluator,
  type RemoteQueries,
  type RuleAlertNotification,
  type SampleAppender,
} from './group-evaluator';
import { loadRuleGroups, type LoadedGroup } from './load-rule-groups';
import type { RuleExemplarReader } from './rule-exemplars';
import type { RestoreSettings } from './restore-for-state';
import type { RuleQueries } from './rule-queries';
import type { RuleMetrics } from './rule-metrics';
import { RuleGroupRunner } from './rule-group-runner';

/** The parts rule evaluation runs on, fixed for the life of the server. */
export interface RuleManagerDeps {
  /** Where expressions are answered and `for` state is read: query threads in the server. */
  readonly queries: RuleQueries;
  readonly storage: { appender(): SampleAppender };
  readonly clock: Clock;
  readonly scheduler: Scheduler;
  readonly metrics: RuleMetrics;
  readonly logger: Logger;
  /** Hands alerts to the notifier (the dispatcher, in-process). */
  readonly notify: (alerts: RuleAlertNotification[]) => void;
  /** `--rules.alert.resend-delay`. */
  readonly resendDelayMs: number;
  readonly restore: RestoreSettings;
  /** `--rules.datasource.url`: expressions answered there instead of by `queries`. */
  readonly remote?: RemoteQueries;
  /** The exemplar store, read by rule templates' `exemplars`. */
  readonly exemplars?: RuleExemplarReader;
  /** `--web.trace-url`, for exemplars' `.TraceURL` in rule templates. */
  readonly traceUrl?: string;
}

/** What a configuration says about rules: re-read on every reload. */
export interface RuleSettings {
  /** `rule_files`: glob patterns, absolute or relative to the process. */
  readonly ruleFiles: readonly string[];
  /** `global.evaluation_interval`: the interval of groups without their own. */
  readonly evaluationIntervalMs: number;
  readonly externalLabels: Readonly<Record<string, string>>;
  readonly externalUrl: string;
}

/**
 * Loads rule files into running groups and swaps them on a reload, as upstream's rule manager:
 * the new files are read and validated first (a bad file throws and leaves the running groups
 * alone), then every group is replaced by its new version, which takes over the alerts of the
 * group with the same file and name once its evaluation under way has finished; groups that are
 * gone stop. `for` state is restored from the store only for the groups of the first load.
 */
export class RuleManager {
  private runners: RuleGroupRunner[] = [];
  private loaded = false;
  /** The rules' query thread is starting and compiling its code (the first rules loaded). */
  private warming = false;
  private closed = false;

  constructor(private readonly deps: RuleManagerDeps) {}

  /** The running groups, by file then name (the order of the rules API). */
  get groups(): readonly RuleGroupRunner[] {
    return this.runners;
  }

  /** Loads the settings' rule files and puts them into force (see {@link prepare}). */
  async update(settings: RuleSettings): Promise<void> {
    await (
      await this.prepare(settings)
    )();
  }

  /**
   * Reads and validates the rule files, throwing {@link RuleLoadError} with every problem; the
   * returned commit swaps the running groups for the new ones. Nothing changes before the commit.
   */
  async prepare(settings: RuleSettings): Promise<() => Promise<void>> {
    const loaded = await loadRuleGroups(settings.ruleFiles);
    return () => this.commit(loaded, settings);
  }

  private async commit(loaded: readonly LoadedGroup[], settings: RuleSettings): Promise<void> {
    // As upstream: the old groups finish the evaluation under way before the new take their state.
    const running = this.runners;
    await Promise.all(running.map((runner) => runner.stop()));
    if (this.closed) return;
    const env = {
      queries: this.deps.queries,
      storage: this.deps.storage,
      externalLabels: settings.externalLabels,
      externalUrl: settings.externalUrl,
      resendDelayMs: this.deps.resendDelayMs,
      remote: this.deps.remote,
      exemplars: this.deps.exemplars,
      traceUrl: this.deps.traceUrl,
    };
    const previous = new Map(running.map((r) => [r.key, r]));
    const restore = this.loaded
      ? undefined
      : { queries: this.deps.queries, settings: this.deps.restore };
    const next = loaded.map(({ file, group }) => {
      const evaluator = new GroupEvaluator(
        group,
        group.intervalMs || settings.evaluationIntervalMs,
        env,
      );
      const runner = new RuleGroupRunner(file, evaluator, { ...this.deps, restore });
      const old = previous.get(runner.key);
      if (this.loaded) evaluator.markRestored();
      if (old) {
        evaluator.copyStateFrom(old.evaluator);
        previous.delete(runner.key);
      }
      return runner;
    });
    for (const gone of previous.values()) this.retire(gone);
    next.sort(
      (a, b) =>
        compareStrings(a.file, b.file) ||
        compareStrings(a.evaluator.group.name, b.evaluator.group.name),
    );
    this.runners = next;
    // The first evaluations find the thread started and its code compiled.
    if (!this.loaded && next.length > 0 && this.deps.queries.warmUp !== undefined) {
      this.warming = true;
      this.deps.queries
        .warmUp(this.deps.clock.now())
        .catch((error: Error) => {
          this.deps.logger.warn('warming the rules query thread failed', { err: error.message });
        })
        .finally(() => (this.warming = false));
    }
    this.loaded = true;
    for (const runner of next) runner.start();
    this.deps.logger.info('rules loaded', { groups: next.length });
  }

  /**
   * Whether the rules' query thread has started and compiled its code (or needs not): until
   * then it takes a core that a first query would share.
   */
  get warm(): boolean {
    return !this.warming;
  }

  /** Stops every group; what their evaluations under way would still do is dropped. */
  stop(): void {
    this.closed = true;
    for (const runner of this.runners) runner.discard();
    this.runners = [];
  }

  /**
   * A group a reload removed: its metrics go, and its series get staleness markers after two of
   * its intervals (upstream's wait, which lets a renamed group write its series first).
   */
  private retire(gone: RuleGroupRunner): void {
    this.deps.metrics.forget(gone.key);
    const series = gone.evaluator.writtenSeries;
    if (series.length === 0) return;
    const at = this.deps.clock.now() + 2 * gone.intervalMs;
    this.deps.scheduler.set(at, () => {
      const appender = this.deps.storage.appender();
      for (const labels of series) appender.addStale(labels, at);
      appender.commit();
    });
  }
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
