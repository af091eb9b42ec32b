import type { PrometheusConfig } from '../../config';
import { printPrometheusConfig } from '../../config/prometheus/print-prometheus-config';
import type { MemoryStore } from '../../tsdb/memory-store';
import type { JsonText } from './prometheus-reply';
import { runtimeInfo, type RuntimeInfo, type RuntimeSources } from './runtime-info';
import { TsdbStatus } from './tsdb-status';
import type { Clock } from '../../time/clock';

/** What the status endpoints read, built by the server outside Nest. */
export interface PrometheusStatusInputs {
  /**
   * The Prometheus-style configuration (`--rules.config.file`) last loaded successfully; none
   * when no file is given.
   */
  prometheusConfig(): PrometheusConfig | undefined;
  /** Every command-line flag of the server and its value, by name. */
  readonly flags: Readonly<Record<string, string>>;
  readonly runtime: RuntimeSources;
  /** The metric store's series in memory. */
  readonly store: MemoryStore;
  /** How old the cached cardinality lists are is read from it. */
  readonly clock: Clock;
}

/**
 * Prometheus's status endpoints: `status/config`, `status/flags`, `status/runtimeinfo` and
 * `status/tsdb`, answered as Prometheus 2.42 answers them.
 */
export class PrometheusStatusApi {
  /** The last configuration printed and its text: printing is done once per loaded config. */
  private printed: { config: PrometheusConfig | undefined; yaml: string } | undefined;

  private readonly tsdbStatus: TsdbStatus;

  constructor(private readonly inputs: PrometheusStatusInputs) {
    this.tsdbStatus = new TsdbStatus(inputs.store, inputs.clock);
  }

  /** `{"yaml": ...}`: the configuration with its defaults, secrets as `<secret>`. */
  config(): { yaml: string } {
    const config = this.inputs.prometheusConfig();
    if (this.printed === undefined || this.printed.config !== config) {
      this.printed = { config, yaml: printPrometheusConfig(config) };
    }
    return { yaml: this.printed.yaml };
  }

  /** The flags by name, in Go's order of map keys (sorted), as Prometheus's JSON has them. */
  flags(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const name of Object.keys(this.inputs.flags).sort()) out[name] = this.inputs.flags[name];
    return out;
  }

  runtimeInfo(): RuntimeInfo {
    return runtimeInfo(this.inputs.runtime);
  }

  /** The head's statistics (see {@link TsdbStatus}). */
  tsdb(): Promise<JsonText> {
    return this.tsdbStatus.answer();
  }
}
