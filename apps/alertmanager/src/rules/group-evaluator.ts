import { formatExprForLink } from './expr-link';
import type { QueryResult } from '../promql';
import { Labels, METRIC_NAME } from '../tsdb/labels';
import { AlertingRuleState, RuleEvaluationError, type OutgoingAlert } from './alerting-rule-state';
import type { AlertingRule, RecordingRule, Rule, RuleGroup } from './rule-file';
import { selectRuleExemplars, type RuleExemplarReader } from './rule-exemplars';
import { expandRuleTemplate, type RuleTemplateContext } from './rule-templates';
import { ruleSamplesOf, type RuleQueries, type RuleSample } from './rule-queries';

/** Samples of one rule, appended together (the store's `MetricAppender`, or a test's). */
export interface SampleAppender {
  add(labels: Labels, t: number, v: number): unknown;
  addStale(labels: Labels, t: number): unknown;
  commit(): {
    readonly rejected: ReadonlyMap<string, number>;
    /** Resolves once the samples are written to the store's log; none: they are once committed. */
    readonly written?: Promise<void>;
  };
}

/** What evaluating rules needs from the server. */
export interface RuleEnvironment {
  /** Where expressions, and the expressions of templates' `query`, are answered. */
  readonly queries: RuleQueries;
  readonly storage: { appender(): SampleAppender };
  readonly externalLabels: Readonly<Record<string, string>>;
  readonly externalUrl: string;
  /** `--rules.alert.resend-delay`: how often a firing alert is sent again. */
  readonly resendDelayMs: number;
  /**
   * Where rule expressions are answered instead of by `queries` (`--rules.datasource.url`): a
   * group's results are all fetched at once before its rules evaluate.
   */
  readonly remote?: RemoteQueries;
  /** The exemplar store that rule templates' `exemplars` reads; none: it finds nothing. */
  readonly exemplars?: RuleExemplarReader;
  /** `--web.trace-url`, for the `.TraceURL` of an exemplar in rule templates. */
  readonly traceUrl?: string;
}

/** Answers a group's expressions elsewhere than the embedded store, all at once. */
export interface RemoteQueries {
  /** Each rule's result, or the error that stands for it, in rule order. */
  queryAll(exprs: readonly string[], timeMs: number): Promise<(QueryResult | Error)[]>;
}

export type RuleHealth = 'unknown' | 'ok' | 'err';

/** A rule's standing after its last evaluation, as the rules API shows it. */
export interface RuleStatus {
  health: RuleHealth;
  lastError: string;
  lastEvaluation: number;
  durationMs: number;
}

/** An alert for the notifier, with the link back to its expression. */
export interface RuleAlertNotification extends OutgoingAlert {
  readonly generatorUrl: string;
}

/** What one evaluation of a group did. */
export interface GroupEvaluation {
  readonly alerts: RuleAlertNotification[];
  /** Samples written (recording rules' series, ALERTS, ALERTS_FOR_STATE). */
  readonly samples: number;
}

interface RuleEntry {
  readonly rule: Rule;
  readonly status: RuleStatus;
  readonly state: AlertingRuleState | undefined;
  /** The series the rule wrote last time, which get a staleness marker when it stops. */
  written: Map<string, Labels>;
}

/**
 * Evaluates one rule group at a slot timestamp, as upstream's `Group.Eval`: rules in file order,
 * each querying at `ts - query_offset` and committing its samples before the next runs (so later
 * rules see earlier recording rules' results); series a rule stops writing get a staleness
 * marker; alerting rules move their alerts through their state machine and return the alerts to
 * send.
 */
export class GroupEvaluator {
  private readonly entries: RuleEntry[];
  /** Series of rules a reload removed, marked stale at the next evaluation. */
  private staleSeries: Labels[] = [];

  constructor(
    readonly group: RuleGroup,
    readonly intervalMs: number,
    private readonly env: RuleEnvironment,
  ) {
    this.entries = group.rules.map((rule) => ({
      rule,
      status: { health: 'unknown', lastError: '', lastEvaluation: 0, durationMs: 0 },
      state:
        rule.kind === 'alerting'
          ? new AlertingRuleState({
              name: rule.alert,
              forMs: rule.forMs,
              keepFiringForMs: rule.keepFiringForMs,
              labels: this.ruleLabels(rule),
              limit: group.limit,
            })
          : undefined,
      written: new Map(),
    }));
  }

  /** Each rule with its status and, for alerting rules, its alerts. */
  get rules(): readonly { rule: Rule; status: RuleStatus; state: AlertingRuleState | undefined }[] {
    return this.entries;
  }

  /** Every series the group's rules wrote at their last evaluation. */
  get writtenSeries(): Labels[] {
    return this.entries.flatMap((entry) => [...entry.written.values()]);
  }

  /** Marks every alerting rule as restored: from now on they write `ALERTS` series. */
  markRestored(): void {
    for (const entry of this.entries) if (entry.state) entry.state.restored = true;
  }

  /**
   * Takes over the state of the group this one replaces on a reload, as upstream's
   * `Group.CopyState`: rules are matched by name and labels (duplicates in order); a matched rule
   * keeps its alerts and the series it wrote, an unmatched old rule's series go stale.
   */
  copyStateFrom(previous: GroupEvaluator): void {
    const byKey = new Map<string, RuleEntry[]>();
    for (const entry of previous.entries) {
      const key = ruleKey(entry.rule);
      byKey.set(key, [...(byKey.get(key) ?? []), entry]);
    }
    for (const entry of this.entries) {
      const old = byKey.get(ruleKey(entry.rule))?.shift();
      if (old === undefined) continue;
      entry.written = old.written;
      if (entry.state && old.state) {
        entry.state.adopt(old.state);
        entry.state.restored = old.state.restored;
      }
    }
    this.staleSeries = [...previous.staleSeries];
    for (const left of byKey.values())
      for (const entry of left) this.staleSeries.push(...entry.written.values());
  }

  /** Whether the group's expressions are answered by a remote datasource. */
  get remote(): boolean {
    return this.env.remote !== undefined;
  }

  /**
   * Evaluates every rule at `ts`. Each rule's expression is answered by the environment's
   * queries (a query thread in the server) after the rules before it have committed their
   * samples; what the answer does (records, alert states, templates) runs here.
   */
  async evaluate(ts: number): Promise<GroupEvaluation> {
    const queryTime = ts - (this.group.queryOffsetMs ?? 0);
    const fetched = await this.env.remote?.queryAll(
      this.entries.map((entry) => entry.rule.expr),
      queryTime,
    );
    const alerts: RuleAlertNotification[] = [];
    /** The rules' writes to the store's log, waited for before the evaluation is done. */
    const writes: Promise<void>[] = [];
    let samples = 0;
    if (this.staleSeries.length > 0) {
      const appender = this.env.storage.appender();
      for (const labels of this.staleSeries) appender.addStale(labels, queryTime);
      appender.commit();
      this.staleSeries = [];
    }
    for (const [index, entry] of this.entries.entries()) {
      const started = performance.now();
      let output: { labels: Labels; value: number }[] = [];
      try {
        const result = fetched
          ? ruleSamplesOf(resultOrThrow(fetched[index]))
          : samplesOrThrow((await this.env.queries.queryAll([entry.rule.expr], queryTime))[0]);
        output =
          entry.rule.kind === 'recording'
            ? this.record(entry.rule, result)
            : await this.alert(entry, result, ts);
        entry.status.health = 'ok';
        entry.status.lastError = '';
      } catch (error) {
        entry.status.health = 'err';
        entry.status.lastError = (error as Error).message;
        output = [];
      }
      samples += this.write(entry, output, queryTime, writes);
      if (entry.state) {
        const expr = entry.rule.query;
        for (const alert of entry.state.alertsToSend(ts, this.env.resendDelayMs, this.intervalMs)) {
          alerts.push({
            ...alert,
            generatorUrl: `${this.env.externalUrl}${formatExprForLink(expr)}`,
          });
        }
      }
      entry.status.lastEvaluation = ts;
      entry.status.durationMs = performance.now() - started;
    }
    await Promise.all(writes);
    return { alerts, samples };
  }

  /** The group's labels under the rule's own. */
  private ruleLabels(rule: Rule): Record<string, string> {
    return { ...this.group.labels, ...rule.labels };
  }

  private record(
    rule: RecordingRule,
    samples: readonly RuleSample[],
  ): { labels: Labels; value: number }[] {
    const out = samples.map((s) => {
      let labels = s.metric.with(METRIC_NAME, rule.record);
      for (const [k, v] of Object.entries(this.ruleLabels(rule))) labels = labels.with(k, v);
      return { labels, value: s.f };
    });
    const seen = new Set<string>();
    for (const s of out) {
      if (seen.has(s.labels.key)) {
        throw new RuleEvaluationError(
          'vector contains metrics with the same labelset after applying rule labels',
        );
      }
      seen.add(s.labels.key);
    }
    const { limit } = this.group;
    if (limit > 0 && out.length > limit)
      throw new RuleEvaluationError(`exceeded limit of ${limit} with ${out.length} series`);
    return out;
  }

  /**
   * The alert states after this evaluation's samples. Templates run synchronously, so their
   * `query` calls are answered in rounds: an expansion that asks for an expression not answered
   * yet sees an empty result and is done again once every expression it asked for is answered
   * (all of a round's at once); only an expansion that asked for nothing new is kept.
   */
  private async alert(
    entry: RuleEntry,
    samples: readonly RuleSample[],
    ts: number,
  ): Promise<{ labels: Labels; value: number }[]> {
    const rule = entry.rule as AlertingRule;
    const answers = new Map<string, readonly RuleSample[] | Error>();
    for (let round = 0; ; round++) {
      const asked = new Set<string>();
      const expanded = this.expandAlerts(rule, samples, ts, (expr) => {
        const answer = answers.get(expr);
        if (answer === undefined) asked.add(expr);
        if (answer instanceof Error) throw answer;
        return answer ?? [];
      });
      if (asked.size === 0) return (entry.state as AlertingRuleState).evaluate(ts, expanded);
      if (round === MAX_TEMPLATE_QUERY_ROUNDS) {
        throw new RuleEvaluationError(
          `templates asked for new query results ${MAX_TEMPLATE_QUERY_ROUNDS} times in a row`,
        );
      }
      const exprs = [...asked];
      const results = this.env.remote
        ? (await this.env.remote.queryAll(exprs, ts)).map((r) =>
            r instanceof Error ? r : attempt(() => ruleSamplesOf(r)),
          )
        : await this.env.queries.queryAll(exprs, ts);
      exprs.forEach((expr, i) => answers.set(expr, results[i]));
    }
  }

  /** Each sample with its labels and annotations expanded, `query` answered by `query`. */
  private expandAlerts(
    rule: AlertingRule,
    samples: readonly RuleSample[],
    ts: number,
    query: (expr: string) => readonly RuleSample[],
  ) {
    const exemplars = this.env.exemplars;
    const context: RuleTemplateContext = {
      now: ts,
      externalUrl: this.env.externalUrl,
      query: (expr: string) =>
        query(expr).map((s) => ({ labels: s.metric.toRecord(), value: s.f })),
      exemplars: exemplars && ((selector: string) => selectRuleExemplars(exemplars, selector, ts)),
      traceUrl: this.env.traceUrl,
    };
    return samples.map((s) => {
      const data = {
        labels: s.metric.toRecord(),
        externalLabels: this.env.externalLabels,
        externalUrl: this.env.externalUrl,
        value: s.f,
      };
      const expand = (text: string) => expandRuleTemplate(rule.alert, text, data, context);
      let labels = s.metric.without([METRIC_NAME]);
      for (const [k, v] of Object.entries(this.ruleLabels(rule)))
        labels = labels.with(k, expand(v));
      labels = labels.with('alertname', rule.alert);
      const annotations = Object.fromEntries(
        Object.entries(rule.annotations).map(([k, v]) => [k, expand(v)]),
      );
      return { labels, annotations, value: s.f };
    });
  }

  /**
   * Appends a rule's samples and staleness markers for its series that ended; returns how many,
   * and adds the wait for their write to `writes` (a write that fails makes the rule's error, as
   * a failed append does upstream).
   */
  private write(
    entry: RuleEntry,
    output: { labels: Labels; value: number }[],
    t: number,
    writes: Promise<void>[],
  ): number {
    const appender = this.env.storage.appender();
    const now = new Map<string, Labels>();
    for (const s of output) {
      appender.add(s.labels, t, s.value);
      now.set(s.labels.key, s.labels);
    }
    for (const [key, labels] of entry.written) if (!now.has(key)) appender.addStale(labels, t);
    entry.written = now;
    const result = appender.commit();
    if (result.rejected.size > 0 && entry.status.health === 'ok') {
      entry.status.health = 'err';
      entry.status.lastError = [...result.rejected.keys()][0];
    }
    if (result.written) {
      writes.push(
        result.written.catch((error: Error) => {
          entry.status.health = 'err';
          entry.status.lastError = error.message;
        }),
      );
    }
    return output.length;
  }
}

/** Upstream's `nameAndLabels`: what identifies a rule across a reload. */
function ruleKey(rule: Rule): string {
  const name = rule.kind === 'alerting' ? rule.alert : rule.record;
  return `${name}${Labels.fromRecord(rule.labels).toString()}`;
}

function resultOrThrow(result: QueryResult | Error | undefined): QueryResult {
  if (result === undefined) throw new RuleEvaluationError('no result from the remote datasource');
  if (result instanceof Error) throw result;
  return result;
}

function samplesOrThrow(result: readonly RuleSample[] | Error | undefined): readonly RuleSample[] {
  if (result === undefined) throw new RuleEvaluationError('no result for the rule expression');
  if (result instanceof Error) throw result;
  return result;
}

function attempt<T>(fn: () => T): T | Error {
  try {
    return fn();
  } catch (error) {
    return error as Error;
  }
}

/**
 * How many times an alert's templates may ask for `query` results they had not asked for before:
 * each round answers every expression the expansions asked for, so only templates whose queries
 * are built from earlier queries' results need more than one.
 */
const MAX_TEMPLATE_QUERY_ROUNDS = 8;
