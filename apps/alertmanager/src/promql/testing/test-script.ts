import { parseDuration } from '../../time/duration';
import { Labels, METRIC_NAME } from '../../tsdb/labels';
import { parseNumberToken } from '../parser/number-literal';
import { unquoteString } from '../parser/string-literal';
import {
  parseSeriesDescription,
  parseSeriesLabels,
  type SequenceValue,
} from '../series-description';

/** A `load <step>` block: series and their values at 0, step, 2*step, ... */
export interface LoadCommand {
  readonly kind: 'load';
  readonly line: number;
  readonly stepMs: number;
  readonly withNhcb: boolean;
  readonly series: { labels: Labels; values: SequenceValue[] }[];
  /**
   * Series the block defines as native histograms, which the store does not hold: those with
   * `{{...}}` values and, for `load_with_nhcb`, the custom-bucket histogram made of each classic
   * histogram's `_bucket`, `_count` and `_sum` series (named without the suffix, without `le`).
   */
  readonly histogramSeries: Labels[];
  /** Series given start timestamps (`metric@st`), which the store does not hold. */
  readonly startTimestampSeries: Labels[];
}

export interface ExpectedSeries {
  readonly labels: Labels;
  readonly values: SequenceValue[];
  /** 1-based position among the expected results, for `expect ordered`. */
  readonly position: number;
}

export interface EvalCommand {
  readonly kind: 'eval';
  readonly line: number;
  readonly expr: string;
  readonly range: { startMs: number; endMs: number; stepMs: number } | undefined;
  readonly atMs: number;
  readonly fail: boolean;
  readonly failMessage: string | undefined;
  readonly failPattern: RegExp | undefined;
  readonly ordered: boolean;
  /** `expect warn|info|no_warn|no_info [msg:|regex:]` lines, and `eval_warn`/`eval_info`. */
  readonly annotations: readonly AnnotationExpectation[];
  readonly expectScalar: number | undefined;
  readonly expectString: string | undefined;
  /** `expect range vector from .. to .. step ..` for an instant query returning a range vector. */
  readonly rangeVector: { startMs: number; endMs: number; stepMs: number } | undefined;
  readonly expected: ExpectedSeries[];
  /** Why the expected results cannot be read (native histograms), if so. */
  readonly unsupported: string | undefined;
}

export interface AnnotationExpectation {
  readonly type: 'warn' | 'info' | 'no_warn' | 'no_info';
  /** Absent: any annotation of the type; `msg`: exactly this text; `regex`: matching it. */
  readonly match?: { readonly mode: 'msg' | 'regex'; readonly text: string };
  /** From `eval_warn` / `eval_info`: at least one, whatever they say. */
  readonly fromModifier?: boolean;
}

export type TestCommand =
  LoadCommand | EvalCommand | { readonly kind: 'clear'; readonly line: number };

const EVAL_INSTANT = /^eval(?:_(fail|warn|ordered|info))?\s+instant\s+(?:at\s+(.+?))?\s+(.+)$/;
const EVAL_RANGE =
  /^eval(?:_(fail|warn|info))?\s+range\s+from\s+(.+)\s+to\s+(.+)\s+step\s+(.+?)\s+(.+)$/;
const EXPECT = /^expect\s+(ordered|fail|warn|no_warn|info|no_info)(?:\s+(regex|msg):(.+))?$/;
const EXPECT_RANGE = /^expect range vector\s+from\s+(.+)\s+to\s+(.+)\s+step\s+(.+)$/;

/** Reads a PromQL test file (Prometheus's `.test` language) into commands. */
export function parseTestScript(input: string): TestCommand[] {
  const lines = input.split('\n').map((l) => {
    const trimmed = l.trim();
    return trimmed.startsWith('#') ? '' : trimmed;
  });
  const commands: TestCommand[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line === '') continue;
    const word = line.split(/[\t ]+/, 1)[0].toLowerCase();
    if (word === 'clear') commands.push({ kind: 'clear', line: i + 1 });
    else if (word.startsWith('load')) i = readLoad(lines, i, commands);
    else if (word.startsWith('eval')) i = readEval(lines, i, commands);
    else throw new Error(`line ${i + 1}: invalid command ${JSON.stringify(line)}`);
  }
  return commands;
}

function block(lines: string[], from: number): string[] {
  const out: string[] = [];
  for (let i = from + 1; i < lines.length && lines[i] !== ''; i++) out.push(lines[i]);
  return out;
}

function readLoad(lines: string[], at: number, commands: TestCommand[]): number {
  const match = /^load(?:_(with_nhcb))?\s+(.+?)$/.exec(lines[at]);
  if (match === null) throw new Error(`line ${at + 1}: invalid load command`);
  const body = block(lines, at);
  const histogramSeries: Labels[] = [];
  const startTimestampSeries: Labels[] = [];
  const series: LoadCommand['series'] = [];
  for (const def of body) {
    const first = def.split(/\s/, 1)[0];
    if (first.endsWith('@st')) {
      startTimestampSeries.push(parseSeriesLabels(def));
      continue;
    }
    if (def.includes('{{')) {
      histogramSeries.push(parseSeriesLabels(def));
      continue;
    }
    const parsed = parseSeriesDescription(def);
    // A series defined twice in one block keeps its last definition, as upstream.
    const existing = series.findIndex((s) => s.labels.key === parsed.labels.key);
    if (existing >= 0) series.splice(existing, 1);
    series.push(parsed);
  }
  commands.push({
    kind: 'load',
    line: at + 1,
    stepMs: parseDuration(match[2]),
    withNhcb: match[1] !== undefined,
    series,
    histogramSeries: match[1]
      ? [...histogramSeries, ...customBucketSeries(series)]
      : histogramSeries,
    startTimestampSeries,
  });
  return at + body.length;
}

/** The custom-bucket histograms `load_with_nhcb` builds from the classic histograms of a block. */
function customBucketSeries(series: LoadCommand['series']): Labels[] {
  const out = new Map<string, Labels>();
  for (const { labels } of series) {
    const name = labels.get(METRIC_NAME);
    const suffix = /_(bucket|count|sum)$/.exec(name);
    if (suffix === null) continue;
    if (suffix[1] === 'bucket' && !isBucketBound(labels.get('le'))) continue;
    const base = Labels.from(
      labels.names
        .filter((n) => n !== 'le' || suffix[1] !== 'bucket')
        .map((n) => [n, n === METRIC_NAME ? name.slice(0, suffix.index) : labels.get(n)]),
    );
    out.set(base.key, base);
  }
  return [...out.values()];
}

/** Whether an `le` value is a number Go's float parser reads (infinities included, not NaN). */
function isBucketBound(le: string): boolean {
  if (/^[+-]?inf(inity)?$/i.test(le)) return true;
  return le.trim() !== '' && !Number.isNaN(Number(le));
}

function readEval(lines: string[], at: number, commands: TestCommand[]): number {
  const instant = EVAL_INSTANT.exec(lines[at]);
  const range = instant ? null : EVAL_RANGE.exec(lines[at]);
  if (!instant && !range) throw new Error(`line ${at + 1}: invalid evaluation command`);
  const modifier = instant ? instant[1] : (range as RegExpExecArray)[1];
  const expr = instant ? instant[3] : (range as RegExpExecArray)[5];
  let fail = modifier === 'fail';
  let ordered = modifier === 'ordered';
  let failMessage: string | undefined;
  let failPattern: RegExp | undefined;
  let expectScalar: number | undefined;
  let expectString: string | undefined;
  let rangeVector: EvalCommand['rangeVector'];
  let unsupported: string | undefined;
  const annotations: AnnotationExpectation[] =
    modifier === 'warn' || modifier === 'info' ? [{ type: modifier, fromModifier: true }] : [];
  const expected: ExpectedSeries[] = [];
  const body = block(lines, at);
  let position = 0;
  for (const def of body) {
    if (fail && def.startsWith('expected_fail_message')) {
      failMessage = def.slice('expected_fail_message'.length).trim();
      break;
    }
    if (fail && def.startsWith('expected_fail_regexp')) {
      failPattern = new RegExp(def.slice('expected_fail_regexp'.length).trim());
      break;
    }
    const rv = EXPECT_RANGE.exec(def);
    if (rv) {
      rangeVector = {
        startMs: parseDuration(rv[1]),
        endMs: parseDuration(rv[2]),
        stepMs: parseDuration(rv[3]),
      };
      continue;
    }
    if (def.startsWith('expect string')) {
      expectString = unquoteString(def.slice('expect string'.length).trim());
      continue;
    }
    if (def.split(' ')[0] === 'expect') {
      const e = EXPECT.exec(def);
      if (e === null)
        throw new Error(`line ${at + 1}: invalid expect statement ${JSON.stringify(def)}`);
      if (e[1] === 'fail') {
        fail = true;
        if (e[2] === 'msg') failMessage = e[3].trim();
        if (e[2] === 'regex') failPattern = new RegExp(e[3].trim());
      } else if (e[1] === 'ordered') ordered = true;
      else {
        const type = e[1] as AnnotationExpectation['type'];
        annotations.push(
          e[2] ? { type, match: { mode: e[2] as 'msg' | 'regex', text: e[3].trim() } } : { type },
        );
      }
      continue;
    }
    const scalar = goNumber(def);
    if (scalar !== undefined) {
      expectScalar = scalar;
      break;
    }
    if (def.includes('{{')) {
      unsupported ??= 'native histogram results';
      continue;
    }
    position++;
    const parsed = parseSeriesDescription(def);
    expected.push({ ...parsed, position });
  }
  const durationMs = (text: string) => parseDuration(text.trim());
  commands.push({
    kind: 'eval',
    line: at + 1,
    expr,
    range: range
      ? { startMs: durationMs(range[2]), endMs: durationMs(range[3]), stepMs: durationMs(range[4]) }
      : undefined,
    atMs: instant ? (instant[2] === undefined ? 0 : durationMs(instant[2])) : 0,
    fail,
    failMessage,
    failPattern,
    ordered,
    annotations,
    expectScalar,
    expectString,
    rangeVector,
    expected,
    unsupported,
  });
  return at + body.length;
}

/** A result line that is a bare number: the expected scalar. */
function goNumber(text: string): number | undefined {
  const body = text.replace(/^[+-]/, '');
  try {
    const value = parseNumberToken(body);
    if (/^[0-9a-zA-Z.+_]+$/.test(body) && !/[smhdwy]$/.test(body))
      return text.startsWith('-') ? -value : value;
  } catch {
    return undefined;
  }
  return undefined;
}
