import { Gauge, type Registry } from 'prom-client';

/** Alertmanager's three configuration metrics, with upstream's names. */
export class ConfigReloadMetrics {
  private readonly successful: Gauge;
  private readonly successTimestamp: Gauge;
  private readonly hash: Gauge;

  constructor(registry: Registry) {
    this.successful = new Gauge({
      name: 'alertmanager_config_last_reload_successful',
      help: 'Whether the last configuration reload attempt was successful.',
      registers: [registry],
    });
    this.successTimestamp = new Gauge({
      name: 'alertmanager_config_last_reload_success_timestamp_seconds',
      help: 'Timestamp of the last successful configuration reload.',
      registers: [registry],
    });
    this.hash = new Gauge({
      name: 'alertmanager_config_hash',
      help: 'Hash of the currently loaded alertmanager configuration.',
      registers: [registry],
    });
  }

  /** Records a successful load at `nowMs` of a config whose hash is `hash`. */
  succeeded(nowMs: number, hash: number): void {
    this.successful.set(1);
    this.successTimestamp.set(Math.floor(nowMs / 1000));
    this.hash.set(hash);
  }

  /** Records a failed reload; the timestamp and hash keep describing the running config. */
  failed(): void {
    this.successful.set(0);
  }
}
