import { Labels } from '../labels';

// The byte-level writer and reader of the log's records.

/** Writes a record: bytes, unsigned varints, doubles, strings and label sets. */
export class RecordWriter {
  private buffer: Buffer;
  private at = 0;

  /** `initialBytes`: room for a record about that size, so that it seldom grows. */
  constructor(initialBytes = 256) {
    this.buffer = Buffer.alloc(initialBytes);
  }

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
    // Encoded in place: a checkpoint writes every series' labels, and a buffer per string adds up.
    const length = Buffer.byteLength(value, 'utf8');
    this.uvarint(length);
    this.ensure(length);
    this.at += this.buffer.write(value, this.at, length, 'utf8');
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

  /** Starts the next record in the same buffer (a reused writer; see {@link encodeRecord}). */
  reset(): void {
    this.at = 0;
  }

  /** A copy of the record, at its size. */
  copy(): Buffer {
    return Buffer.from(this.buffer.subarray(0, this.at));
  }

  /** Bytes of the buffer, written or not. */
  get capacity(): number {
    return this.buffer.length;
  }
}

/** Room the reused writer starts with, and keeps after a record larger than {@link KEPT_BYTES}. */
const REUSED_BYTES = 64 * 1024;
const KEPT_BYTES = 4 * 1024 * 1024;
let reused = new RecordWriter(REUSED_BYTES);

/**
 * A record written by `write` (which must not start another with this function) into one buffer
 * kept from record to record, returned as a copy at its size. A writer of its own per record grew
 * by doubling from 256 bytes: a scrape's record of 10,000 new series (about a megabyte) left a
 * megabyte of outgrown buffers besides, outside V8's heap, which glibc kept after they were freed.
 */
export function encodeRecord(write: (w: RecordWriter) => void): Buffer {
  const w = reused;
  w.reset();
  write(w);
  const record = w.copy();
  if (w.capacity > KEPT_BYTES) reused = new RecordWriter(REUSED_BYTES);
  return record;
}

/** Reads a record back; a read past its end throws (the caller treats it as a bad tail). */
export class RecordReader {
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

  /** A view of a length-prefixed field's bytes (a reader that keeps them copies them). */
  bytes(): Buffer {
    const end = this.end();
    const out = this.buffer.subarray(this.at, end);
    this.at = end;
    return out;
  }

  /** A string, decoded from the record without a view of its bytes. */
  string(): string {
    const end = this.end();
    const text = this.buffer.toString('utf8', this.at, end);
    this.at = end;
    return text;
  }

  /** Goes past a label set without decoding its strings (or making views of them). */
  skipLabels(): void {
    const n = this.uvarint();
    for (let i = 0; i < 2 * n; i++) this.at = this.end();
  }

  /** Where the length-prefixed field at the reader's place ends; the reader is past its length. */
  private end(): number {
    const n = this.uvarint();
    if (this.at + n > this.buffer.length) throw new Error('record cut short');
    return this.at + n;
  }

  labels(): Labels {
    const n = this.uvarint();
    const names = new Array<string>(n);
    const values = new Array<string>(n);
    for (let i = 0; i < n; i++) {
      names[i] = internName(this.string());
      values[i] = internValue(this.string());
    }
    return Labels.ofStored(names, values);
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
