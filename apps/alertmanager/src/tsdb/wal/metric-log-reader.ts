import { open, type FileHandle } from 'node:fs/promises';
import type { Logger } from '../../logging/logger';
import { crc32, FRAME_HEADER_BYTES, type LogFiles } from '../../storage';
import type { Labels } from '../labels';
import { SampleChain } from './sample-chain';
import { decodeRecord } from './wal-records';

/** A record boundary in the metric store's log: a segment and a byte offset in it. */
export interface LogPosition {
  readonly segment: number;
  readonly offset: number;
}

/** Where a record read ends: the samples of the read up to it, and the position after it. */
export interface RecordEnd {
  readonly samples: number;
  readonly position: LogPosition;
}

/** The samples of whole records read from the log, oldest first, and where each record ends. */
export interface LogRead {
  readonly labels: Labels[];
  readonly t: number[];
  readonly v: number[];
  readonly stale: boolean[];
  readonly records: RecordEnd[];
  /** Samples of series whose labels are known no more (dropped since): left out. */
  unknownSeries: number;
}

/** What a reader follows: the log's files, how far they are written, and the series' labels. */
export interface LogReaderSource {
  readonly files: LogFiles;
  /** The end of what is written: the segment appends go to and its bytes written so far. */
  end(): LogPosition;
  /** The labels of a series of the store, if it still has it. */
  labelsOf(id: number): Labels | undefined;
  readonly logger: Logger;
}

/** Bytes read from a segment at a time (a record longer than that is read whole). */
const READ_BYTES = 1 << 20;
/** Longer than any record the store writes: a length over it is a corrupt header. */
const MAX_RECORD_BYTES = 1 << 29;

/**
 * Reads the metric store's log from a position on, as Prometheus's write-ahead-log watcher does
 * for remote write: whole records, segment after segment, up to what the log has written. Sample
 * records are XORed along the values before them in their segment, so a reader that starts inside
 * a segment decodes it from its beginning and hands out only the records from its position on.
 * A segment removed before it was read (the retention) and a record that fails its checksum are
 * reported and skipped: the reader goes on with the next segment.
 */
export class MetricLogReader {
  private segment: number;
  private offset = 0;
  /** Records ending at or before this offset of the first segment were read before. */
  private skipBelow: number;
  private readonly chain = new SampleChain();
  /** Labels of the series records of this segment: series the store may have dropped since. */
  private readonly seen = new Map<number, Labels>();
  private handle: FileHandle | undefined;
  /** Set when the rest of the current segment cannot be trusted. */
  private broken = false;
  /** Set when the current segment's file is gone. */
  private missing = false;
  /** Records read from the log, by type, and those that did not decode. */
  readonly counts = { series: 0, samples: 0, failures: 0 };

  constructor(
    private readonly source: LogReaderSource,
    from: LogPosition,
  ) {
    const end = source.end();
    const ahead =
      from.segment > end.segment || (from.segment === end.segment && from.offset > end.offset);
    if (ahead) {
      source.logger.warn(
        'The position to read the metric log from is past its end; reading from the end',
        {
          segment: from.segment,
          offset: from.offset,
        },
      );
    }
    const start = ahead ? end : from;
    this.segment = start.segment;
    this.skipBelow = start.offset;
  }

  /** The segment being read. */
  get currentSegment(): number {
    return this.segment;
  }

  /** The position after the last record handed out (or skipped). */
  get position(): LogPosition {
    return { segment: this.segment, offset: Math.max(this.offset, this.skipBelow) };
  }

  /**
   * Reads whole records until they hold `maxSamples` samples or the log's written end is reached.
   * Rejects on a failure to read a file other than its absence (the read can be tried again).
   */
  async read(maxSamples: number): Promise<LogRead> {
    const out: LogRead = { labels: [], t: [], v: [], stale: [], records: [], unknownSeries: 0 };
    while (out.t.length < maxSamples) {
      const end = this.source.end();
      const final = this.segment < end.segment;
      const limit = final ? Infinity : end.offset;
      if (this.broken || this.offset >= limit) {
        if (!final) break;
        await this.nextSegment();
        continue;
      }
      const block = await this.readBlock(limit);
      if (block === undefined) {
        if (!final) break;
        await this.nextSegment();
        continue;
      }
      this.readRecords(block, maxSamples, out);
    }
    return out;
  }

  /** Closes the file being read. */
  async close(): Promise<void> {
    const handle = this.handle;
    this.handle = undefined;
    await handle?.close().catch(() => undefined);
  }

  /** Reads the bytes from the offset on, at least one whole record; undefined at the end or when the segment is gone. */
  private async readBlock(limit: number): Promise<Buffer | undefined> {
    const handle = await this.openSegment();
    if (handle === undefined) return undefined;
    const header = Buffer.alloc(FRAME_HEADER_BYTES);
    const { bytesRead } = await handle.read(header, 0, FRAME_HEADER_BYTES, this.offset);
    if (bytesRead < FRAME_HEADER_BYTES) {
      // The end of a finished segment, or a write still under way in the current one.
      if (bytesRead > 0 && !Number.isFinite(limit)) this.fail('record header cut short');
      return undefined;
    }
    if (header.readUInt32LE(0) > MAX_RECORD_BYTES) {
      this.fail('record length out of range');
      return undefined;
    }
    const wanted = Math.min(
      Math.max(READ_BYTES, FRAME_HEADER_BYTES + header.readUInt32LE(0)),
      limit - this.offset,
    );
    const block = Buffer.allocUnsafe(wanted);
    const read = await handle.read(block, 0, wanted, this.offset);
    return block.subarray(0, read.bytesRead);
  }

  /** Decodes the whole records of `block` (read at the offset) into `out`, up to `maxSamples`. */
  private readRecords(block: Buffer, maxSamples: number, out: LogRead): void {
    let at = 0;
    while (at + FRAME_HEADER_BYTES <= block.length && out.t.length < maxSamples) {
      const length = block.readUInt32LE(at);
      const recordEnd = at + FRAME_HEADER_BYTES + length;
      if (recordEnd > block.length) {
        // Cut short: the rest is read with the next block, unless the segment ends here.
        if (at === 0) this.fail('record cut short');
        return;
      }
      const payload = block.subarray(at + FRAME_HEADER_BYTES, recordEnd);
      if (crc32(payload) !== block.readUInt32LE(at + 4)) return this.fail('checksum mismatch');
      const next = this.offset + FRAME_HEADER_BYTES + length;
      try {
        this.apply(payload, next <= this.skipBelow ? undefined : out);
      } catch (error) {
        return this.fail(`undecodable record: ${(error as Error).message}`);
      }
      at = recordEnd;
      this.offset = next;
      if (this.offset > this.skipBelow) {
        out.records.push({ samples: out.t.length, position: this.position });
      }
    }
  }

  /** Applies one record to the chain and the labels; its samples go to `out` unless read before. */
  private apply(payload: Buffer, out: LogRead | undefined): void {
    const record = decodeRecord(payload, this.chain);
    if (record.kind === 'series') {
      this.counts.series++;
      for (const r of record.records) this.seen.set(r.id, r.labels);
      return;
    }
    if (record.kind !== 'samples') throw new Error('a snapshot record in the log');
    this.counts.samples++;
    if (out === undefined) return;
    const { ids, t, v, stale } = record.batch;
    for (let i = 0; i < ids.length; i++) {
      const labels = this.source.labelsOf(ids[i]) ?? this.seen.get(ids[i]);
      if (labels === undefined) {
        out.unknownSeries++;
        continue;
      }
      out.labels.push(labels);
      out.t.push(t[i]);
      out.v.push(v[i]);
      out.stale.push(stale[i]);
    }
  }

  /** Gives up the rest of the current segment, which cannot be read past `problem`. */
  private fail(problem: string): void {
    this.counts.failures++;
    this.broken = true;
    this.source.logger.warn('Skipping the rest of a metric log segment that cannot be read', {
      segment: this.segment,
      offset: this.offset,
      reason: problem,
    });
  }

  private async openSegment(): Promise<FileHandle | undefined> {
    if (this.handle !== undefined) return this.handle;
    try {
      this.handle = await open(this.source.files.log(this.segment), 'r');
      return this.handle;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      this.missing = true;
      return undefined;
    }
  }

  /** Moves to the oldest segment after the current one; segments that are gone are reported. */
  private async nextSegment(): Promise<void> {
    await this.close();
    const gone = this.missing ? this.segment : this.segment + 1;
    const next =
      (await this.source.files.segments(this.segment + 1))[0] ?? this.source.end().segment;
    if (next > gone) {
      this.source.logger.warn('Metric log segments were removed before they were read', {
        from: gone,
        to: next - 1,
      });
    }
    this.segment = next;
    this.offset = 0;
    this.skipBelow = 0;
    this.broken = false;
    this.missing = false;
    this.chain.reset();
    this.seen.clear();
  }
}
