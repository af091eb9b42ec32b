/** How a writer grows when its bytes live somewhere other than its own array (shared memory). */
export interface BitBufferGrowth {
  /** Moves written bytes to a larger zeroed buffer of at least `needed` bytes and returns it. */
  grow(written: Uint8Array, needed: number): Uint8Array;
}

/**
 * Writes bits most significant first into a growing byte buffer (zeroed beyond what is
 * written: bits are ORed in, so bytes already written never change but for their unused low
 * bits, and a reader on another thread can read them while more are written).
 */
export class BitWriter {
  private bytes: Uint8Array;
  /** Bits written so far. */
  private length = 0;

  constructor(
    capacity: number | Uint8Array = 32,
    private readonly growth?: BitBufferGrowth,
  ) {
    this.bytes = typeof capacity === 'number' ? new Uint8Array(capacity) : capacity;
  }

  get bitLength(): number {
    return this.length;
  }

  writeBit(bit: number): void {
    this.ensure(1);
    if (bit) this.bytes[this.length >>> 3] |= 0x80 >>> (this.length & 7);
    this.length++;
  }

  /** The low `count` bits of `value` (count <= 32), most significant first. */
  writeBits(value: number, count: number): void {
    this.ensure(count);
    let left = count;
    while (left > 0) {
      const free = 8 - (this.length & 7);
      const take = left < free ? left : free;
      // The next `take` bits of the value, from the most significant end of what is left.
      const bits =
        left > 31
          ? Math.floor(value / 2 ** (left - take)) & ((1 << take) - 1)
          : (value >>> (left - take)) & ((1 << take) - 1);
      this.bytes[this.length >>> 3] |= bits << (free - take);
      this.length += take;
      left -= take;
    }
  }

  /** A 64-bit pattern given as high and low 32-bit words. */
  writeBits64(hi: number, lo: number, count: number): void {
    if (count > 32) {
      this.writeBits(hi, count - 32);
      this.writeBits(lo, 32);
    } else {
      this.writeBits(lo, count);
    }
  }

  /** Unsigned LEB128 varint of a non-negative integer (up to 2^53). */
  writeUvarint(value: number): void {
    let v = value;
    while (v >= 0x80) {
      this.writeBits((v % 0x80) | 0x80, 8);
      v = Math.floor(v / 0x80);
    }
    this.writeBits(v, 8);
  }

  /** Zig-zag signed varint, as Go's `binary.PutVarint`. */
  writeVarint(value: number): void {
    this.writeUvarint(value >= 0 ? value * 2 : -value * 2 - 1);
  }

  /** The bytes written, trimmed to whole bytes (a copy). */
  toBytes(): Uint8Array {
    return this.bytes.slice(0, (this.length + 7) >>> 3);
  }

  /** The bytes written so far, without copying: valid until the next write. */
  view(): Uint8Array {
    return this.bytes.subarray(0, (this.length + 7) >>> 3);
  }

  get byteLength(): number {
    return (this.length + 7) >>> 3;
  }

  /**
   * Goes on writing in `bytes` after the `bits` bits already there (a writer moved from one
   * buffer to another, as one encoder serves many open chunks).
   */
  moveTo(bytes: Uint8Array, bits: number): void {
    this.bytes = bytes;
    this.resumeAt(bits);
  }

  /** Goes on after `bits` bits already in the buffer (written by another writer). */
  resumeAt(bits: number): void {
    if (bits > this.bytes.length * 8) throw new Error('resumed past the end of the buffer');
    this.length = bits;
  }

  private ensure(bits: number): void {
    const needed = (this.length + bits + 7) >>> 3;
    if (needed <= this.bytes.length) return;
    if (this.growth) {
      this.bytes = this.growth.grow(this.view(), needed);
      return;
    }
    const grown = new Uint8Array(Math.max(needed, this.bytes.length * 2));
    grown.set(this.bytes);
    this.bytes = grown;
  }
}

/**
 * Reads what a {@link BitWriter} wrote, through a 32-bit buffer refilled a byte at a time, so
 * every read is a few integer operations.
 */
export class BitReader {
  private at = 0;
  /** Bits read ahead from the bytes, in the low `held` bits. */
  private buffer = 0;
  private held = 0;

  constructor(private readonly bytes: Uint8Array) {}

  /** Bits read so far. */
  get position(): number {
    return this.at * 8 - this.held;
  }

  readBit(): number {
    if (this.held === 0) {
      this.buffer = this.at < this.bytes.length ? this.bytes[this.at] : 0;
      this.at++;
      this.held = 8;
    }
    this.held--;
    return (this.buffer >>> this.held) & 1;
  }

  /** `count` bits (<= 32) as an unsigned number. */
  readBits(count: number): number {
    if (count > 24) {
      const high = this.readBits(count - 16);
      return high * 65536 + this.readBits(16);
    }
    const bytes = this.bytes;
    while (this.held < count) {
      this.buffer = ((this.buffer << 8) | (this.at < bytes.length ? bytes[this.at] : 0)) >>> 0;
      this.at++;
      this.held += 8;
    }
    this.held -= count;
    return (this.buffer >>> this.held) & ((1 << count) - 1);
  }

  readUvarint(): number {
    let value = 0;
    let scale = 1;
    for (;;) {
      const byte = this.readBits(8);
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 0x80;
    }
  }

  readVarint(): number {
    const u = this.readUvarint();
    return u % 2 === 0 ? u / 2 : -(u + 1) / 2;
  }
}
