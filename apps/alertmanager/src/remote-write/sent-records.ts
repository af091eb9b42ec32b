import type { LogPosition } from '../tsdb/metric-storage';

/**
 * Where in the log the samples waiting for a remote come from: for each record read, how many
 * samples had been queued once its samples were, and the position after it. As the oldest samples
 * leave the queue, the position after the last record whose samples have all left is the remote's
 * position: what a restart resumes from.
 */
export class SentRecords {
  private readonly ends: { queuedUpTo: number; position: LogPosition }[] = [];
  private head = 0;
  private queued = 0;
  private left = 0;
  private current: LogPosition;

  constructor(start: LogPosition) {
    this.current = start;
  }

  /** The position after the last record whose samples have all left the queue. */
  get position(): LogPosition {
    return this.current;
  }

  /** `count` samples were queued. */
  queuedSamples(count: number): void {
    this.queued += count;
  }

  /** The record read last ends at `position`: its samples are the ones queued so far. */
  recordEnds(position: LogPosition): void {
    this.ends.push({ queuedUpTo: this.queued, position });
    this.settle();
  }

  /** The `count` oldest samples left the queue (sent, or given up on). */
  leftQueue(count: number): void {
    this.left += count;
    this.settle();
  }

  private settle(): void {
    while (this.head < this.ends.length && this.ends[this.head].queuedUpTo <= this.left) {
      this.current = this.ends[this.head++].position;
    }
    if (this.head > 1024 && this.head * 2 > this.ends.length) {
      this.ends.splice(0, this.head);
      this.head = 0;
    }
  }
}
