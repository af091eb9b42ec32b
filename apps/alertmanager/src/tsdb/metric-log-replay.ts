import type { LogReplay } from '../storage';
import type { MemoryStore } from './memory-store';
import type { SampleChain } from './wal/sample-chain';
import { decodeRecord, inflateRecord } from './wal/wal-records';
import type { IdSet } from './id-set';

/**
 * How the metric store reads its checkpoint and log segments back into `store`. Replaying is
 * idempotent: a checkpoint taken after the log rolled holds samples that the newest segment holds
 * too, and a sample not newer than its series' newest is skipped, so each is applied once.
 * Each segment's sample records are XORed along `chain` from its first record on.
 */
export class MetricLogReplay implements LogReplay {
  readonly what = 'metric store';
  /** Samples read from the log (applied or already there). */
  replayed = 0;
  /** Series of the checkpoint whose labels were neither in it nor in the chunk database. */
  unlabelled = 0;

  constructor(
    private readonly store: MemoryStore,
    private readonly chain: SampleChain,
    /** Series written to the log or the checkpoint already. */
    private readonly logged: IdSet,
  ) {}

  prepareSnapshot(payload: Buffer): Promise<Buffer> {
    return inflateRecord(payload);
  }

  applySnapshot(payload: Buffer): number {
    const { store, logged } = this;
    // Series the chunk database named need not have their labels decoded again.
    const record = decodeRecord(payload, undefined, (id) => store.byId(id) !== undefined);
    if (record.kind === 'snapshot') {
      // A checkpoint of every chunk, as earlier versions wrote: its closed chunks go to disk.
      for (const s of record.series) {
        store.create(s.labels, s.id).importChunks(s.chunks);
        logged.add(s.id);
      }
      return record.series.length;
    }
    if (record.kind !== 'heads') throw new Error('not a snapshot record');
    for (const s of record.series) {
      const series = store.byId(s.id) ?? (s.labels && store.create(s.labels, s.id));
      if (series === undefined) {
        this.unlabelled++;
        continue;
      }
      // Chunks that reached the disk after the checkpoint are read from there.
      const newer = s.chunks.filter((c) => c.minT > series.lastTimestamp);
      const last = s.chunks.at(-1);
      series.importChunks(newer, newer.at(-1) === last ? s.open : undefined);
      logged.add(s.id);
    }
    return record.series.length;
  }

  /** Each segment's values are XORed from its own first record on. */
  beginSegment(): void {
    this.chain.reset();
  }

  applyLog(payload: Buffer): void {
    const { store, logged } = this;
    const record = decodeRecord(payload, this.chain);
    if (record.kind === 'series') {
      for (const r of record.records) {
        if (store.byId(r.id) === undefined) store.create(r.labels, r.id);
        logged.add(r.id);
      }
    } else if (record.kind === 'samples') {
      const { ids, t, v, stale } = record.batch;
      for (let i = 0; i < ids.length; i++) {
        const series = store.byId(ids[i]);
        // Already there (from the checkpoint, or a chunk on disk): skipped without the refusal's
        // error, which cost a third of a replay's time.
        if (series === undefined || t[i] <= series.lastTimestamp) continue;
        series.append(t[i], v[i], stale[i]);
      }
      this.replayed += ids.length;
    } else throw new Error('snapshot record in the log');
  }
}
