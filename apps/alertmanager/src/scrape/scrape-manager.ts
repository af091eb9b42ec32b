import type { ScrapeConfig } from '../config';
import type { Logger } from '../logging/logger';
import { sameConfig } from './same-config';
import { ScrapePool, type JobRelabeling, type ScrapePoolDeps } from './scrape-pool';

/** Decodes a job's relabeling rules; throws with the rule's place and upstream's message. */
export type RelabelingDecoder = (config: ScrapeConfig) => JobRelabeling;

/**
 * Runs one scrape pool per `scrape_configs` job and swaps them on a reload, as upstream's scrape
 * manager: the new jobs' relabeling is decoded first (a bad rule throws and changes nothing);
 * a job whose configuration did not change keeps its pool and loops; a changed job's pool is
 * replaced; a job that is gone stops (its series go stale).
 */
export class ScrapeManager {
  private pools = new Map<string, ScrapePool>();

  constructor(
    private readonly deps: ScrapePoolDeps,
    private readonly decode: RelabelingDecoder,
    private readonly logger: Logger,
  ) {}

  /** The running pools, in the configuration's order. */
  get scrapePools(): readonly ScrapePool[] {
    return [...this.pools.values()];
  }

  /** Checks the jobs; the returned commit puts them into force. */
  prepare(configs: readonly ScrapeConfig[]): () => Promise<void> {
    const relabeling = configs.map((config) => this.decode(config));
    return () => this.commit(configs, relabeling);
  }

  async update(configs: readonly ScrapeConfig[]): Promise<void> {
    await this.prepare(configs)();
  }

  stop(): void {
    for (const pool of this.pools.values()) pool.stop();
    this.pools.clear();
  }

  private async commit(
    configs: readonly ScrapeConfig[],
    relabeling: JobRelabeling[],
  ): Promise<void> {
    const next = new Map<string, ScrapePool>();
    const started: ScrapePool[] = [];
    configs.forEach((config, i) => {
      const running = this.pools.get(config.jobName);
      if (running && sameConfig(running.config, config)) {
        next.set(config.jobName, running);
        return;
      }
      const pool = new ScrapePool(config, relabeling[i], this.deps);
      next.set(config.jobName, pool);
      started.push(pool);
    });
    for (const [job, pool] of this.pools) if (next.get(job) !== pool) pool.stop();
    this.pools = next;
    await Promise.all(started.map((pool) => pool.start()));
    this.logger.info('scrape jobs loaded', { jobs: next.size });
  }
}
