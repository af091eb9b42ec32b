import type { LabelSet } from '../labels';

// FNV-1a 64 in two unsigned 32-bit halves: BigInt would be exact too, but an order of magnitude
// slower, and this runs for every alert received.
const OFFSET_HI = 0xcbf29ce4;
const OFFSET_LO = 0x84222325;
// The 64-bit prime is 2^40 + 0x1b3: multiplying by it is `x * 0x1b3 + (x << 40)`.
const PRIME_LO = 0x1b3;
const TWO_32 = 0x1_0000_0000;
const SEPARATOR = 0xff;

let hi = 0;
let lo = 0;

function addByte(byte: number): void {
  lo ^= byte;
  const product = (lo >>> 0) * PRIME_LO; // below 2^41, exact in a double
  const carry = Math.floor(product / TWO_32);
  hi = (Math.imul(hi, PRIME_LO) + carry + (lo << 8)) >>> 0;
  lo = product >>> 0;
}

/** Feeds the UTF-8 bytes of `text`, as Go hashes a string's bytes. */
function addString(text: string): void {
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    if (c < 0x80) {
      addByte(c);
      continue;
    }
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
        i++;
      }
    }
    if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd; // a lone surrogate encodes as U+FFFD in UTF-8
    if (c < 0x800) {
      addByte(0xc0 | (c >> 6));
    } else if (c < 0x10000) {
      addByte(0xe0 | (c >> 12));
      addByte(0x80 | ((c >> 6) & 0x3f));
    } else {
      addByte(0xf0 | (c >> 18));
      addByte(0x80 | ((c >> 12) & 0x3f));
      addByte(0x80 | ((c >> 6) & 0x3f));
    }
    addByte(0x80 | (c & 0x3f));
  }
}

function hex8(n: number): string {
  return n.toString(16).padStart(8, '0');
}

/**
 * An alert's identity, as upstream's `LabelSet.Fingerprint()`: 64-bit FNV-1a over the labels
 * sorted by name, each written as `name 0xFF value 0xFF`, printed as 16 lower-case hex digits.
 * The empty set hashes to the FNV offset basis.
 */
export function fingerprint(labels: LabelSet): string {
  const names = Object.keys(labels).sort();
  hi = OFFSET_HI;
  lo = OFFSET_LO;
  for (const name of names) {
    addString(name);
    addByte(SEPARATOR);
    addString(labels[name]);
    addByte(SEPARATOR);
  }
  return hex8(hi) + hex8(lo);
}
