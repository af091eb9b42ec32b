import type { XorChunkState } from './chunks/xor-chunk';
import { importSeriesChunks } from './import-series-chunks';
import { slot } from './memory/series-states';
import type { Labels } from './labels';
import type { SampleRun, SampleScratch } from './queryable';
import { diskRef, isDiskRef, refSeq } from './memory/chunk-bytes';
import { readSeriesSamples } from './memory/chunk-reader';
import { hasSamples } from './memory/sample-presence';
import { RECENT_SAMPLES } from './memory/recent-rings';
import type { StoreMemory } from './memory/store-memory';

/** Why a sample was refused, in upstream's words. */
export class SampleRejectedError extends Error {}

/** A closed chunk: its encoded bytes and what is needed to skip it without decoding. */
export interface ClosedChunk {
  readonly bytes: Uint8Array;
  readonly count: number;
  readonly minT: number;
  readonly maxT: number;
}

/**
 * One series' samples, compressed in Gorilla-style XOR chunks of up to 240 samples (about 1.3
 * bytes a sample for regular scrapes) in the store's shared memory, where query threads read
 * them too: no object per sample or per chunk. Staleness markers are kept apart from NaN values.
 */
export class MemorySeries {
  constructor(
    readonly id: number,
    readonly labels: Labels,
    private readonly memory: StoreMemory,
  ) {
    memory.states.reset(id);
  }

  // The series' state lives in the store's `SeriesStates`, by id (see there why).

  /** Its open chunk in the store's `OpenChunks`, -1 for none. */
  private get head(): number {
    return this.memory.states.at(this.id).head[slot(this.id)];
  }
  private set head(chunk: number) {
    this.memory.states.at(this.id).head[slot(this.id)] = chunk;
  }
  private get lastT(): number {
    return this.memory.states.at(this.id).lastT[slot(this.id)];
  }
  private set lastT(t: number) {
    this.memory.states.at(this.id).lastT[slot(this.id)] = t;
  }
  private get lastV(): number {
    return this.memory.states.at(this.id).lastV[slot(this.id)];
  }
  private set lastV(v: number) {
    this.memory.states.at(this.id).lastV[slot(this.id)] = v;
  }
  private get lastStale(): boolean {
    return this.memory.states.at(this.id).lastStale[slot(this.id)] === 1;
  }
  private set lastStale(stale: boolean) {
    this.memory.states.at(this.id).lastStale[slot(this.id)] = stale ? 1 : 0;
  }
  /** Samples in the chunks of the chain (cold ones are not counted). */
  private get count(): number {
    return this.memory.states.at(this.id).count[slot(this.id)];
  }
  private set count(n: number) {
    this.memory.states.at(this.id).count[slot(this.id)] = n;
  }
  /** The series' oldest chunk in the chain, -1 for none: truncation that drops nothing looks at it alone. */
  private get oldest(): number {
    return this.memory.states.at(this.id).oldest[slot(this.id)];
  }
  private set oldest(chunk: number) {
    this.memory.states.at(this.id).oldest[slot(this.id)] = chunk;
  }
  /**
   * The newest time of the series' cold chunks (cut from the chain, found through the chunk
   * database), or a time no earlier; -Infinity when it has none.
   */
  private get coldMaxT(): number {
    return this.memory.states.at(this.id).coldMaxT[slot(this.id)];
  }
  private set coldMaxT(t: number) {
    this.memory.states.at(this.id).coldMaxT[slot(this.id)] = t;
  }
  /**
   * The ring of its newest samples in shared memory (what rules' windows read, on any thread),
   * -1 until a rule has read the series' newest samples (`fillRecent`): memory for rings follows
   * the series rules read, not every series stored.
   */
  private get ring(): number {
    return this.memory.states.at(this.id).ring[slot(this.id)];
  }
  private set ring(ring: number) {
    this.memory.states.at(this.id).ring[slot(this.id)] = ring;
  }

  /** Samples in the chunks kept in memory and linked on disk (not the cold ones). */
  get length(): number {
    return this.count;
  }

  get lastTimestamp(): number {
    return this.lastT;
  }

  /** The first time of the chunks in memory (the chain); Infinity when it has none. */
  get memoryMinTime(): number {
    return this.oldest < 0 ? Infinity : this.memory.table.minT(this.oldest);
  }

  /** The last time of the chunks in memory; -Infinity when it has none. */
  get memoryMaxTime(): number {
    return this.count > 0 ? this.lastT : -Infinity;
  }

  /** Appends a sample at or after the last one; a repeat of the last sample is ignored. */
  append(t: number, v: number, isStale = false): void {
    if (t <= this.lastT) {
      if (t < this.lastT) throw new SampleRejectedError('out of order sample');
      const same =
        this.lastStale === isStale &&
        (isStale || Object.is(this.lastV, v) || (Number.isNaN(v) && Number.isNaN(this.lastV)));
      if (same) return;
      throw new SampleRejectedError('duplicate sample for timestamp');
    }
    const { open } = this.memory;
    if (this.head >= 0 && open.isFull(this.head)) this.cut();
    if (this.head < 0) {
      this.head = open.open(this.id, t, this.memory.table.latest(this.id));
      if (this.oldest < 0) this.oldest = open.chunk(this.head);
    }
    open.append(this.head, t, v, isStale);
    if (this.ring >= 0) this.memory.rings.take(this.ring, t, v, isStale);
    this.lastT = t;
    this.lastV = v;
    this.lastStale = isStale;
    this.count++;
  }

  /**
   * Samples with `mint <= t <= maxt`: from the recent ring when it reaches back to `mint`, else
   * decoded from the chunks that hold them, into one buffer.
   */
  samples(mint: number, maxt: number, scratch?: SampleScratch): SampleRun {
    const { table, bytes, cold, rings } = this.memory;
    const recent = this.ring < 0 ? undefined : rings.read(this.ring, mint, maxt, scratch);
    if (recent !== undefined) return recent;
    const run = readSeriesSamples(table, bytes, this.id, mint, maxt, scratch, cold);
    // A read that reached the newest sample refills the ring, unless it already holds as many.
    const n = run.t.length;
    const ring = this.ring;
    if (ring >= 0 && n > 0 && run.t[n - 1] === this.lastT) {
      if (n <= RECENT_SAMPLES || rings.held(ring) < RECENT_SAMPLES) rings.refill(ring, run, mint);
    }
    return run;
  }

  hasSamples(mint: number, maxt: number): boolean {
    const read = () => this.samples(mint, maxt).t.length > 0;
    return hasSamples(this.memory.table, this.id, mint, maxt, read);
  }

  /**
   * Opens the series' ring when it has none (a query thread read its newest samples from the
   * chunks), and fills it from the chunks when it holds fewer samples than it could: reads the
   * newest chunks that hold {@link RECENT_SAMPLES} samples.
   */
  fillRecent(scratch?: SampleScratch): void {
    if (this.count === 0) return;
    const { table, bytes, rings } = this.memory;
    if (this.ring >= 0 && rings.held(this.ring) >= Math.min(RECENT_SAMPLES, this.count)) return;
    let mint = Infinity;
    let read = 0;
    let chunk = table.latest(this.id);
    for (; chunk >= 0 && read < RECENT_SAMPLES; chunk = table.previous(chunk)) {
      read += table.count(chunk);
      mint = table.minT(chunk);
    }
    const run = readSeriesSamples(table, bytes, this.id, mint, Infinity, scratch);
    const whole = chunk < 0 && this.coldMaxT === -Infinity;
    rings.refill(this.openRing(), run, whole ? -Infinity : mint);
  }

  /** Lets the ring go (the series was dropped from the store). */
  release(): void {
    if (this.ring >= 0) this.memory.dropRing(this.id, this.ring);
    this.ring = -1;
  }

  /** The ring, opened when the series has none: holding everything only for a new series. */
  private openRing(): number {
    if (this.ring < 0) {
      const empty = this.count === 0 && this.coldMaxT === -Infinity;
      this.ring = this.memory.openRing(this.id, empty ? -Infinity : Infinity);
    }
    return this.ring;
  }

  /** Drops whole chunks that end before `mint`; whether the series still has samples. */
  truncateBefore(mint: number): boolean {
    if (this.coldMaxT < mint) this.coldMaxT = -Infinity;
    this.dropChainBefore(mint);
    return this.count > 0 || this.coldMaxT !== -Infinity;
  }

  /**
   * Cuts from the chain the oldest chunks that end before `before`, are on disk, and are
   * `coldable` (found by series in their batch): from then on reads find them through the chunk
   * database, and their descriptors leave memory. Returns how many were cut. The table's cold
   * boundary must already be at `before` or later.
   */
  ageOut(before: number, coldable: (seq: number) => boolean): number {
    const { table } = this.memory;
    if (this.oldest < 0 || !(table.maxT(this.oldest) < before)) return 0;
    const chain: number[] = [];
    for (let chunk = table.latest(this.id); chunk >= 0; chunk = table.previous(chunk)) {
      chain.push(chunk);
    }
    let keep = chain.length;
    while (keep > 0) {
      const chunk = chain[keep - 1];
      const ref = table.ref(chunk);
      if (!(table.maxT(chunk) < before) || !isDiskRef(ref) || !coldable(refSeq(ref))) break;
      keep--;
    }
    if (keep === chain.length) return 0;
    if (keep > 0) table.unlinkPrevious(chain[keep - 1]);
    else table.setLatest(this.id, -1);
    this.oldest = keep > 0 ? chain[keep - 1] : -1;
    this.coldMaxT = Math.max(this.coldMaxT, table.maxT(chain[keep]));
    for (let i = keep; i < chain.length; i++) {
      this.count -= table.count(chain[i]);
      this.memory.dropSealed(chain[i]);
    }
    return chain.length - keep;
  }

  /** Chunks of the series may be cold up to `maxT` (start-up, when old batches are not read). */
  mayBeColdUntil(maxT: number): void {
    this.coldMaxT = Math.max(this.coldMaxT, maxT);
    if (this.ring >= 0) this.memory.rings.uncover(this.ring);
  }

  private dropChainBefore(mint: number): void {
    const { table } = this.memory;
    if (this.oldest < 0 || !(table.maxT(this.oldest) < mint)) return;
    let newer = -1;
    let chunk = table.latest(this.id);
    while (chunk >= 0 && !(table.maxT(chunk) < mint)) {
      newer = chunk;
      chunk = table.previous(chunk);
    }
    if (chunk < 0) return;
    if (newer >= 0) table.unlinkPrevious(newer);
    else table.setLatest(this.id, -1);
    this.oldest = newer;
    while (chunk >= 0) {
      const previous = table.previous(chunk);
      this.count -= table.count(chunk);
      if (chunk === this.headChunk) {
        this.memory.open.drop(this.head);
        this.head = -1;
      } else this.memory.dropSealed(chunk);
      chunk = previous;
    }
    // The ring keeps only the newest samples that are still stored.
    if (this.ring >= 0) this.memory.rings.keepNewest(this.ring, this.count);
  }

  /** Bytes the encoded samples of the chain take. */
  get sampleBytes(): number {
    const { table } = this.memory;
    const head = this.headChunk;
    let total = head < 0 ? 0 : this.memory.open.byteLength(this.head);
    for (let chunk = table.latest(this.id); chunk >= 0; chunk = table.previous(chunk)) {
      if (chunk !== head) total += table.byteLength(chunk);
    }
    return total;
  }

  get chunkCount(): number {
    let n = 0;
    const { table } = this.memory;
    for (let chunk = table.latest(this.id); chunk >= 0; chunk = table.previous(chunk)) n++;
    return n;
  }

  /**
   * The chunks still in memory (the open one and closed ones not yet on disk, which are always
   * the newest), oldest first: what a checkpoint writes of the series. Copied, unless `views`:
   * then their bytes are views of the store's memory, valid only until the next append or
   * flush, for a caller that encodes them at once.
   */
  memoryChunks(views = false): ClosedChunk[] {
    return this.exportChunks(true, views);
  }

  /** The open chunk's encoder state (the newest chunk's, when it is open), for a checkpoint. */
  openChunkState(): XorChunkState | undefined {
    return this.head < 0 ? undefined : this.memory.open.state(this.head);
  }

  /** Every chunk's bytes, the open one's included, oldest first (copies, unless `views`). */
  exportChunks(memoryOnly = false, views = false): ClosedChunk[] {
    const { table, bytes: source } = this.memory;
    const head = this.headChunk;
    const out: ClosedChunk[] = [];
    for (let chunk = table.latest(this.id); chunk >= 0; chunk = table.previous(chunk)) {
      const ref = table.ref(chunk);
      if (memoryOnly && isDiskRef(ref)) break;
      const view =
        chunk === head
          ? this.memory.open.view(this.head)
          : source.from(ref).subarray(0, table.byteLength(chunk));
      const bytes = views ? view : view.slice();
      out.push({
        bytes,
        count: table.count(chunk),
        minT: table.minT(chunk),
        maxT: table.maxT(chunk),
      });
    }
    return out.reverse();
  }

  /**
   * Takes chunks read back from a snapshot; the newest becomes the open chunk again. With `open`
   * (the encoder's state after it, as the checkpoint saved it) nothing is decoded. The ring of
   * recent samples waits for a read (`fillRecent`).
   */
  importChunks(chunks: readonly ClosedChunk[], open?: XorChunkState): void {
    importSeriesChunks(this.memory, this.id, chunks, open);
  }

  /** Links a closed chunk that is on disk as the series' newest (start-up, oldest first). */
  linkDiskChunk(seq: number, count: number, minT: number, maxT: number, bytes: number): void {
    const { table } = this.memory;
    const chunk = table.add(diskRef(seq), minT, table.latest(this.id));
    if (this.oldest < 0) this.oldest = chunk;
    table.move(chunk, diskRef(seq), bytes);
    table.publish(chunk, count, maxT);
    table.setLatest(this.id, chunk);
    this.count += count;
    this.lastT = maxT;
  }

  /** Closes the full open chunk; the next sample opens a new one. */
  private cut(): void {
    if (this.head >= 0) this.memory.open.seal(this.head);
    this.head = -1;
  }

  /** The open chunk's descriptor in the table, -1 for none. */
  private get headChunk(): number {
    return this.head < 0 ? -1 : this.memory.open.chunk(this.head);
  }
}
