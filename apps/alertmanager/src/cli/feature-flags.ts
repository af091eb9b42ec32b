import type { FlagSpec, ParsedCommandLine } from './flags/flag-spec';

/** The feature names `--enable-feature` knows, as Prometheus spells them. */
export const KNOWN_FEATURES = ['promql-delayed-name-removal'] as const;

/** `--enable-feature`: Prometheus's flag, repeatable, each value a comma-separated list. */
export const ENABLE_FEATURE_FLAG: FlagSpec = {
  name: 'enable-feature',
  kind: 'string',
  repeatable: true,
  placeholder: '',
  help: `Comma separated feature names to enable. Valid options: ${KNOWN_FEATURES.join(', ')}. See https://prometheus.io/docs/prometheus/latest/feature_flags/ for more details.`,
};

export interface EnabledFeatures {
  /** `promql-delayed-name-removal`: PromQL removes `__name__` when a query finishes. */
  readonly promqlDelayedNameRemoval: boolean;
  /** Names given that are not features here: warned about and ignored, as Prometheus does. */
  readonly unknown: readonly string[];
}

/** The features the `--enable-feature` values name (every occurrence, split at commas). */
export function enabledFeatures(parsed: ParsedCommandLine): EnabledFeatures {
  const values = (parsed.flags[ENABLE_FEATURE_FLAG.name] as string[] | undefined) ?? [];
  const names = values.flatMap((value) => value.split(','));
  const known = new Set<string>(KNOWN_FEATURES);
  return {
    promqlDelayedNameRemoval: names.includes('promql-delayed-name-removal'),
    unknown: names.filter((name) => !known.has(name)),
  };
}
