import type { ScrapeConfig } from '../config';
import { formatDuration } from '../time/duration';
import { Labels } from '../tsdb/labels';

/** A target as discovered: its address and labels before relabeling (`__meta_*` included). */
export interface DiscoveredTarget {
  readonly labels: Labels;
}

/** A target to scrape: its final labels, the labels it was discovered with, and its URL. */
export interface ScrapeTarget {
  /** Labels after relabeling, internal `__*` ones included (`__address__`, `__scheme__`, ...). */
  readonly labels: Labels;
  readonly discoveredLabels: Labels;
  readonly url: string;
}

/** What became of a discovered target: scraped, dropped by relabeling, or refused with why. */
export type TargetOutcome =
  | { readonly kind: 'target'; readonly target: ScrapeTarget }
  | { readonly kind: 'dropped'; readonly discoveredLabels: Labels }
  | { readonly kind: 'invalid'; readonly error: string };

/**
 * Upstream's `PopulateLabels`: the job's settings as internal labels where discovery did not set
 * them, `__param_<name>` for each scrape parameter, target relabeling (`relabel` returns
 * undefined to drop), then the address checked, `__meta_*` labels removed and `instance`
 * defaulted to the address. Unlike Prometheus 2.42, no default port is added to an address
 * without one (as Prometheus 3 does).
 */
export function populateTarget(
  discovered: Labels,
  config: ScrapeConfig,
  relabel: (labels: Labels) => Labels | undefined,
): TargetOutcome {
  const defaults: [string, string][] = [
    ['job', config.jobName],
    ['__scrape_interval__', formatDuration(config.scrapeIntervalMs)],
    ['__scrape_timeout__', formatDuration(config.scrapeTimeoutMs)],
    ['__metrics_path__', config.metricsPath],
    ['__scheme__', config.scheme],
  ];
  let labels = discovered;
  for (const [name, value] of defaults)
    if (labels.get(name) === '') labels = labels.with(name, value);
  for (const [name, values] of Object.entries(config.params)) {
    if (values.length > 0) labels = labels.with(`__param_${name}`, values[0]);
  }
  const before = labels;
  const relabeled = relabel(labels);
  if (relabeled === undefined) return { kind: 'dropped', discoveredLabels: before };
  const address = relabeled.get('__address__');
  if (address === '') return { kind: 'invalid', error: 'no address' };
  let final = relabeled.without(relabeled.names.filter((n) => n.startsWith('__meta_')));
  if (final.get('instance') === '') final = final.with('instance', address);
  return {
    kind: 'target',
    target: { labels: final, discoveredLabels: before, url: targetUrl(final, config) },
  };
}

/** The URL to scrape: scheme, address and path from the labels, the job's params with `__param_*` overrides. */
export function targetUrl(labels: Labels, config: ScrapeConfig): string {
  const params = new Map<string, string[]>();
  for (const [name, values] of Object.entries(config.params)) params.set(name, [...values]);
  // A `__param_<name>` label replaces the first value of the parameter, as upstream.
  for (let i = 0; i < labels.size; i++) {
    const name = labels.names[i];
    if (!name.startsWith('__param_')) continue;
    const param = name.slice('__param_'.length);
    const values = params.get(param) ?? [];
    values[0] = labels.values[i];
    params.set(param, values);
  }
  const query = new URLSearchParams(
    [...params].flatMap(([param, values]) => values.map((v): [string, string] => [param, v])),
  ).toString();
  const path = labels.get('__metrics_path__');
  return `${labels.get('__scheme__')}://${labels.get('__address__')}${path}${query === '' ? '' : `?${query}`}`;
}

/** The labels a target gives its samples: its own without the internal `__*` ones. */
export function publicLabels(labels: Labels): Labels {
  return labels.without(labels.names.filter((n) => n.startsWith('__')));
}
