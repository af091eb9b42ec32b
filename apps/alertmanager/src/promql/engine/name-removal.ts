import { METRIC_NAME, type Labels } from '../../tsdb/labels';
import { PromqlEvalError } from './errors';
import { mergeSameLabelset } from './label-functions';
import type { Series } from './values';

// Where `__name__` goes. By default, as Prometheus's engine, an operation that no longer measures
// what the metric name says removes the name (and `__type__`, `__unit__`) from its result at
// once, and results that then share a label set are an error. With delayed name removal
// (`--enable-feature=promql-delayed-name-removal`) the result is only marked (`Series.dropName`)
// and the labels go when the query finishes.

/** The labels that describe what a series measures, dropped with its name. */
const METADATA_LABELS: readonly string[] = [METRIC_NAME, '__type__', '__unit__'];

export const SAME_LABELSET = 'vector cannot contain metrics with the same labelset';

/**
 * Label sets without their metadata labels. A range query meets the same series' labels at every
 * step; label sets are immutable, so each is worked out once.
 */
const withoutMetadataOf = new WeakMap<Labels, Labels>();

/** The labels without `__name__`, `__type__` and `__unit__`. */
export function withoutMetadata(metric: Labels): Labels {
  let found = withoutMetadataOf.get(metric);
  if (found === undefined) {
    found = metric.without(METADATA_LABELS);
    withoutMetadataOf.set(metric, found);
  }
  return found;
}

/** The labels of a result that drops the name: without it at once, or kept until the end. */
export function nameDropper(delayed: boolean): (metric: Labels) => Labels {
  return delayed ? (metric) => metric : withoutMetadata;
}

/**
 * Removes the name of the series an operation marked, at once: series that then share a label
 * set become one where their points do not overlap, else it is upstream's error. Unchanged (the
 * same array) when no label set changed.
 */
export function dropNamesNow(series: Series[]): Series[] {
  let changed = false;
  const out = series.map((s) => {
    if (!s.dropName) return s;
    const metric = withoutMetadata(s.metric);
    if (metric === s.metric) return s;
    changed = true;
    return { ...s, metric };
  });
  return changed ? mergeSameLabelset(out) : series;
}

/** Refuses a second series with a label set already seen, as upstream does for a whole matrix. */
export class DistinctLabelsets {
  private readonly seen = new Set<string>();

  add(metric: Labels): void {
    const key = metric.key;
    if (this.seen.has(key)) throw new PromqlEvalError(SAME_LABELSET);
    this.seen.add(key);
  }
}
