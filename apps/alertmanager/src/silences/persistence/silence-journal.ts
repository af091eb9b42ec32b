import type { Logger } from '../../logging/logger';
import type { AppendLog } from '../../alerts/persistence/append-log';
import type { LogFiles } from '../../alerts/persistence/log-files';
import { rollSnapshot } from '../../alerts/persistence/roll-snapshot';
import type { Silence } from '../silence';
import type { SilenceJournal } from '../silence-store';
import { encodeSilenceRecord } from './silence-codec';

/**
 * The silences' log on disk: every change is one framed record appended to `silences-N.log` and
 * fsynced before `commit` resolves; concurrent commits share one fsync (see
 * {@link AppendLog.commit}). {@link SilenceJournalFile.compact} writes all silences to
 * `silences.snapshot` as generation N+1 and starts an empty log for it.
 */
export class SilenceJournalFile implements SilenceJournal {
  constructor(
    private readonly files: LogFiles,
    private readonly log: AppendLog,
    private generation: number,
    private readonly logger: Logger,
  ) {}

  /** Bytes of the current log, written or queued. */
  get logBytes(): number {
    return this.log.bytes;
  }

  commit(silences: readonly Silence[]): Promise<void> {
    return this.log.commit(encodeSilenceRecord({ put: [...silences] }));
  }

  forget(ids: readonly string[]): void {
    this.log.append(encodeSilenceRecord({ del: [...ids] }));
  }

  /**
   * Replaces snapshot and log with a snapshot of `current()`, read inside the file queue so no
   * change is lost or counted twice: changes queued before are in the snapshot, later ones in
   * the new log. Returns the snapshot's size.
   */
  async compact(current: () => Iterable<Silence>): Promise<number> {
    let bytes = 0;
    await this.log.run(async () => {
      const generation = this.generation + 1;
      bytes = await rollSnapshot(this.log, this.files, generation, current(), (chunk) =>
        encodeSilenceRecord({ put: chunk }),
      );
      this.generation = generation;
      this.logger.debug('Wrote the silences snapshot', { generation, bytes });
    });
    return bytes;
  }

  /** Makes everything recorded so far durable. */
  sync(): Promise<void> {
    return this.log.flush();
  }

  /** Syncs and closes the log. */
  close(): Promise<void> {
    return this.log.close();
  }
}
