/** Comparisons of an eval's results with what it expects, as upstream's test runner makes them. */
import { compareLabels, type Labels } from '../../tsdb/labels';
import { almostEqual } from '../engine/float-math';
import type { QueryResult, QueryValue } from '../engine/values';
import type { AnnotationExpectation, EvalCommand, ExpectedSeries } from './test-script';

/** Relative error allowed between an expected and a computed value, as upstream's tests. */
const EPSILON = 0.000001;

/** Upstream's checks of warnings and infos against an eval's expectations. */
export function checkAnnotations(command: EvalCommand, result: QueryResult): string | undefined {
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

export function checkFailure(command: EvalCommand, message: string): string | undefined {
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

export function compare(command: EvalCommand, result: QueryValue): string | undefined {
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
