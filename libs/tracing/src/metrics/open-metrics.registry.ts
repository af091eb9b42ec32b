import {
  Histogram,
  Registry,
  type Counter,
  type Metric,
  type OpenMetricsContentType,
} from 'prom-client';

/**
 * A registry that serves `metrics` in the OpenMetrics text format next to their own Prometheus
 * registry. prom-client's OpenMetrics registry strips `_total` from a counter's name in place
 * (it prints the suffix back on the samples), which would rename the counter in the Prometheus
 * registry too; so counters are registered here through a view with a name of its own, and
 * histograms, which it leaves alone, as they are.
 */
export function openMetricsRegistry(
  metrics: readonly (Counter<string> | Histogram<string>)[],
): Registry<OpenMetricsContentType> {
  const registry = new Registry<OpenMetricsContentType>();
  registry.setContentType(Registry.OPENMETRICS_CONTENT_TYPE);
  for (const metric of metrics) {
    registry.registerMetric(metric instanceof Histogram ? metric : counterView(metric));
  }
  return registry;
}

/** prom-client's metric as the registry reads it: its name, type and values. */
interface RegisteredMetric {
  name: string;
  type?: string;
  get(): Promise<{ name: string }>;
}

/** The counter under a name the registry may rewrite; its values carry that name. */
function counterView(counter: Counter<string>): Metric<string> {
  const source = counter as unknown as RegisteredMetric;
  const view: RegisteredMetric = {
    name: source.name,
    type: 'counter',
    get: async () => ({ ...(await source.get()), name: view.name }),
  };
  return view as unknown as Metric<string>;
}
