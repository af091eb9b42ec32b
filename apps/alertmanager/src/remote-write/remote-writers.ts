import { createHash } from 'node:crypto';
import type { RemoteWriteConfig } from '../config';
import type { Logger } from '../logging/logger';
import { decodeRelabelConfigs, relabeler } from '../scrape';
import type { Clock } from '../time/clock';
import type { Scheduler } from '../time/scheduler';
import { Labels } from '../tsdb/labels';
import type { AppendedBatch, AppendListener, LogPosition } from '../tsdb/metric-storage';
import { RemoteWriteClient } from './remote-write-client';
import type { RemoteWriteMetrics } from './remote-write-metrics';
import { RemoteWriteQueue, type LogFeed, type PositionKeeper } from './remote-write-queue';
import { SendPositionFile } from './send-position-file';

/** What the remotes are fed from: the metric store, its log and its committed batches. */
export interface AppendSource {
  /** Every committed batch (counted as `samples_in`). */
  onAppend(listener: AppendListener): () => void;
  /** The end of what the log has written. */
  logEnd(): LogPosition;
  /** Called whenever the log has written more. */
  onLogWritten(listener: () => void): () => void;
  /** Keeps the log's segments from the one `oldest` names on. */
  holdLog(oldest: () => number | undefined): () => void;
  readLog(from: LogPosition): LogFeed;
}

/** What {@link RemoteWriters} work with. */
export interface RemoteWritersDeps {
  readonly source: AppendSource;
  readonly metrics: RemoteWriteMetrics;
  readonly clock: Clock;
  readonly scheduler: Scheduler;
  readonly logger: Logger;
  /** `User-Agent` of every request. */
  readonly userAgent: string;
  /** `--storage.path`: where each remote's position in the log is kept. */
  readonly storageDir: string;
}

interface RunningRemote {
  readonly key: string;
  readonly queue: RemoteWriteQueue;
}

/**
 * The `remote_write` entries of the running configuration, each a {@link RemoteWriteQueue} that
 * reads the metric store's log from its kept position on. A reload keeps the queue of an entry
 * that did not change, with the same external labels; a changed entry gets a new queue, which
 * resumes where the old one stopped when URL and name are the same; a removed one stops. The
 * store is only listened to, and its log segments held for the remotes behind, while there is a
 * remote.
 */
export class RemoteWriters {
  private remotes: RunningRemote[] = [];
  private unsubscribe: (() => void) | undefined;
  private highestIn = 0;
  private readonly listener: AppendListener = (batch) => this.appended(batch);

  constructor(private readonly deps: RemoteWritersDeps) {}

  /**
   * Checks a configuration's entries and builds what they need; the returned function switches
   * to them. Throws, changing nothing, on an invalid relabeling rule or a duplicate entry.
   */
  prepare(
    configs: readonly RemoteWriteConfig[],
    externalLabels: Readonly<Record<string, string>>,
  ): () => void {
    const external = Object.entries(externalLabels);
    const sameRemote = new Map<string, number>();
    const planned = configs.map((config) => {
      const relabel = relabeler(decodeRelabelConfigs(config.writeRelabelConfigs));
      const hash = configHash(config);
      // Entries of the same URL and name (differing otherwise) keep their positions apart.
      const remote = `${config.url}\n${config.name}`;
      const ordinal = sameRemote.get(remote) ?? 0;
      sameRemote.set(remote, ordinal + 1);
      const positionName = ordinal === 0 ? config.name : `${config.name}\n${ordinal}`;
      return { config, hash, key: `${hash}\n${JSON.stringify(external)}`, relabel, positionName };
    });
    const seen = new Set<string>();
    for (const { config, hash } of planned) {
      if (seen.has(hash)) {
        throw new Error(
          `duplicate remote write configs are not allowed, found duplicate for URL: ${config.url}`,
        );
      }
      seen.add(hash);
    }
    return () => {
      const running = new Map(this.remotes.map((r) => [r.key, r]));
      const wanted = new Set(planned.map((p) => p.key));
      // Stopped first, so that a replacement's metric series start afresh.
      for (const r of this.remotes) if (!wanted.has(r.key)) r.queue.stop();
      this.remotes = planned.map((p) => {
        const kept = running.get(p.key);
        // As upstream, a kept queue gets a new client: a secret may have changed.
        kept?.queue.setStore(this.client(p.config));
        return (
          kept ?? {
            key: p.key,
            queue: this.startQueue(p.config, p.hash, p.positionName, (labels) =>
              p.relabel(external.length === 0 ? labels : withExternal(labels, external)),
            ),
          }
        );
      });
      if (this.remotes.length > 0) this.unsubscribe ??= this.listen();
      else this.stopListening();
    };
  }

  /** Stops every queue (what waits in them stays in the log, for the next start). */
  stop(): void {
    this.stopListening();
    for (const r of this.remotes) r.queue.stop();
    this.remotes = [];
  }

  private listen(): () => void {
    const { source } = this.deps;
    const stops = [
      source.onAppend(this.listener),
      source.onLogWritten(() => {
        for (const r of this.remotes) r.queue.logWritten();
      }),
      source.holdLog(() =>
        this.remotes.length === 0
          ? undefined
          : Math.min(...this.remotes.map((r) => r.queue.neededSegment)),
      ),
    ];
    return () => {
      for (const stop of stops) stop();
    };
  }

  private startQueue(
    config: RemoteWriteConfig,
    hash: string,
    positionName: string,
    seriesLabels: (labels: Labels) => Labels | undefined,
  ): RemoteWriteQueue {
    const name = config.name || hash.slice(0, 6);
    const url = redacted(config.url);
    const logger = this.deps.logger.with({ remote_name: name, url });
    const position = this.positionKeeper(config.url, positionName, { url, name }, logger);
    return new RemoteWriteQueue(
      { name, url, queue: config.queueConfig, seriesLabels },
      {
        feed: this.deps.source.readLog(position.start),
        position,
        store: this.client(config),
        metrics: this.deps.metrics,
        clock: this.deps.clock,
        scheduler: this.deps.scheduler,
        logger,
      },
    );
  }

  /**
   * The remote's kept position, or the log's end for a remote not seen before (kept at once, so a
   * restart before its first send still reads what was written since).
   */
  private positionKeeper(
    rawUrl: string,
    positionName: string,
    shown: { url: string; name: string },
    logger: Logger,
  ): PositionKeeper {
    const file = new SendPositionFile(this.deps.storageDir, rawUrl, positionName);
    const save = (position: LogPosition) => file.write(position, shown);
    let kept: LogPosition | undefined;
    try {
      kept = file.read();
    } catch (error) {
      logger.warn('The remote write position kept is unreadable; sending from the end of the log', {
        err: (error as Error).message,
      });
    }
    if (kept !== undefined) return { start: kept, save };
    const start = this.deps.source.logEnd();
    try {
      save(start);
    } catch (error) {
      logger.error('Keeping the remote write position failed', { err: (error as Error).message });
    }
    return { start, save };
  }

  private client(config: RemoteWriteConfig): RemoteWriteClient {
    return new RemoteWriteClient(config, this.deps.userAgent, this.deps.clock);
  }

  private appended(batch: AppendedBatch): void {
    const { metrics } = this.deps;
    metrics.samplesIn.inc(batch.t.length);
    let highest = this.highestIn;
    for (const t of batch.t) if (t > highest) highest = t;
    if (highest > this.highestIn) {
      this.highestIn = highest;
      metrics.highestTimestampIn.set(Math.floor(highest / 1000));
    }
  }

  private stopListening(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }
}

/** External labels added to a series that lacks them, as upstream does before relabeling. */
function withExternal(labels: Labels, external: readonly (readonly [string, string])[]): Labels {
  const pairs: (readonly [string, string])[] = [...external];
  for (let i = 0; i < labels.names.length; i++) pairs.push([labels.names[i], labels.values[i]]);
  return Labels.from(pairs);
}

/**
 * A stable digest of an entry: what tells a changed entry from an unchanged one, and the name
 * of one without `name`. Secrets count as their placeholder and rules without their position,
 * so moving an entry in the file does not restart its queue.
 */
function configHash(config: RemoteWriteConfig): string {
  const stable = { ...config, writeRelabelConfigs: config.writeRelabelConfigs.map((r) => r.value) };
  return createHash('sha256').update(JSON.stringify(stable)).digest('hex');
}

/** The URL without its password, as the metrics' `url` label shows it. */
function redacted(text: string): string {
  const url = new URL(text);
  if (url.password !== '') url.password = 'xxxxx';
  return url.href;
}
