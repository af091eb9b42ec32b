import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { Labels } from '../labels';
import type { SampleChain } from './sample-chain';
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
const XOR_SAMPLES = 5;
/** Another record, deflated (checkpoint records: labels compress well). */
const DEFLATED = 6;

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

const words = new Uint32Array(scratch.buffer);
const float = new Float64Array(scratch.buffer);
/** Index of the high and low 32-bit words of a float64 on this machine. */
const HI = new Uint8Array(new Float64Array([1]).buffer)[7] === 0x3f ? 1 : 0;
const LO = 1 - HI;
/** The control byte of a staleness marker (no value bytes follow). */
const STALE_CONTROL = 0xff;

const zigzag = (n: number) => (n >= 0 ? 2 * n : -2 * n - 1);
const unzigzag = (n: number) => (n % 2 === 0 ? n / 2 : -(n + 1) / 2);

/**
 * Samples as an `XOR_SAMPLES` record, about 4 bytes a sample for scrapes against 17 plain:
 * series ids as differences from the one before, timestamps once when all are equal (a scrape)
 * or as differences from the first, and each value XORed with the series' last one in `chain`
 * (see {@link SampleChain}), written as a control byte (leading and trailing zero bytes of the
 * XOR) and the bytes between. `undefined` when a timestamp is not a whole number of ms.
 */
export function encodeXorSamples(batch: SampleBatch, chain: SampleChain): Buffer | undefined {
  const n = batch.ids.length;
  const t0 = batch.t[0];
  let shared = true;
  for (let i = 0; i < n; i++) {
    if (!Number.isSafeInteger(batch.t[i])) return undefined;
    if (batch.t[i] !== t0) shared = false;
  }
  const w = new Writer();
  w.byte(XOR_SAMPLES);
  w.uvarint(n);
  w.uvarint(zigzag(t0));
  w.byte(shared ? 1 : 0);
  let previousId = 0;
  for (let i = 0; i < n; i++) {
    const id = batch.ids[i];
    w.uvarint(zigzag(id - previousId));
    previousId = id;
    if (!shared) w.uvarint(zigzag(batch.t[i] - t0));
    if (batch.stale[i]) {
      w.byte(STALE_CONTROL);
      continue;
    }
    float[0] = batch.v[i];
    const hi = words[HI];
    const lo = words[LO];
    writeXor(w, (hi ^ chain.high(id)) >>> 0, (lo ^ chain.low(id)) >>> 0);
    chain.set(id, hi, lo);
  }
  return w.done();
}

/** The XOR's eight bytes, high first, as control byte and the bytes between the zero runs. */
function writeXor(w: Writer, hi: number, lo: number): void {
  const bytes = [
    hi >>> 24,
    (hi >>> 16) & 0xff,
    (hi >>> 8) & 0xff,
    hi & 0xff,
    lo >>> 24,
    (lo >>> 16) & 0xff,
    (lo >>> 8) & 0xff,
    lo & 0xff,
  ];
  let lead = 0;
  while (lead < 8 && bytes[lead] === 0) lead++;
  let trail = 0;
  while (lead + trail < 8 && bytes[7 - trail] === 0) trail++;
  w.byte((lead << 4) | trail);
  for (let k = lead; k < 8 - trail; k++) w.byte(bytes[k]);
}

function readXorSamples(r: Reader, n: number, chain: SampleChain): SampleBatch {
  const batch: SampleBatch = { ids: [], t: [], v: [], stale: [] };
  const t0 = unzigzag(r.uvarint());
  const shared = r.byte() === 1;
  let id = 0;
  for (let i = 0; i < n; i++) {
    id += unzigzag(r.uvarint());
    batch.ids.push(id);
    batch.t.push(shared ? t0 : t0 + unzigzag(r.uvarint()));
    const control = r.byte();
    if (control === STALE_CONTROL) {
      batch.v.push(NaN);
      batch.stale.push(true);
      continue;
    }
    const lead = control >>> 4;
    const trail = control & 0x0f;
    if (lead + trail > 8) throw new Error('bad value control byte');
    let hi = 0;
    let lo = 0;
    for (let k = lead; k < 8 - trail; k++) {
      const b = r.byte();
      if (k < 4) hi |= b << (8 * (3 - k));
      else lo |= b << (8 * (7 - k));
    }
    hi = (hi ^ chain.high(id)) >>> 0;
    lo = (lo ^ chain.low(id)) >>> 0;
    chain.set(id, hi, lo);
    words[HI] = hi;
    words[LO] = lo;
    batch.v.push(float[0]);
    batch.stale.push(false);
  }
  return batch;
}

/**
 * A snapshot record of every chunk of each series, as versions before the chunk database wrote
 * their checkpoints (still read, so such a store starts and moves its closed chunks to disk).
 */
export function encodeSnapshotSeries(
  series: readonly { id: number; labels: Labels; chunks: ClosedChunk[] }[],
): Buffer {
  const w = new Writer();
  w.byte(SNAPSHOT_SERIES);
  w.uvarint(series.length);
  for (const s of series) {
    w.uvarint(s.id);
    w.labels(s.labels);
    writeChunks(w, s.chunks);
  }
  return w.done();
}

function writeChunks(w: Writer, chunks: readonly ClosedChunk[]): void {
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
  readonly labels: Labels | undefined;
  readonly chunks: ClosedChunk[];
}

/**
 * A checkpoint record, deflated: series with the chunks they hold in memory and their labels
 * (kept in the chunk database too, but a checkpoint must restore its series without it).
 */
export function encodeHeadSeries(series: readonly HeadSeries[]): Buffer {
  const inner = encodePlainHeadSeries(series);
  return Buffer.concat([Buffer.from([DEFLATED]), deflateRawSync(inner, { level: 1 })]);
}

function encodePlainHeadSeries(series: readonly HeadSeries[]): Buffer {
  const w = new Writer();
  w.byte(HEAD_SERIES);
  w.uvarint(series.length);
  for (const s of series) {
    w.uvarint(s.id);
    w.byte(s.labels === undefined ? 0 : 1);
    if (s.labels !== undefined) w.labels(s.labels);
    writeChunks(w, s.chunks);
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

/**
 * Decodes one record; throws on a payload that is not one (the caller treats it as a bad tail).
 * `chain` follows the values of `XOR_SAMPLES` records through a log file.
 */
export function decodeRecord(payload: Buffer, chain?: SampleChain): DecodedRecord {
  if (payload[0] === DEFLATED) return decodeRecord(inflateRawSync(payload.subarray(1)), chain);
  const r = new Reader(payload);
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
