import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  type Sampler,
} from '@opentelemetry/sdk-trace-base';
import type { ResolvedTracingOptions } from '../tracing-options.interface';

/** The sampler for the resolved `sampling` option. */
export function createSampler({
  strategy,
  ratio,
  parentBased,
}: ResolvedTracingOptions['sampling']): Sampler {
  const root =
    strategy === 'always'
      ? new AlwaysOnSampler()
      : strategy === 'never'
        ? new AlwaysOffSampler()
        : new TraceIdRatioBasedSampler(ratio);
  return parentBased ? new ParentBasedSampler({ root }) : root;
}
