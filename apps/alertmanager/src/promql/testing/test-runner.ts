import { compareLabels, METRIC_NAME, type Labels } from '../../tsdb/labels';
import { MemoryStore } from '../../tsdb/memory-store';
import { PromqlEngine } from '../engine/engine';
import { almostEqual } from '../engine/float-math';
import type { QueryResult, QueryValue } from '../engine/values';
import { PromqlParseError } from '../parser/parse-error';
import type {
  AnnotationExpectation,
  EvalCommand,
  ExpectedSeries,
  LoadCommand,
  TestCommand,
} from './test-script';

/** Relative error allowed between an expected and a computed value, as upstream's tests. */
const EPSILON = 0.000001;

export type EvalOutcome =
  | { readonly status: 'passed'; readonly line: number; readonly expr: string }
  | {
      readonly status: 'failed';
      readonly line: number;
      readonly expr: string;
      readonly reason: string;
    }
  | {
      readonly status: 'unsupported';
      readonly line: number;
      readonly expr: string;
      readonly reason: string;
    };

/** Messages of refusals that mean a feature this engine leaves out, not a wrong answer. */
const UNSUPPORTED = [
  /is experimental and not enabled/,
  /experimental duration expression is not enabled/,
  /in durations is not supported/,
  /is not supported/,
  /function "info" is not enabled/,
];

/**
 * Runs a test script as Prometheus's test runner does: loads series into a fresh store, runs
 * every eval as an instant query (and, for an instant vector or scalar, again as a range query
 * around the same time, which must agree) or a range query, and compares with the expected
 * results at upstream's tolerance.
 */
export function runTestScript(commands: readonly TestCommand[]): EvalOutcome[] {
  const store = new MemoryStore();
  const engine = new PromqlEngine(store, {
    lookbackDeltaMs: 5 * 60_000,
    maxSamples: 10_000,
    defaultSubqueryStepMs: 60_000,
    // Upstream's test engine removes names late (`EnableDelayedNameRemoval: true`).
    delayedNameRemoval: true,
    parser: {
      experimentalFunctions: true,
      durationExpressions: true,
      binopFillModifiers: true,
      extendedRangeSelectors: true,
    },
  });
  const outcomes: EvalOutcome[] = [];
  let loadProblem: string | undefined;
  const histogramNames = new Set<string>();
  for (const command of commands) {
    if (command.kind === 'clear') {
      store.clear();
      loadProblem = undefined;
      histogramNames.clear();
    } else if (command.kind === 'load') {
      load(store, command);
      if (command.unsupported) {
        loadProblem = command.unsupported;
        for (const name of namesIn(command)) histogramNames.add(name);
      }
    } else {
      outcomes.push(runEval(engine, command, loadProblem));
    }
  }
  return outcomes;
}

function namesIn(command: LoadCommand): string[] {
  return command.series.map((s) => s.labels.get(METRIC_NAME));
}

function load(store: MemoryStore, command: LoadCommand): void {
  for (const { labels, values } of command.series) {
    values.forEach((value, i) => {
      const t = i * command.stepMs;
      if (value.kind === 'omitted') return;
      store.append(labels, t, value.kind === 'stale' ? NaN : value.value, value.kind === 'stale');
    });
  }
}

function runEval(
  engine: PromqlEngine,
  command: EvalCommand,
  loadProblem: string | undefined,
): EvalOutcome {
  const { line, expr } = command;
  const unsupported = (reason: string): EvalOutcome => ({
    status: 'unsupported',
    line,
    expr,
    reason,
  });
  const failed = (reason: string): EvalOutcome => ({ status: 'failed', line, expr, reason });
  if (command.unsupported) return unsupported(command.unsupported);
  let result: QueryResult;
  try {
    result = command.range
      ? engine.rangeQuery(expr, command.range.startMs, command.range.endMs, command.range.stepMs)
      : engine.instantQuery(expr, command.atMs);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (UNSUPPORTED.some((re) => re.test(message))) return unsupported(message);
    if (!command.fail) {
      if (loadProblem) return unsupported(`${loadProblem}: ${message}`);
      return failed(`error: ${message}`);
    }
    const problem = checkFailure(command, message);
    return problem === undefined ? { status: 'passed', line, expr } : failed(problem);
  }
  if (command.fail) {
    if (loadProblem) return unsupported(`${loadProblem}: expected an error, got a result`);
    return failed('expected an error, got a result');
  }
  let problem = compare(command, result);
  if (problem === undefined && !command.range && !command.rangeVector && !command.ordered) {
    problem = compareRangeMode(engine, command, result);
  }
  if (problem === undefined) problem = checkAnnotations(command, result);
  if (problem === undefined) return { status: 'passed', line, expr };
  if (loadProblem) return unsupported(`${loadProblem}: ${problem}`);
  return failed(problem);
}

/** Upstream's checks of warnings and infos against an eval's expectations. */
function checkAnnotations(command: EvalCommand, result: QueryResult): string | undefined {
  const matches = (e: AnnotationExpectation, text: string) =>
    e.match === undefined ||
    (e.match.mode === 'msg' ? e.match.text === text : new RegExp(e.match.text).test(text));
  for (const [type, actual] of [
    ['warn', result.warnings],
    ['info', result.infos],
  ] as const) {
    const expected = command.annotations.filter((a) => a.type === type);
    if (expected.some((a) => a.fromModifier) && actual.length === 0)
      return `expected ${type} annotations but got none`;
    const explicit = expected.filter((a) => !a.fromModifier);
    if (explicit.length > 0) {
      if (actual.length === 0) return `expected ${type} annotations but none were found`;
      for (const e of explicit) {
        if (!actual.some((text) => matches(e, text))) {
          return `expected ${type} annotation matching ${JSON.stringify(e.match?.text ?? '')}, found: ${JSON.stringify(actual)}`;
        }
      }
      for (const text of actual) {
        if (!explicit.some((e) => matches(e, text)))
          return `unexpected ${type} annotation ${JSON.stringify(text)}`;
      }
    }
    if (command.annotations.some((a) => a.type === `no_${type}`) && actual.length > 0) {
      return `unexpected ${type} annotations: ${JSON.stringify(actual)}`;
    }
  }
  return undefined;
}

function checkFailure(command: EvalCommand, message: string): string | undefined {
  // Parse errors carry a position prefix that upstream's runner strips by comparing at its level.
  const bare = message.replace(/^\d+:\d+: parse error: /, '');
  if (
    command.failMessage !== undefined &&
    command.failMessage !== message &&
    command.failMessage !== bare
  ) {
    return `expected error ${JSON.stringify(command.failMessage)}, got ${JSON.stringify(message)}`;
  }
  if (command.failPattern !== undefined && !command.failPattern.test(message)) {
    return `expected error matching ${command.failPattern}, got ${JSON.stringify(message)}`;
  }
  return undefined;
}

/** Runs an instant query again as a range query of three steps around its time; the middle must agree. */
function compareRangeMode(
  engine: PromqlEngine,
  command: EvalCommand,
  instant: QueryResult,
): string | undefined {
  if (instant.type !== 'vector' && instant.type !== 'scalar') return undefined;
  if (/(start|end|range|step)\(\)/.test(command.expr)) return undefined;
  let ranged: QueryResult;
  try {
    ranged = engine.rangeQuery(command.expr, command.atMs - 60_000, command.atMs + 60_000, 60_000);
  } catch (error) {
    return `range mode: error: ${error instanceof Error ? error.message : String(error)}`;
  }
  if (ranged.type !== 'matrix') return 'range mode: not a matrix';
  const samples = ranged.series.flatMap((s) => {
    const i = s.t.indexOf(command.atMs);
    return i < 0 ? [] : [{ metric: s.metric, t: command.atMs, f: s.f[i] }];
  });
  const asInstant: QueryValue =
    instant.type === 'scalar'
      ? { type: 'scalar', t: command.atMs, f: samples[0]?.f ?? NaN }
      : { type: 'vector', samples };
  const problem = compare(command, asInstant);
  return problem === undefined ? undefined : `range mode: ${problem}`;
}

function compare(command: EvalCommand, result: QueryValue): string | undefined {
  if (command.expectString !== undefined) {
    if (result.type !== 'string') return `expected string, got ${result.type}`;
    return result.value === command.expectString
      ? undefined
      : `expected string ${JSON.stringify(command.expectString)}, got ${JSON.stringify(result.value)}`;
  }
  if (command.expectScalar !== undefined) {
    if (result.type !== 'scalar') return `expected scalar result, got ${result.type}`;
    return almostEqual(command.expectScalar, result.f, EPSILON)
      ? undefined
      : `expected scalar ${command.expectScalar} but got ${result.f}`;
  }
  switch (result.type) {
    case 'scalar':
      return `expected vector or matrix result, but got scalar ${result.f}`;
    case 'string':
      return `unexpected string result ${JSON.stringify(result.value)}`;
    case 'vector':
      return compareVector(command, result.samples);
    case 'matrix':
      return compareMatrix(command, result.series);
  }
}

function compareVector(
  command: EvalCommand,
  samples: readonly { metric: Labels; f: number }[],
): string | undefined {
  const expected = new Map(command.expected.map((e) => [e.labels.key, e]));
  const seen = new Set<string>();
  for (let pos = 0; pos < samples.length; pos++) {
    const sample = samples[pos];
    const exp = expected.get(sample.metric.key);
    if (exp === undefined)
      return `unexpected metric ${sample.metric} in result, has value ${sample.f}`;
    if (command.ordered && exp.position !== pos + 1) {
      return `expected metric ${sample.metric} at position ${exp.position} but was at ${pos + 1}`;
    }
    const first = exp.values[0];
    const want = first?.kind === 'value' ? first.value : NaN;
    if (!almostEqual(want, sample.f, EPSILON))
      return `expected ${want} for ${sample.metric} but got ${sample.f}`;
    seen.add(sample.metric.key);
  }
  for (const e of command.expected) {
    if (!seen.has(e.labels.key)) return `expected metric ${e.labels} not found`;
  }
  return undefined;
}

function compareMatrix(
  command: EvalCommand,
  series: readonly { metric: Labels; t: number[]; f: number[] }[],
): string | undefined {
  if (command.ordered) return 'expected ordered result, but query returned a matrix';
  for (let i = 1; i < series.length; i++) {
    if (compareLabels(series[i - 1].metric, series[i].metric) > 0)
      return 'matrix results should always be sorted by labels';
  }
  const window = command.range ??
    command.rangeVector ?? { startMs: command.atMs, endMs: command.atMs, stepMs: 1 };
  const expected = new Map(command.expected.map((e) => [e.labels.key, e]));
  for (const s of series) {
    const exp = expected.get(s.metric.key);
    if (exp === undefined) return `unexpected metric ${s.metric} in result, has ${formatPoints(s)}`;
    const points = expectedPoints(exp, window);
    if (points.length !== s.t.length) {
      return `expected ${points.length} float points for ${s.metric}, but got ${formatPoints(s)}`;
    }
    for (let i = 0; i < points.length; i++) {
      if (points[i][0] !== s.t[i]) {
        return `expected point ${i} of ${s.metric} at ${points[i][0]}, but it was at ${s.t[i]}`;
      }
      if (!almostEqual(points[i][1], s.f[i], EPSILON)) {
        return `expected ${points[i][1]} at t=${s.t[i]} for ${s.metric}, got ${s.f[i]}`;
      }
    }
    expected.delete(s.metric.key);
  }
  for (const e of expected.values()) return `expected metric ${e.labels} not found`;
  return undefined;
}

function expectedPoints(
  exp: ExpectedSeries,
  window: { startMs: number; endMs: number; stepMs: number },
): [number, number][] {
  const out: [number, number][] = [];
  exp.values.forEach((v, i) => {
    if (v.kind !== 'value') return;
    out.push([window.startMs + i * window.stepMs, v.value]);
  });
  return out;
}

function formatPoints(s: { t: number[]; f: number[] }): string {
  return `${s.t.length} points [${s.t.map((t, i) => `${s.f[i]} @${t}`).join(' ')}]`;
}

export { PromqlParseError };
