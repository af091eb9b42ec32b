import { collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import { buildInfo } from '../build/build-info';

/** Injection token for the server's prom-client registry, served on `/metrics`. */
export const MetricsRegistry = Symbol('MetricsRegistry');

/**
 * A registry with process and Node.js runtime metrics and `alertmanager_build_info`. Each server
 * gets its own registry so that several servers in one process (tests) do not share counters.
 */
export function createMetricsRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const info = buildInfo();
  new Gauge({
    name: 'alertmanager_build_info',
    help: 'A metric with a constant 1 value labeled by version, revision, branch and node version.',
    labelNames: ['version', 'revision', 'branch', 'nodeversion'],
    registers: [registry],
  })
    .labels(info.version, '', '', info.nodeVersion)
    .set(1);
  return registry;
}
