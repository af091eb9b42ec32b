import { MemoryStore } from '../../tsdb/memory-store';
import type { Expr } from '../ast';
import { PromqlEngine } from '../engine/engine';
import type { QueryResult, QueryValue } from '../engine/values';
import { PromqlParseError } from '../parser/parse-error';
import { formatExpr } from '../printer';
import { checkAnnotations, checkFailure, compare } from './compare-results';
import { unreadableSeries, type HiddenSeries } from './eval-scope';
import { stepInvariantTimes } from './step-invariance';
import type { EvalCommand, LoadCommand, TestCommand } from './test-script';

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

/** Why an eval did not give what it expects; `feature` when the engine refused a feature it lacks. */
interface Problem {
  readonly text: string;
  readonly feature?: boolean;
}

/**
 * Runs a test script as Prometheus's test runner does: loads series into a fresh store, runs
 * every eval as a range query, or as an instant query that is run again as a range query around
 * its time and at other times with its selectors pinned there by `@` (all must agree), and
 * compares with the expected results at upstream's tolerance. An eval that does not pass counts
 * as unsupported only for a reason of its own: it expects native histogram results, the engine
 * refuses a feature it uses, or it reads a series the store does not hold.
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
  const hidden: HiddenSeries = { histograms: [], startTimestamps: [] };
  for (const command of commands) {
    if (command.kind === 'clear') {
      store.clear();
      hidden.histograms.length = 0;
      hidden.startTimestamps.length = 0;
    } else if (command.kind === 'load') {
      load(store, command);
      hidden.histograms.push(...command.histogramSeries);
      hidden.startTimestamps.push(...command.startTimestampSeries);
    } else {
      outcomes.push(runEval(engine, command, hidden));
    }
  }
  return outcomes;
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

function runEval(engine: PromqlEngine, command: EvalCommand, hidden: HiddenSeries): EvalOutcome {
  const { line, expr } = command;
  if (command.unsupported)
    return { status: 'unsupported', line, expr, reason: command.unsupported };
  const problem = command.range ? checkRange(engine, command) : checkInstant(engine, command);
  if (problem === undefined) return { status: 'passed', line, expr };
  if (problem.feature) return { status: 'unsupported', line, expr, reason: problem.text };
  const unreadable = parsed(engine, expr, (e) => unreadableSeries(e, hidden));
  if (unreadable !== undefined)
    return { status: 'unsupported', line, expr, reason: `${unreadable}: ${problem.text}` };
  return { status: 'failed', line, expr, reason: problem.text };
}

function parsed<T>(engine: PromqlEngine, expr: string, use: (e: Expr) => T): T | undefined {
  let tree: Expr;
  try {
    tree = engine.parse(expr);
  } catch {
    return undefined;
  }
  return use(tree);
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The outcome of a query that threw: as expected, a refusal of a feature, or a wrong error. An
 * eval that expects this very error passes even when its words read like a refusal (upstream's
 * own "modifier is not supported for subqueries" is such an error).
 */
function thrown(command: EvalCommand, error: unknown, prefix = ''): Problem | undefined {
  const message = errorText(error);
  const problem = command.fail ? checkFailure(command, message) : `error: ${message}`;
  if (problem === undefined) return undefined;
  if (UNSUPPORTED.some((re) => re.test(message))) return { text: message, feature: true };
  return { text: `${prefix}${problem}` };
}

function checkRange(engine: PromqlEngine, command: EvalCommand): Problem | undefined {
  const range = command.range as NonNullable<EvalCommand['range']>;
  let result: QueryResult;
  try {
    result = engine.rangeQuery(command.expr, range.startMs, range.endMs, range.stepMs);
  } catch (error) {
    return thrown(command, error);
  }
  return checkResult(command, result);
}

function checkResult(command: EvalCommand, result: QueryResult, prefix = ''): Problem | undefined {
  if (command.fail) return { text: `${prefix}expected an error, got a result` };
  const problem = checkAnnotations(command, result) ?? compare(command, result);
  return problem === undefined ? undefined : { text: `${prefix}${problem}` };
}

/**
 * An instant eval: the query as written at its time, then (unless it calls a function that
 * depends on the evaluation time) the same with its selectors pinned to that time by `@`, at each
 * of the other times upstream picks; every run is checked in range mode too.
 */
function checkInstant(engine: PromqlEngine, command: EvalCommand): Problem | undefined {
  const first = checkInstantAt(engine, command, command.expr, command.atMs, '');
  if (first !== undefined) return first;
  const pinned = parsed(engine, command.expr, (e) => stepInvariantTimes(e, command.atMs));
  if (pinned === undefined) return undefined;
  const text = formatExpr(pinned.expr);
  for (const t of pinned.times) {
    const problem = checkInstantAt(engine, command, text, t, `at ${t}ms as ${text}: `);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

function checkInstantAt(
  engine: PromqlEngine,
  command: EvalCommand,
  expr: string,
  atMs: number,
  prefix: string,
): Problem | undefined {
  let result: QueryResult;
  try {
    result = engine.instantQuery(expr, atMs);
  } catch (error) {
    return thrown(command, error, prefix);
  }
  const problem = checkResult(command, result, prefix);
  if (problem !== undefined) return problem;
  const ranged = compareRangeMode(engine, command, expr, atMs, result);
  return ranged === undefined ? undefined : { text: `${prefix}range mode: ${ranged}` };
}

/**
 * Runs an instant query again as a range query of three steps around its time; the middle step
 * must agree (not checked for an ordered result, which a range query does not keep).
 */
function compareRangeMode(
  engine: PromqlEngine,
  command: EvalCommand,
  expr: string,
  atMs: number,
  instant: QueryResult,
): string | undefined {
  if (instant.type !== 'vector' && instant.type !== 'scalar') return undefined;
  if (command.rangeVector || command.expectString !== undefined) return undefined;
  if (/(start|end|range|step)\(\)/.test(expr)) return undefined;
  let ranged: QueryResult;
  try {
    ranged = engine.rangeQuery(expr, atMs - 60_000, atMs + 60_000, 60_000);
  } catch (error) {
    return `error: ${errorText(error)}`;
  }
  if (command.ordered) return undefined;
  if (ranged.type !== 'matrix') return 'not a matrix';
  const samples = ranged.series.flatMap((s) => {
    const i = s.t.indexOf(atMs);
    return i < 0 ? [] : [{ metric: s.metric, t: atMs, f: s.f[i] }];
  });
  const asInstant: QueryValue =
    instant.type === 'scalar'
      ? { type: 'scalar', t: atMs, f: samples[0]?.f ?? NaN }
      : { type: 'vector', samples };
  return compare(command, asInstant);
}

export { PromqlParseError };
