import { prefersOpenMetrics } from './metrics-format.negotiation';

describe('prefersOpenMetrics', () => {
  it.each<[string, string | undefined, boolean]>([
    ['no Accept header', undefined, false],
    ['a browser', 'text/html,application/xhtml+xml,*/*;q=0.8', false],
    ['curl', '*/*', false],
    ['Prometheus text only', 'text/plain;version=0.0.4', false],
    ['OpenMetrics only', 'application/openmetrics-text', true],
    [
      "Prometheus's scraper",
      'application/openmetrics-text;version=1.0.0;q=0.5,application/openmetrics-text;version=0.0.1;q=0.4,text/plain;version=0.0.4;q=0.3,*/*;q=0.2',
      true,
    ],
    [
      "Prometheus's scraper asking for protobuf first",
      'application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited;q=0.6,application/openmetrics-text;version=1.0.0;q=0.5,text/plain;version=0.0.4;q=0.3',
      true,
    ],
    ['text preferred', 'text/plain;q=0.9, application/openmetrics-text;q=0.5', false],
    ['OpenMetrics refused', 'application/openmetrics-text;q=0, text/plain', false],
    ['an unreadable weight', 'application/openmetrics-text;q=high', false],
    ['upper case', 'Application/OpenMetrics-Text; Version=1.0.0', true],
  ])('%s: %s', (_case, accept, expected) => {
    expect(prefersOpenMetrics(accept)).toBe(expected);
  });
});
