import { BitReader, BitWriter, type BitBufferGrowth } from './bit-stream';

/** Samples a chunk holds before it is closed: an hour at 15 s, as long as upstream 2.x cuts them. */
export const SAMPLES_PER_CHUNK = 240;

/** The staleness marker's bit pattern (a NaN that is not the NaN arithmetic makes). */
const STALE_HI = 0x7ff00000;
const STALE_LO = 0x00000002;

const scratch = new DataView(new ArrayBuffer(8));
/** A float and its two 32-bit words, aliased (on little-endian machines word 1 is the high one). */
const words = new Uint32Array(2);
const float = new Float64Array(words.buffer);
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * Gorilla-style compression of one run of samples: timestamps as delta-of-deltas in variable-width
 * buckets, values XORed with the previous value and stored by their meaningful bits. A staleness
 * marker is stored as its own NaN bit pattern, distinct from any other NaN.
 */
export class XorChunk {
  private readonly out: BitWriter;
  private count = 0;
  private tDelta = 0;
  private hi = 0;
  private lo = 0;
  private leading = 0xff;
  private trailing = 0;
  /** First and last timestamps, for range checks without decoding. */
  minT = Infinity;
  maxT = -Infinity;

  /** A chunk in its own memory, or in `bytes` (zeroed) that `growth` replaces when full. */
  constructor(bytes?: Uint8Array, growth?: BitBufferGrowth) {
    this.out = bytes ? new BitWriter(bytes, growth) : new BitWriter();
  }

  get length(): number {
    return this.count;
  }

  get isFull(): boolean {
    return this.count >= SAMPLES_PER_CHUNK;
  }

  /** Bytes the encoded samples take. */
  get byteLength(): number {
    return this.out.byteLength;
  }

  append(t: number, v: number, stale: boolean): void {
    let hi: number;
    let lo: number;
    if (stale) {
      hi = STALE_HI;
      lo = STALE_LO;
    } else {
      scratch.setFloat64(0, v);
      hi = scratch.getUint32(0);
      lo = scratch.getUint32(4);
    }
    if (this.count === 0) {
      this.out.writeVarint(t);
      this.out.writeBits(hi, 32);
      this.out.writeBits(lo, 32);
      this.minT = t;
    } else if (this.count === 1) {
      this.tDelta = t - this.maxT;
      this.out.writeUvarint(this.tDelta);
      this.writeValue(hi, lo);
    } else {
      const delta = t - this.maxT;
      this.writeDeltaOfDelta(delta - this.tDelta);
      this.tDelta = delta;
      this.writeValue(hi, lo);
    }
    this.maxT = t;
    this.hi = hi;
    this.lo = lo;
    this.count++;
  }

  private writeDeltaOfDelta(dod: number): void {
    const out = this.out;
    if (dod === 0) out.writeBit(0);
    else if (dod >= -8191 && dod <= 8192) {
      out.writeBits(0b10, 2);
      out.writeBits(dod & 0x3fff, 14);
    } else if (dod >= -65535 && dod <= 65536) {
      out.writeBits(0b110, 3);
      out.writeBits(dod & 0x1ffff, 17);
    } else if (dod >= -524287 && dod <= 524288) {
      out.writeBits(0b1110, 4);
      out.writeBits(dod & 0xfffff, 20);
    } else {
      out.writeBits(0b1111, 4);
      // 64-bit two's complement, high word first.
      const hi = Math.floor(dod / 0x100000000);
      out.writeBits(hi >>> 0, 32);
      out.writeBits((dod - hi * 0x100000000) >>> 0, 32);
    }
  }

  private writeValue(hi: number, lo: number): void {
    const out = this.out;
    const xhi = (hi ^ this.hi) >>> 0;
    const xlo = (lo ^ this.lo) >>> 0;
    if (xhi === 0 && xlo === 0) {
      out.writeBit(0);
      return;
    }
    out.writeBit(1);
    let leading = xhi !== 0 ? Math.clz32(xhi) : 32 + Math.clz32(xlo);
    const trailing = xlo !== 0 ? ctz32(xlo) : 32 + ctz32(xhi);
    if (leading >= 32) leading = 31;
    if (this.leading !== 0xff && leading >= this.leading && trailing >= this.trailing) {
      // Fits in the previous window of meaningful bits.
      out.writeBit(0);
      writeWindow(out, xhi, xlo, this.leading, this.trailing);
      return;
    }
    this.leading = leading;
    this.trailing = trailing;
    out.writeBit(1);
    out.writeBits(leading, 5);
    const significant = 64 - leading - trailing;
    // 64 significant bits do not fit in 6 bits: 0 stands for 64, as upstream.
    out.writeBits(significant & 63, 6);
    writeWindow(out, xhi, xlo, leading, trailing);
  }

  /**
   * Goes on after samples another encoder wrote, already in this chunk's buffer, with the state
   * their decoding left (`decodeXorChunkInto`'s `state`): no sample is encoded again.
   */
  resume(state: XorChunkState): void {
    this.out.resumeAt(state.bitLength);
    this.count = state.count;
    this.tDelta = state.tDelta;
    this.hi = state.hi;
    this.lo = state.lo;
    this.leading = state.leading;
    this.trailing = state.trailing;
    this.minT = state.minT;
    this.maxT = state.maxT;
  }

  /**
   * Takes up the open chunk `at` of `fields`, whose bytes are `bytes`, where its encoding stands:
   * one encoder serves every open chunk of a store, their states kept in typed arrays (no
   * objects per open chunk). `saveTo` writes the state back.
   */
  loadFrom(fields: EncoderFields, at: number, bytes: Uint8Array): void {
    this.out.moveTo(bytes, fields.bitLength[at]);
    this.count = fields.count[at];
    this.tDelta = fields.tDelta[at];
    this.hi = fields.hi[at];
    this.lo = fields.lo[at];
    this.leading = fields.leading[at];
    this.trailing = fields.trailing[at];
    this.minT = fields.minT[at];
    this.maxT = fields.maxT[at];
  }

  saveTo(fields: EncoderFields, at: number): void {
    fields.bitLength[at] = this.out.bitLength;
    fields.count[at] = this.count;
    fields.tDelta[at] = this.tDelta;
    fields.hi[at] = this.hi;
    fields.lo[at] = this.lo;
    fields.leading[at] = this.leading;
    fields.trailing[at] = this.trailing;
    fields.minT[at] = this.minT;
    fields.maxT[at] = this.maxT;
  }

  /** Where the encoder stands: what `resume` needs to go on after these bytes elsewhere. */
  state(): XorChunkState {
    return {
      count: this.count,
      t: this.maxT,
      tDelta: this.tDelta,
      hi: this.hi,
      lo: this.lo,
      leading: this.leading,
      trailing: this.trailing,
      minT: this.minT,
      maxT: this.maxT,
      bitLength: this.out.bitLength,
    };
  }

  /** The encoded bytes (a copy). */
  bytes(): Uint8Array {
    return this.out.toBytes();
  }

  /** The encoded bytes without copying, for reading right away. */
  view(): Uint8Array {
    return this.out.view();
  }
}

/** Writes bits `63 - leading` down to `trailing` of a 64-bit value. */
function writeWindow(
  out: BitWriter,
  hi: number,
  lo: number,
  leading: number,
  trailing: number,
): void {
  const width = 64 - leading - trailing;
  let shi: number;
  let slo: number;
  if (trailing === 0) {
    shi = hi;
    slo = lo;
  } else if (trailing >= 32) {
    shi = 0;
    slo = (hi >>> (trailing - 32)) >>> 0;
  } else {
    shi = hi >>> trailing;
    slo = ((lo >>> trailing) | (hi << (32 - trailing))) >>> 0;
  }
  out.writeBits64(shi, slo, width);
}

function ctz32(x: number): number {
  if (x === 0) return 32;
  return 31 - Math.clz32(x & -x);
}

/** Whether a value's two 32-bit words are the staleness marker. */
export function isStaleBits(hi: number, lo: number): boolean {
  return hi === STALE_HI && lo === STALE_LO;
}

/** The float whose high and low 32-bit words these are. */
export function floatOfBits(hi: number, lo: number): number {
  scratch.setUint32(0, hi);
  scratch.setUint32(4, lo);
  return scratch.getFloat64(0);
}

/** Where an encoder stands after a chunk's samples, as decoding them finds it. */
export interface XorChunkState {
  count: number;
  t: number;
  tDelta: number;
  hi: number;
  lo: number;
  /** 0xff before any value needed a window of meaningful bits. */
  leading: number;
  trailing: number;
  minT: number;
  maxT: number;
  bitLength: number;
}

/** Encoders' states in typed arrays, one entry per open chunk (see `XorChunk.loadFrom`). */
export interface EncoderFields {
  readonly count: Int32Array;
  readonly bitLength: Int32Array;
  readonly tDelta: Float64Array;
  readonly hi: Uint32Array;
  readonly lo: Uint32Array;
  /** 0xff before any value needed a window of meaningful bits. */
  readonly leading: Uint8Array;
  readonly trailing: Uint8Array;
  readonly minT: Float64Array;
  readonly maxT: Float64Array;
}

/** Decoded samples of a chunk. */
export interface DecodedSamples {
  readonly t: Float64Array;
  readonly v: Float64Array;
  readonly stale: Uint8Array | undefined;
}

/** Decodes `count` samples of an encoded chunk. */
export function decodeXorChunk(bytes: Uint8Array, count: number): DecodedSamples {
  const out: SampleBuffer = {
    t: new Float64Array(count),
    v: new Float64Array(count),
    stale: undefined,
    length: 0,
  };
  decodeXorChunkInto(bytes, count, -Infinity, Infinity, out);
  return { t: out.t, v: out.v, stale: out.stale };
}

/** Arrays samples are decoded into, and how many are filled. */
export interface SampleBuffer {
  t: Float64Array;
  v: Float64Array;
  stale: Uint8Array | undefined;
  length: number;
}

/**
 * Decodes a chunk's samples with `mint <= t <= maxt` onto the end of `out` (whose arrays have
 * room), stopping at the first sample after `maxt`. With `state`, a decoding of every sample
 * also leaves there what an encoder needs to append after them.
 */
export function decodeXorChunkInto(
  bytes: Uint8Array,
  count: number,
  mint: number,
  maxt: number,
  out: SampleBuffer,
  state?: XorChunkState,
): void {
  if (count === 0) return;
  const input = new BitReader(bytes);
  let ts = input.readVarint();
  const first = ts;
  let hi = input.readBits(32);
  let lo = input.readBits(32);
  let delta = 0;
  let leading = 0xff;
  let trailing = 0;
  for (let i = 0; ;) {
    if (ts > maxt) return;
    if (ts >= mint) {
      const at = out.length++;
      out.t[at] = ts;
      if (hi === STALE_HI && lo === STALE_LO) {
        out.stale ??= new Uint8Array(out.t.length);
        out.stale[at] = 1;
        out.v[at] = NaN;
      } else if (LITTLE_ENDIAN) {
        words[0] = lo;
        words[1] = hi;
        out.v[at] = float[0];
      } else {
        scratch.setUint32(0, hi);
        scratch.setUint32(4, lo);
        out.v[at] = scratch.getFloat64(0);
      }
    }
    if (++i >= count) {
      if (state !== undefined) {
        Object.assign(state, { count, t: ts, tDelta: delta, hi, lo, leading, trailing });
        Object.assign(state, { minT: first, maxT: ts, bitLength: input.position });
      }
      return;
    }
    if (i === 1) delta = input.readUvarint();
    else delta += readDeltaOfDelta(input);
    ts += delta;
    if (input.readBit() === 1) {
      if (input.readBit() === 1) {
        leading = input.readBits(5);
        let significant = input.readBits(6);
        if (significant === 0) significant = 64;
        trailing = 64 - leading - significant;
      }
      const width = 64 - leading - trailing;
      let whi = 0;
      let wlo: number;
      if (width > 32) {
        whi = input.readBits(width - 32);
        wlo = input.readBits(32);
      } else wlo = input.readBits(width);
      // Shift the window back into place and XOR it in.
      if (trailing === 0) {
        hi = (hi ^ whi) >>> 0;
        lo = (lo ^ wlo) >>> 0;
      } else if (trailing >= 32) {
        hi = (hi ^ (wlo << (trailing - 32))) >>> 0;
      } else {
        hi = (hi ^ ((whi << trailing) | (wlo >>> (32 - trailing)))) >>> 0;
        lo = (lo ^ (wlo << trailing)) >>> 0;
      }
    }
  }
}

function readDeltaOfDelta(input: BitReader): number {
  if (input.readBit() === 0) return 0;
  if (input.readBit() === 0) return signed(input.readBits(14), 14);
  if (input.readBit() === 0) return signed(input.readBits(17), 17);
  if (input.readBit() === 0) return signed(input.readBits(20), 20);
  const hi = input.readBits(32) | 0;
  const lo = input.readBits(32);
  return hi * 0x100000000 + lo;
}

/** A `bits`-wide two's complement value, with upstream's ranges (the top value is positive). */
function signed(value: number, bits: number): number {
  const half = 2 ** (bits - 1);
  return value > half ? value - 2 ** bits : value;
}
