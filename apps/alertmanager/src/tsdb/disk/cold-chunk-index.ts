import type { ColdChunkSource, ColdChunks } from '../memory/chunk-reader';
import { StoredBatch } from './batch-codec';
import type { ChunkDatabase } from './chunk-database';

/**
 * Finds cold chunks (those cut from their series' chains in memory, see `MemorySeries.ageOut`)
 * through the chunk database's batches, on any thread. The first read that reaches before the
 * cold boundary scans the batches whose time range meets it once, for every series, and keeps
 * what it found by series until the thread's snapshot of the database changes; the reads of the
 * other series of the query (and of the next queries on the same snapshot) look them up.
 */
export class ColdChunkIndex implements ColdChunkSource {
  /** The snapshot, cold boundary and earliest time the index was built for; NaN: none built. */
  private snapshot = NaN;
  private coldBefore = NaN;
  private from = Infinity;
  /** By series id: where its chunks start in the arrays below (the next id's start ends them). */
  private starts = new Int32Array(0);
  private seqs = new Int32Array(0);
  private counts = new Int32Array(0);
  private minTs = new Float64Array(0);
  private maxTs = new Float64Array(0);

  constructor(private readonly db: ChunkDatabase) {}

  find(seriesId: number, mint: number, maxt: number, coldBefore: number, out: ColdChunks): void {
    const stale = this.snapshot !== this.db.snapshot || this.coldBefore !== coldBefore;
    if (stale || mint < this.from) this.build(mint, coldBefore);
    if (seriesId + 1 >= this.starts.length) return;
    for (let i = this.starts[seriesId]; i < this.starts[seriesId + 1]; i++) {
      if (this.maxTs[i] < mint || this.minTs[i] > maxt) continue;
      out.seqs.push(this.seqs[i]);
      out.counts.push(this.counts[i]);
    }
  }

  bytes(seq: number): Uint8Array {
    const bytes = this.db.coldChunk(seq);
    if (bytes === undefined) throw new Error(`cold chunk ${seq} is missing from the disk`);
    return bytes;
  }

  /** Forgets what was found (it is built again when needed). */
  clear(): void {
    this.snapshot = NaN;
    this.coldBefore = NaN;
    this.from = Infinity;
    this.starts = new Int32Array(0);
    this.seqs = new Int32Array(0);
    this.counts = new Int32Array(0);
    this.minTs = new Float64Array(0);
    this.maxTs = new Float64Array(0);
  }

  /**
   * Every chunk that may be cold (it ends before `coldBefore`) and ends at or after `mint`, kept
   * ones only, by series.
   */
  private build(mint: number, coldBefore: number): void {
    const { cutoff } = this.db.state();
    const batches = this.db
      .summaries()
      .filter((b) => b.maxT >= mint && b.maxT >= cutoff && b.minT < coldBefore);
    let room = 0;
    for (const batch of batches) room += batch.length;
    const ids = new Int32Array(room);
    const seqs = new Int32Array(room);
    const counts = new Int32Array(room);
    const minTs = new Float64Array(room);
    const maxTs = new Float64Array(room);
    let n = 0;
    let maxId = -1;
    for (const batch of batches) {
      const entries = this.db.batchEntries(batch.first);
      if (entries === undefined) continue;
      // Read in place, before the next read on this thread reuses the bytes.
      const stored = new StoredBatch(batch.first, entries);
      const length = Math.min(batch.length, stored.length);
      for (let i = 0; i < length; i++) {
        const maxT = stored.maxT(i);
        if (maxT < mint || maxT < cutoff || maxT >= coldBefore) continue;
        const id = stored.seriesId(i);
        ids[n] = id;
        seqs[n] = stored.seq(i);
        counts[n] = stored.count(i);
        minTs[n] = stored.minT(i);
        maxTs[n] = maxT;
        if (id > maxId) maxId = id;
        n++;
      }
    }
    // A stable counting sort by series: each series' chunks stay in batch order (time order).
    const starts = new Int32Array(maxId + 2);
    for (let i = 0; i < n; i++) starts[ids[i] + 1]++;
    for (let id = 1; id < starts.length; id++) starts[id] += starts[id - 1];
    const next = starts.slice();
    this.seqs = new Int32Array(n);
    this.counts = new Int32Array(n);
    this.minTs = new Float64Array(n);
    this.maxTs = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const to = next[ids[i]]++;
      this.seqs[to] = seqs[i];
      this.counts[to] = counts[i];
      this.minTs[to] = minTs[i];
      this.maxTs[to] = maxTs[i];
    }
    this.starts = starts;
    this.snapshot = this.db.snapshot;
    this.coldBefore = coldBefore;
    this.from = mint;
  }
}
