import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, join } from 'node:path';
import { PromqlEngine } from '../../promql';
import {
  parseSeriesDescription,
  parseMetric,
  type SequenceValue,
} from '../../promql/series-description';
import { glob } from '../../template';
import { formatDuration as formatGoDuration } from '../../template/funcs/go-time';
import { formatDuration } from '../../time/duration';
import { compareLabels, Labels } from '../../tsdb/labels';
import { MemoryStore } from '../../tsdb/memory-store';
import { GroupEvaluator } from '../group-evaluator';
import { InProcessRuleQueries } from '../rule-queries';
import { parseRuleFile, type RuleGroup } from '../rule-file';
import { MemoryAppender } from './memory-appender';
import { parseRuleTestFile, TestFileError, type TestGroup } from './test-file';

const DEFAULT_EVALUATION_INTERVAL = 60_000;
/** promtool's query limits for rule tests. */
const MAX_SAMPLES = 10_000;

/** What a test file gave: errors as promtool prints them (none: it passed) and warnings. */
export interface RuleTestResult {
  readonly errors: string[];
  readonly warnings: string[];
}

/** What `--enable-feature` turns on for a rule test file. */
export interface RuleTestOptions {
  /** `promql-delayed-name-removal`: `__name__` is removed when a query finishes. */
  readonly delayedNameRemoval?: boolean;
}

/**
 * Runs a promtool rule test file as `promtool test rules` does: for each test group, the input
 * series are loaded as time goes, every group is evaluated at every evaluation interval up to the
 * last `eval_time`, firing alerts are compared at each `alert_rule_test` time and
 * `promql_expr_test` queries run at the end.
 */
export async function runRuleTestFile(
  path: string,
  options: RuleTestOptions = {},
): Promise<RuleTestResult> {
  const warnings: string[] = [];
  let file;
  try {
    file = parseRuleTestFile(await readFile(path, 'utf8'));
  } catch (error) {
    if (error instanceof TestFileError || (error as NodeJS.ErrnoException).code !== undefined) {
      return { errors: [(error as Error).message], warnings };
    }
    throw error;
  }
  const ruleFiles: string[] = [];
  for (const pattern of file.ruleFiles) {
    const resolved =
      pattern !== '' && !isAbsolute(pattern) ? join(dirname(path), pattern) : pattern;
    const matched = await glob(resolved);
    if (matched.length === 0) warnings.push(`  WARNING: no file match pattern ${resolved}`);
    ruleFiles.push(...matched);
  }
  const evalInterval = file.evaluationIntervalMs || DEFAULT_EVALUATION_INTERVAL;
  const order = new Map<string, number>();
  for (const [i, name] of file.groupEvalOrder.entries()) {
    if (order.has(name))
      return { errors: [`group name repeated in evaluation order: ${name}`], warnings };
    order.set(name, i);
  }
  const errors: string[] = [];
  for (const test of file.tests) {
    // As upstream, each test group loads the rule files itself (and reports their errors).
    const loaded = await loadGroups(ruleFiles, order);
    errors.push(
      ...(Array.isArray(loaded)
        ? loaded
        : await runTestGroup(test, loaded.groups, evalInterval, options)),
    );
  }
  return { errors, warnings };
}

/** The groups of the rule files, listed ones first in the listed order; or the files' errors. */
async function loadGroups(
  ruleFiles: readonly string[],
  order: ReadonlyMap<string, number>,
): Promise<string[] | { groups: RuleGroup[] }> {
  const groups: RuleGroup[] = [];
  for (const ruleFile of ruleFiles) {
    const parsed = parseRuleFile(await readFile(ruleFile, 'utf8'));
    if (!parsed.ok) return parsed.errors.map((e) => `${ruleFile}: ${e}`);
    groups.push(...parsed.groups);
  }
  const ordered = groups
    .map((group, index) => ({ group, index, rank: order.get(group.name) ?? 0 }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map((g) => g.group);
  return { groups: ordered };
}

async function runTestGroup(
  test: TestGroup,
  groups: RuleGroup[],
  evalInterval: number,
  options: RuleTestOptions,
): Promise<string[]> {
  const store = new MemoryStore();
  const engine = new PromqlEngine(store, {
    maxSamples: MAX_SAMPLES,
    timeoutMs: 100_000,
    defaultSubqueryStepMs: evalInterval,
    delayedNameRemoval: options.delayedNameRemoval === true,
    parser: {},
  });
  const queries = new InProcessRuleQueries(engine, store);
  const interval = test.intervalMs || evalInterval;
  let pending: { labels: Labels; t: number; value: SequenceValue }[];
  try {
    pending = loadingOrder(test, interval);
  } catch (error) {
    return [(error as Error).message];
  }
  const evaluators = groups.map(
    (group) =>
      new GroupEvaluator(group, interval, {
        queries,
        storage: { appender: () => new MemoryAppender(store) },
        externalLabels: test.externalLabels,
        externalUrl: test.externalUrl,
        resendDelayMs: 60_000,
      }),
  );
  for (const evaluator of evaluators) evaluator.markRestored();

  for (const alert of test.alertRuleTests) {
    if (alert.alertname === '') {
      const inGroup = test.name !== '' ? ` (in TestGroup ${test.name})` : '';
      return [
        `an item under alert_rule_test misses required attribute alertname at eval_time ${formatDuration(alert.evalTimeMs)}${inGroup}`,
      ];
    }
  }
  const alertTimes = [...new Set(test.alertRuleTests.map((a) => a.evalTimeMs))].sort(
    (a, b) => a - b,
  );
  const maxEval = Math.max(
    0,
    ...test.alertRuleTests.map((a) => a.evalTimeMs),
    ...test.promqlExprTests.map((p) => p.evalTimeMs),
  );
  const errors: string[] = [];
  let loaded = 0;
  let next = 0;
  for (let ts = 0; ts <= maxEval; ts += evalInterval) {
    // The input samples up to now, then every group.
    while (loaded < pending.length && pending[loaded].t <= ts) {
      const { labels, t, value } = pending[loaded++];
      store.append(labels, t, value.kind === 'value' ? value.value : NaN, value.kind === 'stale');
    }
    const evalErrors: string[] = [];
    for (const evaluator of evaluators) {
      await evaluator.evaluate(ts);
      for (const { rule, status } of evaluator.rules) {
        if (status.health === 'err') {
          const name = rule.kind === 'alerting' ? rule.alert : rule.record;
          evalErrors.push(
            `    rule: ${name}, time: ${formatGoDuration(ts)}, err: ${status.lastError}`,
          );
        }
      }
    }
    errors.push(...evalErrors);
    if (evalErrors.length > 0) return errors;
    while (
      next < alertTimes.length &&
      ts <= alertTimes[next] &&
      alertTimes[next] < ts + evalInterval
    ) {
      errors.push(...checkAlerts(test, evaluators, alertTimes[next++]));
    }
  }
  for (const testCase of test.promqlExprTests) errors.push(...checkExpression(engine, testCase));
  return errors;
}

/** Every input sample, in time order, as the loader hands them to the store. */
function loadingOrder(test: TestGroup, interval: number) {
  const samples: { labels: Labels; t: number; value: SequenceValue }[] = [];
  for (const input of test.inputSeries) {
    const { labels, values } = parseSeriesDescription(`${input.series} ${input.values}`);
    values.forEach((value, i) => {
      if (value.kind !== 'omitted') samples.push({ labels, t: i * interval, value });
    });
  }
  return samples.sort((a, b) => a.t - b.t);
}

interface AlertView {
  readonly labels: Labels;
  readonly annotations: Labels;
}

function compareAlerts(a: AlertView, b: AlertView): number {
  return compareLabels(a.labels, b.labels) || compareLabels(a.annotations, b.annotations);
}

function checkAlerts(test: TestGroup, evaluators: GroupEvaluator[], time: number): string[] {
  const errors: string[] = [];
  const cases = test.alertRuleTests.filter((a) => a.evalTimeMs === time);
  const wanted = new Set(cases.map((c) => c.alertname));
  const got = new Map<string, AlertView[]>();
  for (const evaluator of evaluators) {
    for (const { rule, state } of evaluator.rules) {
      if (rule.kind !== 'alerting' || state === undefined || !wanted.has(rule.alert)) continue;
      const firing = state.alerts
        .filter((a) => a.state === 'firing')
        .map((a) => ({ labels: a.labels, annotations: Labels.fromRecord(a.annotations) }));
      got.set(rule.alert, [...(got.get(rule.alert) ?? []), ...firing]);
    }
  }
  for (const testCase of cases) {
    const gotAlerts = [...(got.get(testCase.alertname) ?? [])].sort(compareAlerts);
    const expAlerts = testCase.expAlerts
      .map((e) => ({
        labels: Labels.fromRecord({ ...e.labels, alertname: testCase.alertname }),
        annotations: Labels.fromRecord(e.annotations),
      }))
      .sort(compareAlerts);
    const same =
      gotAlerts.length === expAlerts.length &&
      gotAlerts.every((a, i) => compareAlerts(a, expAlerts[i]) === 0);
    if (!same) {
      const name = test.name !== '' ? `    name: ${test.name},\n` : '';
      const exp = indentLines(alertsString(expAlerts), '            ');
      const gotText = indentLines(alertsString(gotAlerts), '            ');
      errors.push(
        `${name}    alertname: ${testCase.alertname}, time: ${formatDuration(testCase.evalTimeMs)}, \n        exp:${exp}, \n        got:${gotText}`,
      );
    }
  }
  return errors;
}

function checkExpression(
  engine: PromqlEngine,
  testCase: TestGroup['promqlExprTests'][number],
): string[] {
  const where = `    expr: ${JSON.stringify(testCase.expr)}, time: ${formatDuration(testCase.evalTimeMs)}`;
  let got: { labels: Labels; value: number }[];
  try {
    const result = engine.instantQuery(testCase.expr, testCase.evalTimeMs);
    if (result.type === 'vector')
      got = result.samples.map((s) => ({ labels: s.metric, value: s.f }));
    else if (result.type === 'scalar') got = [{ labels: Labels.EMPTY, value: result.f }];
    else return [`${where}, err: rule result is not a vector or scalar`];
  } catch (error) {
    return [`${where}, err: ${(error as Error).message}`];
  }
  const exp: { labels: Labels; value: number }[] = [];
  for (const sample of testCase.expSamples) {
    try {
      exp.push({ labels: parseMetric(sample.labels), value: sample.value });
    } catch (error) {
      return [
        `${where}, err: labels ${JSON.stringify(sample.labels)}: ${(error as Error).message}`,
      ];
    }
  }
  const byLabels = (a: { labels: Labels }, b: { labels: Labels }) =>
    compareLabels(a.labels, b.labels);
  exp.sort(byLabels);
  got.sort(byLabels);
  const same =
    exp.length === got.length &&
    exp.every(
      (e, i) =>
        e.labels.key === got[i].labels.key &&
        (Object.is(e.value, got[i].value) || e.value === got[i].value),
    );
  if (same) return [];
  return [`${where},\n        exp: ${samplesString(exp)}\n        got: ${samplesString(got)}`];
}

function samplesString(samples: { labels: Labels; value: number }[]): string {
  if (samples.length === 0) return 'nil';
  return samples.map((s) => `${s.labels.toString()} ${formatE(s.value)}`).join(', ');
}

/** Go's `strconv.FormatFloat(v, 'E', -1, 64)`: `2E+00`, `1.5E+01`, `NaN`, `+Inf`. */
export function formatE(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (!Number.isFinite(v)) return v > 0 ? '+Inf' : '-Inf';
  const [mantissa, exp] = v.toExponential().split('e');
  const sign = exp.startsWith('-') ? '-' : '+';
  return `${mantissa}E${sign}${exp.replace(/^[+-]/, '').padStart(2, '0')}`;
}

function alertsString(alerts: AlertView[]): string {
  if (alerts.length === 0) return '[]';
  const one = (a: AlertView) =>
    `Labels:${a.labels.toString()}\nAnnotations:${a.annotations.toString()}`;
  let s = `[\n0:${indentLines(`\n${one(alerts[0])}`, '  ')}`;
  alerts.slice(1).forEach((a, i) => {
    s += `,\n${i + 1}:${indentLines(`\n${one(a)}`, '  ')}`;
  });
  return `${s}\n]`;
}

function indentLines(lines: string, indent: string): string {
  return lines
    .split('\n')
    .map((line, i) => (i > 0 ? indent : '') + line)
    .join('\n');
}
