import type {
  AggregateExpr,
  AtModifier,
  BinaryExpr,
  Expr,
  LabelMatcher,
  SubqueryExpr,
  VectorMatching,
} from './ast';
import type { DurationExpr } from './durations';
import { goQuote } from '../labels/go-quote';
import { formatDuration } from '../time/duration';

const LEGACY_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/**
 * An expression printed back as upstream's `String()` methods print it: the canonical form
 * Prometheus shows as a rule's `query` and puts in an alert's generator URL (`sum by (le)
 * (rate(x[5m]))`, `{a="b",c=~"d"}` with matchers sorted, durations as `5m`, one space around
 * binary operators).
 */
export function formatExpr(expr: Expr): string {
  switch (expr.kind) {
    case 'number':
      return goFormatV(expr.value);
    case 'string':
      // Bytes that are not UTF-8 (`"\xc5"`) do not survive decoding: print them as written.
      return expr.value.includes('\ufffd') && expr.raw.startsWith('"')
        ? expr.raw
        : goQuote(expr.value);
    case 'paren':
      return `(${formatExpr(expr.expr)})`;
    case 'unary':
      return `${expr.op}${formatExpr(expr.expr)}`;
    case 'call':
      return `${expr.func.name}(${expr.args.map(formatExpr).join(', ')})`;
    case 'aggregate': {
      const param = expr.param === undefined ? '' : `${formatExpr(expr.param)}, `;
      return `${aggregationPrefix(expr)}(${param}${formatExpr(expr.expr)})`;
    }
    case 'binary':
      return `${formatExpr(expr.lhs)} ${operatorText(expr)} ${formatExpr(expr.rhs)}`;
    case 'vectorSelector':
      return selector(expr) + at(expr.at) + extended(expr) + offset(expr.offsetMs, expr.offsetExpr);
    case 'matrixSelector': {
      const s = expr.selector;
      const range = expr.rangeExpr ? durationExpr(expr.rangeExpr) : formatDuration(expr.rangeMs);
      return `${selector(s)}[${range}]${extended(s)}${at(s.at)}${offset(s.offsetMs, s.offsetExpr)}`;
    }
    case 'subquery':
      return `${formatExpr(expr.expr)}${subquerySuffix(expr)}`;
  }
}

/** What an aggregation prints before its opening parenthesis: `sum`, `sum by (job) `. */
export function aggregationPrefix(expr: AggregateExpr): string {
  if (expr.without) return `${expr.op} without (${joinLabels(expr.grouping)}) `;
  if (expr.grouping.length > 0) return `${expr.op} by (${joinLabels(expr.grouping)}) `;
  return expr.op;
}

/** A binary operation's operator with its modifiers: `> bool`, `* on (job) group_left (team)`. */
export function operatorText(expr: BinaryExpr): string {
  return `${expr.op}${expr.returnBool ? ' bool' : ''}${matching(expr.matching)}`;
}

/** What a subquery prints after its inner expression: `[1h:5m] @ end() offset 10m`. */
export function subquerySuffix(expr: SubqueryExpr): string {
  const range = expr.rangeExpr ? durationExpr(expr.rangeExpr) : formatDuration(expr.rangeMs);
  const step = expr.stepExpr
    ? durationExpr(expr.stepExpr)
    : expr.stepMs === 0
      ? ''
      : formatDuration(expr.stepMs);
  return `[${range}:${step}]${at(expr.at)}${offset(expr.offsetMs, expr.offsetExpr)}`;
}

/** The metric name and the other matchers in braces, sorted as upstream sorts their text. */
function selector(s: { name: string; matchers: readonly LabelMatcher[] }): string {
  const shown = s.matchers
    .filter(
      (m) => !(m.name === '__name__' && m.type === '=' && m.value === s.name && m.value !== ''),
    )
    .map(matcherText)
    .sort(compareBytes);
  const name = s.name === '' || LEGACY_NAME.test(s.name.replace(/:/g, '_')) ? s.name : '';
  if (name === '' && s.name !== '') shown.unshift(goQuote(s.name));
  if (shown.length === 0) return name;
  return `${name}{${shown.join(',')}}`;
}

function matcherText(m: LabelMatcher): string {
  return `${labelName(m.name)}${m.type}${goQuote(m.value)}`;
}

/** The experimental `anchored` / `smoothed` modifier of a selector, if it has one. */
function extended(s: { anchored?: boolean; smoothed?: boolean }): string {
  if (s.anchored) return ' anchored';
  return s.smoothed ? ' smoothed' : '';
}

function at(modifier: AtModifier): string {
  switch (modifier.kind) {
    case 'timestamp':
      return ` @ ${(modifier.ms / 1000).toFixed(3)}`;
    case 'start':
      return ' @ start()';
    case 'end':
      return ' @ end()';
    default:
      return '';
  }
}

function offset(ms: number, expr: DurationExpr | undefined): string {
  if (expr) return ` offset ${durationExpr(expr)}`;
  if (ms > 0) return ` offset ${formatDuration(ms)}`;
  if (ms < 0) return ` offset -${formatDuration(-ms)}`;
  return '';
}

function matching(vm: VectorMatching | undefined): string {
  if (vm === undefined) return '';
  const grouped = vm.card === 'many-to-one' || vm.card === 'one-to-many';
  let text = '';
  if (vm.labels.length > 0 || vm.on || grouped)
    text += ` ${vm.on ? 'on' : 'ignoring'} (${joinLabels(vm.labels)})`;
  if (grouped)
    text += ` group_${vm.card === 'many-to-one' ? 'left' : 'right'} (${joinLabels(vm.include)})`;
  const { fillLeft, fillRight } = vm;
  if (fillLeft !== undefined && fillRight !== undefined && fillLeft === fillRight)
    return `${text} fill (${goFormatV(fillLeft)})`;
  if (fillLeft !== undefined) text += ` fill_left (${goFormatV(fillLeft)})`;
  if (fillRight !== undefined) text += ` fill_right (${goFormatV(fillRight)})`;
  return text;
}

/** A duration written as arithmetic, printed back as upstream's `DurationExpr.String()`. */
function durationExpr(d: DurationExpr): string {
  switch (d.kind) {
    case 'literal':
      return formatDuration(d.ms ?? d.seconds * 1000);
    case 'step':
    case 'range':
      return `${d.kind}()`;
    case 'unary':
      return `${d.op}${durationExpr(d.expr)}`;
    case 'binary':
      return `${durationExpr(d.lhs)} ${d.op} ${durationExpr(d.rhs)}`;
    case 'min_of':
    case 'max_of':
      return `${d.kind}(${durationExpr(d.lhs)}, ${durationExpr(d.rhs)})`;
  }
}

function joinLabels(names: readonly string[]): string {
  return names.map(labelName).join(', ');
}

function labelName(name: string): string {
  return LEGACY_NAME.test(name) ? name : goQuote(name);
}

function compareBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

/**
 * Go's `fmt.Sprint` of a float64 (`%v`): the shortest digits, in exponent form when the exponent
 * is below -4 or from 6 on (`1e+06`, `1.234567e+06`, `123456`, `1e-06`).
 */
function goFormatV(f: number): string {
  if (Number.isNaN(f)) return 'NaN';
  if (!Number.isFinite(f)) return f > 0 ? '+Inf' : '-Inf';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  const [mantissa, exp] = f.toExponential().split('e');
  const exponent = Number(exp);
  if (exponent >= -4 && exponent < 6) return String(f);
  const digits = String(Math.abs(exponent)).padStart(2, '0');
  return `${mantissa}e${exponent < 0 ? '-' : '+'}${digits}`;
}
