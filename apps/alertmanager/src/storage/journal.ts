import type { Logger } from '../logging/logger';
import type { AppendLog } from './append-log';
import type { LogFiles } from './log-files';
import { encodePutDelete, type TupleCodec } from './put-delete-codec';
import { rollSnapshot } from './roll-snapshot';

/**
 * A store's changes on disk: items put and keys deleted, one framed record each, appended to
 * `<name>-N.log`; {@link Journal.compact} writes the whole state to `<name>.snapshot` as
 * generation N+1 and starts an empty log for it. Alerts, silences and the notification log all
 * keep their state this way; {@link openJournal} loads it back.
 */
export class Journal<T> {
  constructor(
    private readonly files: LogFiles,
    private readonly log: AppendLog,
    private readonly codec: TupleCodec<T, unknown>,
    private generation: number,
    /** Size of the last snapshot written or loaded, bytes. */
    private snapshotSize: number,
    private readonly logger: Logger,
  ) {}

  /** Bytes of the current log, written or queued. */
  get logBytes(): number {
    return this.log.bytes;
  }

  /** Bytes of the last snapshot. */
  get snapshotBytes(): number {
    return this.snapshotSize;
  }

  /**
   * Records items as they now are and resolves once they are on disk. Concurrent commits share
   * one write (see {@link AppendLog.commit}).
   */
  commit(items: readonly T[]): Promise<void> {
    return this.log.commit(encodePutDelete({ put: [...items] }, this.codec));
  }

  /** Records removed keys; durable with the next commit or sync. */
  forget(keys: readonly string[]): void {
    if (keys.length > 0) this.log.append(encodePutDelete({ del: [...keys] }, this.codec));
  }

  /**
   * Replaces snapshot and log with a snapshot of `current()`, read inside the file queue so no
   * change is lost or counted twice: changes queued before are in the snapshot, later ones in
   * the new log. Returns the snapshot's size in bytes.
   */
  async compact(current: () => Iterable<T>): Promise<number> {
    await this.log.run(async () => {
      const generation = this.generation + 1;
      const bytes = await rollSnapshot(this.log, this.files, generation, current(), (chunk) =>
        encodePutDelete({ put: chunk }, this.codec),
      );
      this.generation = generation;
      this.snapshotSize = bytes;
      this.logger.debug(`Wrote the ${this.files.name} snapshot`, { generation, bytes });
    });
    return this.snapshotSize;
  }

  /** Makes everything recorded so far durable. */
  sync(): Promise<void> {
    return this.log.flush();
  }

  /** Syncs and closes the log; nothing may be recorded afterwards. */
  close(): Promise<void> {
    return this.log.close();
  }
}
