import { detached } from '../tsdb/detached-string';

/**
 * A metric family's type as Prometheus 2.42 names it (`textparse.MetricType`): the text format's
 * `untyped` is `unknown`, the other values are OpenMetrics' own.
 */
export type MetricType =
  | 'counter'
  | 'gauge'
  | 'histogram'
  | 'gaugehistogram'
  | 'summary'
  | 'info'
  | 'stateset'
  | 'unknown';

/** One family's metadata, as `/api/v1/metadata` and `/api/v1/targets/metadata` show it. */
export interface MetricMetadata {
  readonly metric: string;
  readonly type: MetricType;
  readonly help: string;
  readonly unit: string;
}

/**
 * Where the exposition parser hands a family's `# TYPE`, `# HELP` (unescaped) and `# UNIT` lines
 * as it reads them; the names and texts may be slices of the scrape body.
 */
export interface MetadataSink {
  setType(metric: string, type: MetricType): void;
  setHelp(metric: string, help: string): void;
  setUnit(metric: string, unit: string): void;
}

interface Entry {
  type: MetricType;
  help: string;
  unit: string;
  /** The iteration the family was last given a line at. */
  lastIter: number;
}

/** Successful scrapes a family stays for after its last line (upstream keeps it while `iter - lastIter <= 10`). */
const KEPT_ITERATIONS = 10;

/**
 * A target's metric metadata as the scrapes gave it, as Prometheus 2.42's scrape cache keeps it:
 * each `# TYPE`, `# HELP` or `# UNIT` line sets that field of its family (created as `unknown`
 * with empty help and unit), the other fields staying as they were; a family that no scrape gives
 * a line for goes after ten more successful scrapes (at the end of the eleventh). Lines read before
 * a scrape failed count. The iteration moves on only at the end of a successful scrape with a
 * non-empty body; a failed one flushes only when the cache has more than doubled (plus 1,000)
 * since the last success, as upstream bounds a target whose scrapes keep failing.
 *
 * The parse costs one map lookup per metadata line and nothing per sample; a string is copied
 * only when it is new or changed, so the cache never holds on to a scrape body.
 */
export class MetadataCache implements MetadataSink {
  private readonly entries = new Map<string, Entry>();
  private iter = 0;
  private successfulCount = 0;

  setType(metric: string, type: MetricType): void {
    const entry = this.entry(metric);
    entry.type = type;
  }

  setHelp(metric: string, help: string): void {
    const entry = this.entry(metric);
    if (entry.help !== help) entry.help = detached(help);
  }

  setUnit(metric: string, unit: string): void {
    const entry = this.entry(metric);
    if (entry.unit !== unit) entry.unit = detached(unit);
  }

  /**
   * Ends a scrape: `flush` after a successful scrape with a non-empty body (families not given a
   * line for more than ten iterations go, and the iteration moves on), false after a failed one.
   */
  iterDone(flush: boolean): void {
    const count = this.entries.size;
    if (flush) this.successfulCount = count;
    else if (count > this.successfulCount * 2 + 1000) flush = true;
    if (!flush) return;
    for (const [metric, entry] of this.entries) {
      if (this.iter - entry.lastIter > KEPT_ITERATIONS) this.entries.delete(metric);
    }
    this.iter++;
  }

  /** A family's metadata, or undefined when the cache has none. */
  get(metric: string): MetricMetadata | undefined {
    const entry = this.entries.get(metric);
    return entry && { metric, type: entry.type, help: entry.help, unit: entry.unit };
  }

  /** Every family's metadata, in no particular order. */
  *values(): IterableIterator<MetricMetadata> {
    for (const [metric, entry] of this.entries)
      yield { metric, type: entry.type, help: entry.help, unit: entry.unit };
  }

  /** Every family's metadata, by name (Go's byte order; names are ASCII). */
  list(): MetricMetadata[] {
    const names = [...this.entries.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return names.map((metric) => this.get(metric) as MetricMetadata);
  }

  get size(): number {
    return this.entries.size;
  }

  private entry(metric: string): Entry {
    let entry = this.entries.get(metric);
    if (entry === undefined) {
      entry = { type: 'unknown', help: '', unit: '', lastIter: this.iter };
      this.entries.set(detached(metric), entry);
    }
    entry.lastIter = this.iter;
    return entry;
  }
}
