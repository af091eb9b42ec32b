import type { EngineOptions } from '../promql';
import { SERVER_DEFAULTS, type ServerOptions } from './server-options';

/** The `--query.*` flags (and PromQL features) as the engine and the query threads take them. */
export interface QueryEngineSettings {
  readonly engine: EngineOptions & { readonly timeoutMs: number };
  readonly maxConcurrency: number;
}

/** The `--query.*` flags, defaulted as Prometheus does; rules and API queries share them. */
export function queryEngineSettings(options: ServerOptions): QueryEngineSettings {
  return {
    engine: {
      lookbackDeltaMs: options.queryLookbackDelta ?? SERVER_DEFAULTS.queryLookbackDelta,
      maxSamples: options.queryMaxSamples ?? SERVER_DEFAULTS.queryMaxSamples,
      timeoutMs: options.queryTimeout ?? SERVER_DEFAULTS.queryTimeout,
      delayedNameRemoval: options.promqlDelayedNameRemoval === true,
    },
    maxConcurrency: options.queryMaxConcurrency ?? SERVER_DEFAULTS.queryMaxConcurrency,
  };
}
