import { Counter, Gauge, Summary, type Registry } from 'prom-client';

type GroupLabel = 'rule_group';

/**
 * The rule manager's metrics under Prometheus's names, so dashboards and alerts written for
 * Prometheus's rule evaluation read ours; each group's series are labelled `rule_group="file;name"`.
 */
export class RuleMetrics {
  readonly evalDuration: Summary;
  readonly iterationDuration: Summary;
  readonly iterationsMissed: Counter<GroupLabel>;
  readonly iterationsScheduled: Counter<GroupLabel>;
  readonly evalTotal: Counter<GroupLabel>;
  readonly evalFailures: Counter<GroupLabel>;
  readonly groupInterval: Gauge<GroupLabel>;
  readonly lastEvalTime: Gauge<GroupLabel>;
  readonly lastDuration: Gauge<GroupLabel>;
  readonly groupRules: Gauge<GroupLabel>;
  readonly lastSamples: Gauge<GroupLabel>;

  constructor(registry: Registry) {
    const registers = [registry];
    const labelNames = ['rule_group'] as const;
    this.evalDuration = new Summary({
      name: 'prometheus_rule_evaluation_duration_seconds',
      help: 'The duration for a rule to execute.',
      percentiles: [0.5, 0.9, 0.99],
      registers,
    });
    this.iterationDuration = new Summary({
      name: 'prometheus_rule_group_duration_seconds',
      help: 'The duration of rule group evaluations.',
      percentiles: [0.01, 0.05, 0.5, 0.9, 0.99],
      registers,
    });
    const counter = (name: string, help: string) =>
      new Counter({ name, help, labelNames, registers });
    const gauge = (name: string, help: string) => new Gauge({ name, help, labelNames, registers });
    this.iterationsMissed = counter(
      'prometheus_rule_group_iterations_missed_total',
      'The total number of rule group evaluations missed due to slow rule group evaluation.',
    );
    this.iterationsScheduled = counter(
      'prometheus_rule_group_iterations_total',
      'The total number of scheduled rule group evaluations, whether executed or missed.',
    );
    this.evalTotal = counter(
      'prometheus_rule_evaluations_total',
      'The total number of rule evaluations.',
    );
    this.evalFailures = counter(
      'prometheus_rule_evaluation_failures_total',
      'The total number of rule evaluation failures.',
    );
    this.groupInterval = gauge(
      'prometheus_rule_group_interval_seconds',
      'The interval of a rule group.',
    );
    this.lastEvalTime = gauge(
      'prometheus_rule_group_last_evaluation_timestamp_seconds',
      'The timestamp of the last rule group evaluation in seconds.',
    );
    this.lastDuration = gauge(
      'prometheus_rule_group_last_duration_seconds',
      'The duration of the last rule group evaluation.',
    );
    this.groupRules = gauge('prometheus_rule_group_rules', 'The number of rules.');
    this.lastSamples = gauge(
      'prometheus_rule_group_last_evaluation_samples',
      'The number of samples returned during the last rule group evaluation.',
    );
  }

  /** Removes a group's series when it is unloaded, as upstream does on reload. */
  forget(group: string): void {
    for (const metric of [
      this.iterationsMissed,
      this.iterationsScheduled,
      this.evalTotal,
      this.evalFailures,
      this.groupInterval,
      this.lastEvalTime,
      this.lastDuration,
      this.groupRules,
      this.lastSamples,
    ]) {
      metric.remove(group);
    }
  }
}
