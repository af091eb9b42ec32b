import { promisify } from 'node:util';
import { deflateRaw, inflateRaw, inflateRawSync } from 'node:zlib';
import { Labels } from '../labels';
import type { SampleChain } from './sample-chain';
import { encodeRecord, RecordReader, RecordWriter } from './record-codec';
import { readXorSamples, XOR_SAMPLES } from './xor-sample-records';

export { encodeXorSamples } from './xor-sample-records';
import type { ClosedChunk } from '../memory-series';
import type { XorChunkState } from '../chunks/xor-chunk';

const deflateRawAsync = promisify(deflateRaw);
const inflateRawAsync = promisify(inflateRaw);
/**
 * zlib's output piece for checkpoint records. Each piece is a round trip between libuv's pool and
 * the event loop, and a buffer: with zlib's default of 16 KiB, twenty inflates of 4 MiB took
 * 243 to 346 ms, and 57 ms with 256 KiB pieces.
 */
const ZLIB_CHUNK = 256 * 1024;

/** A series first seen since the last snapshot: its id and labels. */
export interface SeriesRecord {
  readonly id: number;
  readonly labels: Labels;
}

/** Samples appended together (one scrape, one rule evaluation). */
export interface SampleBatch {
  readonly ids: number[];
  readonly t: number[];
  readonly v: number[];
  readonly stale: boolean[];
}

const SERIES = 1;
const SAMPLES = 2;
const SNAPSHOT_SERIES = 3;
/** Checkpoint series as versions before `HEAD_STATES` wrote them (still read). */
const HEAD_SERIES = 4;
// 5: XOR_SAMPLES, in xor-sample-records.ts.
/** Another record, deflated (checkpoint records: labels compress well). */
const DEFLATED = 6;
/** A checkpoint record is written deflated when that leaves at most this much of it. */
const DEFLATED_AT_MOST = 2 / 3;
/** Checkpoint series with the encoder's state of each open chunk. */
const HEAD_STATES = 7;

/** The staleness marker's bits, kept as such in the log. */
const STALE_HI = 0x7ff00000;
const STALE_LO = 0x00000002;

export function encodeSeries(records: readonly SeriesRecord[]): Buffer {
  return encodeRecord((w) => {
    w.byte(SERIES);
    w.uvarint(records.length);
    for (const r of records) {
      w.uvarint(r.id);
      w.labels(r.labels);
    }
  });
}

const scratch = new DataView(new ArrayBuffer(8));

export function encodeSamples(batch: SampleBatch): Buffer {
  return encodeRecord((w) => {
    w.byte(SAMPLES);
    w.uvarint(batch.ids.length);
    for (let i = 0; i < batch.ids.length; i++) {
      w.uvarint(batch.ids[i]);
      w.double(batch.t[i]);
      if (batch.stale[i]) w.words(STALE_HI, STALE_LO);
      else {
        scratch.setFloat64(0, batch.v[i]);
        w.words(scratch.getUint32(0), scratch.getUint32(4));
      }
    }
  });
}

/**
 * A snapshot record of every chunk of each series, as versions before the chunk database wrote
 * their checkpoints (still read, so such a store starts and moves its closed chunks to disk).
 */
export function encodeSnapshotSeries(
  series: readonly { id: number; labels: Labels; chunks: ClosedChunk[] }[],
): Buffer {
  const w = new RecordWriter();
  w.byte(SNAPSHOT_SERIES);
  w.uvarint(series.length);
  for (const s of series) {
    w.uvarint(s.id);
    w.labels(s.labels);
    writeChunks(w, s.chunks);
  }
  return w.done();
}

function writeChunks(w: RecordWriter, chunks: readonly ClosedChunk[]): void {
  w.uvarint(chunks.length);
  for (const c of chunks) {
    w.uvarint(c.count);
    w.double(c.minT);
    w.double(c.maxT);
    w.bytes(c.bytes);
  }
}

/** A series in a checkpoint: its chunks still in memory, and its labels. */
export interface HeadSeries {
  readonly id: number;
  /** Undefined when not written, or skipped on reading (the series was known). */
  readonly labels: Labels | undefined;
  readonly chunks: ClosedChunk[];
  /**
   * The encoder's state after the last chunk when that one is open, so a restart goes on
   * appending to it without decoding its samples (absent in checkpoints of earlier versions).
   */
  readonly open?: XorChunkState;
}

/**
 * A checkpoint record (see `HeadSeriesRecord.encoded`): series with the chunks they hold in
 * memory and their labels (kept in the chunk database too, but a checkpoint must restore its
 * series without it).
 */
export function encodeHeadSeries(series: readonly HeadSeries[]): Promise<Buffer> {
  const record = new HeadSeriesRecord();
  for (const s of series) record.add(s);
  return record.encoded();
}

/**
 * A checkpoint record built a series at a time: each series is encoded as it is added, so its
 * chunks may be views of memory that changes afterwards.
 */
export class HeadSeriesRecord {
  private readonly w = new RecordWriter(64 * 1024);
  private count = 0;

  /** Series added so far. */
  get size(): number {
    return this.count;
  }

  add(s: HeadSeries): void {
    const { w } = this;
    w.uvarint(s.id);
    w.byte(s.labels === undefined ? 0 : 1);
    if (s.labels !== undefined) w.labels(s.labels);
    writeChunks(w, s.chunks);
    w.byte(s.open === undefined ? 0 : 1);
    if (s.open !== undefined) writeState(w, s.open);
    this.count++;
  }

  /**
   * The record, deflated on libuv's thread pool when that takes a third off at least, else as it
   * is. A record of labels deflates to a fraction; one of chunks (encoded already) by about a
   * fifth, which a restart would pay for by inflating it (at 10,000 series x 24 h, 7.5 MB of
   * records deflated to 6.0, and inflating them took 43 ms).
   */
  async encoded(): Promise<Buffer> {
    const head = new RecordWriter(16);
    head.byte(HEAD_STATES);
    head.uvarint(this.count);
    const inner = Buffer.concat([head.done(), this.w.done()]);
    const deflated = await deflateRawAsync(inner, { level: 1, chunkSize: ZLIB_CHUNK });
    if (deflated.length > inner.length * DEFLATED_AT_MOST) return inner;
    return Buffer.concat([Buffer.from([DEFLATED]), deflated]);
  }
}

/** The open chunk's encoder state; its count and times are those of the chunk before it. */
function writeState(w: RecordWriter, state: XorChunkState): void {
  w.uvarint(state.bitLength);
  w.uvarint(state.tDelta);
  w.words(state.hi, state.lo);
  w.byte(state.leading);
  w.byte(state.trailing);
}

/** The state `writeState` wrote after `chunk`, checked against it. */
function readState(r: RecordReader, chunk: ClosedChunk | undefined): XorChunkState {
  const bitLength = r.uvarint();
  const tDelta = r.uvarint();
  const [hi, lo] = r.words();
  const leading = r.byte();
  const trailing = r.byte();
  if (chunk === undefined || bitLength > chunk.bytes.length * 8 || chunk.count === 0) {
    throw new Error('open chunk state without its chunk');
  }
  const { count, minT, maxT } = chunk;
  return { count, t: maxT, tDelta, hi, lo, leading, trailing, minT, maxT, bitLength };
}

/**
 * A label set's bytes, as the chunk database keeps them: copied out of the writer's 256 bytes
 * into Node's shared pool, at their size.
 */
export function encodeLabels(labels: Labels): Buffer {
  const w = new RecordWriter();
  w.labels(labels);
  return Buffer.from(w.done());
}

export function decodeLabels(bytes: Buffer): Labels {
  return new RecordReader(bytes).labels();
}

export type DecodedRecord =
  | { readonly kind: 'series'; readonly records: SeriesRecord[] }
  | { readonly kind: 'samples'; readonly batch: SampleBatch }
  | {
      readonly kind: 'snapshot';
      readonly series: { id: number; labels: Labels; chunks: ClosedChunk[] }[];
    }
  | { readonly kind: 'heads'; readonly series: HeadSeries[] };

/**
 * The chunks of a checkpoint series, their bytes views of the record (copied where the store
 * keeps them: into its sealed chunks, or a head slot): copying each out of the record first took
 * an allocation outside V8's heap per chunk, 100,000 or more at a start.
 */
function readChunks(r: RecordReader): ClosedChunk[] {
  const count = r.uvarint();
  const chunks: ClosedChunk[] = [];
  for (let c = 0; c < count; c++) {
    const samples = r.uvarint();
    const minT = r.double();
    const maxT = r.double();
    chunks.push({ count: samples, minT, maxT, bytes: r.bytes() });
  }
  return chunks;
}

/** A deflated record inflated on libuv's thread pool; any other as it is. */
export async function inflateRecord(payload: Buffer): Promise<Buffer> {
  if (payload[0] !== DEFLATED) return payload;
  return inflateRawAsync(payload.subarray(1), { chunkSize: ZLIB_CHUNK });
}

/**
 * Decodes one record; throws on a payload that is not one (the caller treats it as a bad tail).
 * `chain` follows the values of `XOR_SAMPLES` records through a log file. The labels of
 * checkpoint series that `known` answers true for are skipped, not decoded.
 */
export function decodeRecord(
  payload: Buffer,
  chain?: SampleChain,
  known?: (id: number) => boolean,
): DecodedRecord {
  if (payload[0] === DEFLATED) {
    return decodeRecord(
      inflateRawSync(payload.subarray(1), { chunkSize: ZLIB_CHUNK }),
      chain,
      known,
    );
  }
  const r = new RecordReader(payload);
  const type = r.byte();
  const n = r.uvarint();
  if (type === XOR_SAMPLES) {
    if (chain === undefined) throw new Error('samples record outside a log');
    return { kind: 'samples', batch: readXorSamples(r, n, chain) };
  }
  if (type === SERIES) {
    const records: SeriesRecord[] = [];
    for (let i = 0; i < n; i++) records.push({ id: r.uvarint(), labels: r.labels() });
    return { kind: 'series', records };
  }
  if (type === SAMPLES) {
    const batch: SampleBatch = { ids: [], t: [], v: [], stale: [] };
    for (let i = 0; i < n; i++) {
      batch.ids.push(r.uvarint());
      batch.t.push(r.double());
      const [hi, lo] = r.words();
      const stale = hi === STALE_HI && lo === STALE_LO;
      scratch.setUint32(0, hi);
      scratch.setUint32(4, lo);
      batch.v.push(stale ? NaN : scratch.getFloat64(0));
      batch.stale.push(stale);
    }
    return { kind: 'samples', batch };
  }
  if (type === SNAPSHOT_SERIES) {
    const series: { id: number; labels: Labels; chunks: ClosedChunk[] }[] = [];
    for (let i = 0; i < n; i++) {
      const id = r.uvarint();
      const labels = r.labels();
      series.push({ id, labels, chunks: readChunks(r) });
    }
    return { kind: 'snapshot', series };
  }
  if (type === HEAD_SERIES || type === HEAD_STATES) {
    const series: HeadSeries[] = [];
    for (let i = 0; i < n; i++) {
      const id = r.uvarint();
      let labels: Labels | undefined;
      if (r.byte() === 1) {
        if (known?.(id)) r.skipLabels();
        else labels = r.labels();
      }
      const chunks = readChunks(r);
      const open = type === HEAD_STATES && r.byte() === 1 ? readState(r, chunks.at(-1)) : undefined;
      series.push({ id, labels, chunks, open });
    }
    return { kind: 'heads', series };
  }
  throw new Error(`unknown record type ${type}`);
}
