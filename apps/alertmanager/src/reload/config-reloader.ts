import type { LoadedConfig } from '../config';
import type { Logger } from '../logging/logger';
import type { Clock } from '../time/clock';
import type { ConfigReloadMetrics } from './config-reload-metrics';
import type { ConfigSubscriber } from './config-subscriber';

/** Reads and validates a configuration file; throws a user-facing error when it is wrong. */
export type ConfigLoader = (file: string) => Promise<LoadedConfig>;

/**
 * Owns the running configuration. `reload()` (from `POST /-/reload` or SIGHUP) loads the file
 * again and applies it to every subscriber; a config that fails to load or apply leaves the
 * running one in place. Reloads are serialised so two at once cannot interleave.
 */
export class ConfigReloader {
  private subscribers: ConfigSubscriber[] = [];
  private queue: Promise<unknown> = Promise.resolve();
  private last: { successful: boolean; successAt: number };

  constructor(
    private current: LoadedConfig,
    private readonly load: ConfigLoader,
    private readonly metrics: ConfigReloadMetrics,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {
    metrics.succeeded(clock.now(), current.hash);
    this.last = { successful: true, successAt: clock.now() };
  }

  /** Whether the last load succeeded, and when one last did (ms): what the metrics report. */
  get lastReload(): { successful: boolean; successAt: number } {
    return { ...this.last };
  }

  /** The configuration in force. */
  get config(): LoadedConfig {
    return this.current;
  }

  /** Registers a subscriber and applies the running configuration to it right away. */
  async subscribe(subscriber: ConfigSubscriber): Promise<void> {
    const commit = await subscriber.prepare(this.current);
    await commit();
    this.subscribers.push(subscriber);
  }

  /** Loads the file again; resolves when applied, rejects with the reason when not. */
  reload(): Promise<LoadedConfig> {
    const run = this.queue.then(() => this.reloadNow());
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async reloadNow(): Promise<LoadedConfig> {
    const file = this.current.file;
    this.logger.info('Loading configuration file', { file });
    try {
      const next = await this.load(file);
      const commits = [];
      for (const subscriber of this.subscribers) commits.push(await subscriber.prepare(next));
      for (const commit of commits) await commit();
      this.current = next;
      this.metrics.succeeded(this.clock.now(), next.hash);
      this.last = { successful: true, successAt: this.clock.now() };
      this.logger.info('Completed loading of configuration file', { file });
      return next;
    } catch (error) {
      this.metrics.failed();
      this.last = { ...this.last, successful: false };
      this.logger.error('Loading configuration file failed', {
        file,
        err: (error as Error).message,
      });
      throw error;
    }
  }
}
