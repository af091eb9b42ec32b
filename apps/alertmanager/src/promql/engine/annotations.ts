import type { PositionRange } from '../ast';
import { goFormatG } from './float-math';

/** A warning or info about a query's answer, as upstream's `annotations` package words them. */
export interface Annotation {
  readonly kind: 'warning' | 'info';
  /** Without the position: `PromQL info: metric might not be a counter, ...`. */
  readonly message: string;
  readonly pos: PositionRange;
}

/** Upstream's monotonicity fix info: where, and the buckets and times it covered. */
interface MonotonicityFix {
  pos: PositionRange;
  metricName: string;
  minTs: number;
  maxTs: number;
  minBucket: number;
  maxBucket: number;
  maxDiff: number;
  count: number;
}

const MONOTONICITY =
  'input to histogram_quantile needed to be fixed for monotonicity (see https://prometheus.io/docs/prometheus/latest/querying/functions/#histogram_quantile)';

/** Collects a query's annotations; the same message is kept once (the first position wins). */
export class Annotations {
  private readonly byMessage = new Map<string, Annotation>();
  private readonly fixes = new Map<string, MonotonicityFix>();

  /** `histogram_quantile` had to make a series' buckets monotonic at `ts`; merged across steps. */
  monotonicityFixed(
    metricName: string,
    pos: PositionRange,
    ts: number,
    minBucket: number,
    maxBucket: number,
    maxDiff: number,
  ): void {
    const fix = this.fixes.get(metricName);
    if (fix === undefined) {
      this.fixes.set(metricName, {
        pos,
        metricName,
        minTs: ts,
        maxTs: ts,
        minBucket,
        maxBucket,
        maxDiff,
        count: 0,
      });
      return;
    }
    fix.minTs = Math.min(fix.minTs, ts);
    fix.maxTs = Math.max(fix.maxTs, ts);
    fix.minBucket = Math.min(fix.minBucket, minBucket);
    fix.maxBucket = Math.max(fix.maxBucket, maxBucket);
    fix.maxDiff = Math.max(fix.maxDiff, maxDiff);
    fix.count++;
  }

  warn(message: string, pos: PositionRange): void {
    this.add({ kind: 'warning', message: `PromQL warning: ${message}`, pos });
  }

  info(message: string, pos: PositionRange): void {
    this.add({ kind: 'info', message: `PromQL info: ${message}`, pos });
  }

  private add(annotation: Annotation): void {
    if (!this.byMessage.has(annotation.message)) this.byMessage.set(annotation.message, annotation);
  }

  /** Warnings and infos as the API returns them, each with `(line:column)` of where in the query. */
  toStrings(query: string): { warnings: string[]; infos: string[] } {
    const warnings: string[] = [];
    const infos: string[] = [];
    for (const a of this.byMessage.values()) {
      const text = `${a.message} (${startPosition(query, a.pos.start)})`;
      (a.kind === 'warning' ? warnings : infos).push(text);
    }
    for (const fix of this.fixes.values()) {
      const name =
        fix.metricName === '' ? '' : ` for metric name ${JSON.stringify(fix.metricName)}`;
      const time = (ms: number) =>
        new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
      infos.push(
        `PromQL info: ${MONOTONICITY}${name}, from buckets ${goFormatG(fix.minBucket)} to ${goFormatG(fix.maxBucket)}, with a max diff of ${goFormatG2(fix.maxDiff)}, over ${fix.count + 1} samples from ${time(fix.minTs)} to ${time(fix.maxTs)} (${startPosition(query, fix.pos.start)})`,
      );
    }
    return { warnings, infos };
  }
}

/** `line:column` of a byte offset, as upstream's `StartPosInput`. */
function startPosition(query: string, offset: number): string {
  if (query === '') return 'unknown position';
  const bytes = Buffer.from(query);
  if (offset < 0 || offset > bytes.length) return 'invalid position';
  const before = bytes.subarray(0, offset).toString();
  let line = 1;
  let lastBreak = -1;
  let at = 0;
  for (const ch of before) {
    if (ch === '\n') {
      line++;
      lastBreak = at;
    }
    at += Buffer.byteLength(ch);
  }
  return `${line}:${offset - lastBreak}`;
}

/** Go's `%.2g`: two significant digits, exponent form from 1e2 or below 1e-4. */
function goFormatG2(f: number): string {
  if (!Number.isFinite(f) || f === 0) return goFormatG(f);
  const rounded = Number(f.toPrecision(2));
  const exponent = Math.floor(Math.log10(Math.abs(rounded)));
  if (exponent < -4 || exponent >= 2) {
    const [mantissa, exp] = rounded.toExponential(1).replace(/\.0e/, 'e').split('e');
    const sign = exp.startsWith('-') ? '-' : '+';
    return `${mantissa}e${sign}${exp.replace(/^[+-]/, '').padStart(2, '0')}`;
  }
  return String(rounded);
}
