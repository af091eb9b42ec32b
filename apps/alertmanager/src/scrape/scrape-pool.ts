import type { ScrapeConfig } from '../config';
import { BodyBufferPool, HttpClient } from '../http-client';
import type { TimerHandle } from '../time/scheduler';
import type { Labels } from '../tsdb/labels';
import { ScrapeLoop, type ScrapeLoopDeps } from './scrape-loop';
import { populateTarget } from './scrape-target';
import { readTargetFile, staticGroups, targetFiles, type TargetGroup } from './target-groups';

/** A job's relabeling, decoded and checked when the configuration loaded. */
export interface JobRelabeling {
  readonly targets: (labels: Labels) => Labels | undefined;
  readonly metrics: (labels: Labels) => Labels | undefined;
}

/** What every pool shares. */
export interface ScrapePoolDeps extends Omit<
  ScrapeLoopDeps,
  'client' | 'bodies' | 'metricRelabel'
> {
  readonly glob: (pattern: string) => Promise<string[]>;
}

/** A target that relabeling dropped or that was refused, for `/api/v1/targets`. */
export interface DroppedTarget {
  readonly discoveredLabels: Labels;
}

/**
 * The targets of one `scrape_configs` job: discovered from `static_configs` and
 * `file_sd_configs` (files re-read every `refresh_interval`), relabeled, each scraped by its own
 * loop. A re-discovery keeps the loops of targets that stay, starts new ones and stops the loops
 * of targets that are gone (their series go stale).
 */
export class ScrapePool {
  private readonly loops = new Map<string, ScrapeLoop>();
  private dropped: DroppedTarget[] = [];
  private readonly client: HttpClient;
  /** The memory its loops read scrape bodies into. */
  private readonly bodies = new BodyBufferPool();
  private readonly fileGroups = new Map<string, TargetGroup[]>();
  private refresh: TimerHandle | undefined;
  private stopped = false;

  constructor(
    readonly config: ScrapeConfig,
    private readonly relabeling: JobRelabeling,
    private readonly deps: ScrapePoolDeps,
  ) {
    this.client = new HttpClient(config.httpConfig);
  }

  get jobName(): string {
    return this.config.jobName;
  }

  get activeTargets(): readonly ScrapeLoop[] {
    return [...this.loops.values()];
  }

  get droppedTargets(): readonly DroppedTarget[] {
    return this.dropped;
  }

  /** Discovers the targets and starts scraping; file targets are re-read on their interval. */
  async start(): Promise<void> {
    await this.discover();
    this.scheduleRefresh();
  }

  stop(): void {
    this.stopped = true;
    if (this.refresh) this.deps.scheduler.clear(this.refresh);
    for (const loop of this.loops.values()) loop.stop();
    this.loops.clear();
    this.client.close();
  }

  private scheduleRefresh(): void {
    const intervals = this.config.fileSdConfigs.map((c) => c.refreshIntervalMs);
    if (intervals.length === 0 || this.stopped) return;
    const at = this.deps.clock.now() + Math.min(...intervals);
    this.refresh = this.deps.scheduler.set(at, () => {
      void this.discover().finally(() => this.scheduleRefresh());
    });
  }

  private async discover(): Promise<void> {
    for (const config of this.config.fileSdConfigs) {
      for (const file of await targetFiles(config, this.deps.glob)) {
        try {
          this.fileGroups.set(file, await readTargetFile(file));
        } catch (error) {
          // As upstream: a file that does not read keeps the targets it gave last time.
          this.deps.logger.error('Error reading file', {
            job: this.jobName,
            err: (error as Error).message,
          });
        }
      }
    }
    if (this.stopped) return;
    const groups = [
      ...staticGroups(this.config.staticConfigs),
      ...[...this.fileGroups.values()].flat(),
    ];
    this.sync(groups);
  }

  private sync(groups: readonly TargetGroup[]): void {
    const wanted = new Map<string, ScrapeLoop>();
    const dropped: DroppedTarget[] = [];
    for (const group of groups) {
      for (const discovered of group.targets) {
        const outcome = populateTarget(discovered, this.config, this.relabeling.targets);
        if (outcome.kind === 'dropped') {
          dropped.push({ discoveredLabels: outcome.discoveredLabels });
          continue;
        }
        if (outcome.kind === 'invalid') {
          this.deps.logger.error('Creating target failed', {
            job: this.jobName,
            err: outcome.error,
          });
          continue;
        }
        const key = `${outcome.target.labels.key}\u0000${outcome.target.url}`;
        if (wanted.has(key)) continue;
        wanted.set(
          key,
          this.loops.get(key) ??
            new ScrapeLoop(outcome.target, this.config, {
              ...this.deps,
              client: this.client,
              bodies: this.bodies,
              metricRelabel: this.relabeling.metrics,
            }),
        );
      }
    }
    for (const [key, loop] of this.loops) if (!wanted.has(key)) loop.stop();
    for (const [key, loop] of wanted) if (!this.loops.has(key)) loop.start();
    this.loops.clear();
    for (const [key, loop] of wanted) this.loops.set(key, loop);
    this.dropped = dropped;
  }
}
