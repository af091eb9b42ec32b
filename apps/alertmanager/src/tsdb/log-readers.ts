import type { LogFiles } from '../storage';

/**
 * Who reads the metric store's log besides its replay (the remotes of `remote_write`): they are
 * told when more of it is written, and the segments they have still to read are kept through
 * checkpoints, for as long as the retention keeps samples.
 */
export class LogReaders {
  private readonly written = new Set<() => void>();
  private readonly holds = new Set<() => number | undefined>();

  /** Calls `listener` whenever the log has written more; the returned function stops it. */
  onWritten(listener: () => void): () => void {
    this.written.add(listener);
    return () => void this.written.delete(listener);
  }

  /** Keeps the segments from the one `oldest` names on (undefined: none); the returned function lets go. */
  hold(oldest: () => number | undefined): () => void {
    this.holds.add(oldest);
    return () => void this.holds.delete(oldest);
  }

  get listening(): boolean {
    return this.written.size > 0;
  }

  notifyWritten(): void {
    for (const listener of this.written) listener();
  }

  /**
   * The oldest segment before `generation` to keep: the oldest one held whose last write is not
   * older than `cutoffMs` (a segment beyond the retention goes even when a reader still needs it);
   * `generation` when none is.
   */
  async keptFrom(files: LogFiles, generation: number, cutoffMs: number): Promise<number> {
    let held = Infinity;
    for (const oldest of this.holds) held = Math.min(held, oldest() ?? Infinity);
    if (held >= generation) return generation;
    for (const segment of await files.segmentsBefore(generation)) {
      if (segment.generation >= held && segment.modifiedMs >= cutoffMs) return segment.generation;
    }
    return generation;
  }
}
