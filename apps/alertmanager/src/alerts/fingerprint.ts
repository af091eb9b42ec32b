import type { LabelSet } from '../labels';

// FNV-1a 64 in two unsigned 32-bit halves: BigInt would be exact too, but an order of magnitude
// slower, and this runs for every alert received.
const OFFSET_HI = 0xcbf29ce4;
const OFFSET_LO = 0x84222325;
// The 64-bit prime is 2^40 + 0x1b3: multiplying by it is `x * 0x1b3 + (x << 40)`.
const PRIME_LO = 0x1b3;
const TWO_32 = 0x1_0000_0000;
const SEPARATOR = 0xff;

// A scratch buffer printed as hex is several times faster than `toString(16).padStart(8, '0')`,
// and unlike concatenated pieces yields a flat string, cheap to hash as a map key and to keep.
const scratch = Buffer.alloc(8);

function hex64(h: number, l: number): string {
  scratch.writeUInt32BE(h, 0);
  scratch.writeUInt32BE(l, 4);
  return scratch.toString('hex');
}

/**
 * An alert's identity, as upstream's `LabelSet.Fingerprint()`: 64-bit FNV-1a over the labels
 * sorted by name, each written as `name 0xFF value 0xFF`, printed as 16 lower-case hex digits.
 * The empty set hashes to the FNV offset basis.
 */
export function fingerprint(labels: LabelSet): string {
  const names = Object.keys(labels).sort();
  // Local state and an inlined ASCII loop: several times faster than a per-byte helper.
  let h = OFFSET_HI;
  let l = OFFSET_LO;
  for (const name of names) {
    for (let part = 0; part < 2; part++) {
      const text = part === 0 ? name : labels[name];
      for (let i = 0; i <= text.length; i++) {
        let c = i === text.length ? SEPARATOR : text.charCodeAt(i);
        if (c >= 0x80 && i < text.length) {
          // Rare: hash the UTF-8 bytes of the rest of the string, then the separator.
          const bytes = Buffer.from(text.slice(i), 'utf8');
          for (const byte of bytes) {
            const x = (l ^ byte) >>> 0;
            const product = x * PRIME_LO;
            h = (Math.imul(h, PRIME_LO) + Math.floor(product / TWO_32) + (x << 8)) >>> 0;
            l = product >>> 0;
          }
          i = text.length;
          c = SEPARATOR;
        }
        const x = (l ^ c) >>> 0;
        const product = x * PRIME_LO; // below 2^41, exact in a double
        h = (Math.imul(h, PRIME_LO) + Math.floor(product / TWO_32) + (x << 8)) >>> 0;
        l = product >>> 0;
      }
    }
  }
  return hex64(h, l);
}
