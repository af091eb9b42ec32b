import { Labels } from '../labels';
import type { ClosedChunk } from '../memory-series';

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
const HEAD_SERIES = 4;

/** The staleness marker's bits, kept as such in the log. */
const STALE_HI = 0x7ff00000;
const STALE_LO = 0x00000002;

class Writer {
  private buffer = Buffer.alloc(256);
  private at = 0;

  private ensure(n: number): void {
    if (this.at + n <= this.buffer.length) return;
    const grown = Buffer.alloc(Math.max(this.buffer.length * 2, this.at + n));
    this.buffer.copy(grown, 0, 0, this.at);
    this.buffer = grown;
  }

  byte(value: number): void {
    this.ensure(1);
    this.buffer[this.at++] = value;
  }

  uvarint(value: number): void {
    let v = value;
    while (v >= 0x80) {
      this.byte((v % 0x80) | 0x80);
      v = Math.floor(v / 0x80);
    }
    this.byte(v);
  }

  double(value: number): void {
    this.ensure(8);
    this.buffer.writeDoubleLE(value, this.at);
    this.at += 8;
  }

  words(hi: number, lo: number): void {
    this.ensure(8);
    this.buffer.writeUInt32LE(lo, this.at);
    this.buffer.writeUInt32LE(hi, this.at + 4);
    this.at += 8;
  }

  string(value: string): void {
    const bytes = Buffer.from(value, 'utf8');
    this.bytes(bytes);
  }

  bytes(value: Uint8Array): void {
    this.uvarint(value.length);
    this.ensure(value.length);
    this.buffer.set(value, this.at);
    this.at += value.length;
  }

  labels(labels: Labels): void {
    this.uvarint(labels.size);
    for (let i = 0; i < labels.size; i++) {
      this.string(labels.names[i]);
      this.string(labels.values[i]);
    }
  }

  done(): Buffer {
    return this.buffer.subarray(0, this.at);
  }
}

class Reader {
  private at = 0;
  constructor(private readonly buffer: Buffer) {}

  get atEnd(): boolean {
    return this.at >= this.buffer.length;
  }

  byte(): number {
    if (this.at >= this.buffer.length) throw new Error('record cut short');
    return this.buffer[this.at++];
  }

  uvarint(): number {
    let value = 0;
    let scale = 1;
    for (;;) {
      const b = this.byte();
      value += (b & 0x7f) * scale;
      if (b < 0x80) return value;
      scale *= 0x80;
    }
  }

  double(): number {
    const value = this.buffer.readDoubleLE(this.at);
    this.at += 8;
    return value;
  }

  words(): [number, number] {
    const lo = this.buffer.readUInt32LE(this.at);
    const hi = this.buffer.readUInt32LE(this.at + 4);
    this.at += 8;
    return [hi, lo];
  }

  bytes(): Buffer {
    const n = this.uvarint();
    if (this.at + n > this.buffer.length) throw new Error('record cut short');
    const out = this.buffer.subarray(this.at, this.at + n);
    this.at += n;
    return out;
  }

  string(): string {
    return this.bytes().toString('utf8');
  }

  labels(): Labels {
    const n = this.uvarint();
    const pairs: [string, string][] = [];
    for (let i = 0; i < n; i++) pairs.push([internName(this.string()), internValue(this.string())]);
    return Labels.from(pairs);
  }
}

/**
 * Label strings read back share one instance per distinct text, as those of series appended in
 * this process do: label sets compare names by identity first, and a restored store does not hold
 * the same `job` or `le="0.5"` once per series. Values are pooled up to a bound, so a store of
 * unique ids does not grow the pool without end.
 */
const NAMES = new Map<string, string>();
const VALUES = new Map<string, string>();
const MAX_POOLED = 100_000;

function internName(text: string): string {
  return intern(NAMES, text);
}

function internValue(text: string): string {
  return intern(VALUES, text);
}

function intern(pool: Map<string, string>, text: string): string {
  const known = pool.get(text);
  if (known !== undefined) return known;
  if (pool.size < MAX_POOLED) pool.set(text, text);
  return text;
}

export function encodeSeries(records: readonly SeriesRecord[]): Buffer {
  const w = new Writer();
  w.byte(SERIES);
  w.uvarint(records.length);
  for (const r of records) {
    w.uvarint(r.id);
    w.labels(r.labels);
  }
  return w.done();
}

const scratch = new DataView(new ArrayBuffer(8));

export function encodeSamples(batch: SampleBatch): Buffer {
  const w = new Writer();
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
  return w.done();
}

/** A snapshot record: series with their chunks, as they are in memory. */
export function encodeSnapshotSeries(
  series: readonly { id: number; labels: Labels; chunks: ClosedChunk[] }[],
): Buffer {
  const w = new Writer();
  w.byte(SNAPSHOT_SERIES);
  w.uvarint(series.length);
  for (const s of series) {
    w.uvarint(s.id);
    w.labels(s.labels);
    w.uvarint(s.chunks.length);
    for (const c of s.chunks) {
      w.uvarint(c.count);
      w.double(c.minT);
      w.double(c.maxT);
      w.bytes(c.bytes);
    }
  }
  return w.done();
}

/** A series in a checkpoint: its chunks still in memory, and its labels when not on disk yet. */
export interface HeadSeries {
  readonly id: number;
  readonly labels: Labels | undefined;
  readonly chunks: ClosedChunk[];
}

/** A checkpoint record: series with the chunks they hold in memory. */
export function encodeHeadSeries(series: readonly HeadSeries[]): Buffer {
  const w = new Writer();
  w.byte(HEAD_SERIES);
  w.uvarint(series.length);
  for (const s of series) {
    w.uvarint(s.id);
    w.byte(s.labels === undefined ? 0 : 1);
    if (s.labels !== undefined) w.labels(s.labels);
    w.uvarint(s.chunks.length);
    for (const c of s.chunks) {
      w.uvarint(c.count);
      w.double(c.minT);
      w.double(c.maxT);
      w.bytes(c.bytes);
    }
  }
  return w.done();
}

/** A label set alone, as the chunk database keeps it. */
export function encodeLabels(labels: Labels): Buffer {
  const w = new Writer();
  w.labels(labels);
  return w.done();
}

export function decodeLabels(bytes: Buffer): Labels {
  return new Reader(bytes).labels();
}

export type DecodedRecord =
  | { readonly kind: 'series'; readonly records: SeriesRecord[] }
  | { readonly kind: 'samples'; readonly batch: SampleBatch }
  | {
      readonly kind: 'snapshot';
      readonly series: { id: number; labels: Labels; chunks: ClosedChunk[] }[];
    }
  | { readonly kind: 'heads'; readonly series: HeadSeries[] };

function readChunks(r: Reader): ClosedChunk[] {
  const count = r.uvarint();
  const chunks: ClosedChunk[] = [];
  for (let c = 0; c < count; c++) {
    const samples = r.uvarint();
    const minT = r.double();
    const maxT = r.double();
    chunks.push({ count: samples, minT, maxT, bytes: new Uint8Array(r.bytes()) });
  }
  return chunks;
}

/** Decodes one record; throws on a payload that is not one (the caller treats it as a bad tail). */
export function decodeRecord(payload: Buffer): DecodedRecord {
  const r = new Reader(payload);
  const type = r.byte();
  const n = r.uvarint();
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
  if (type === HEAD_SERIES) {
    const series: HeadSeries[] = [];
    for (let i = 0; i < n; i++) {
      const id = r.uvarint();
      const labels = r.byte() === 1 ? r.labels() : undefined;
      series.push({ id, labels, chunks: readChunks(r) });
    }
    return { kind: 'heads', series };
  }
  throw new Error(`unknown record type ${type}`);
}
