import * as zlib from 'node:zlib';

/** Bytes before each record: its payload length and the CRC-32 of the payload, little-endian. */
export const FRAME_HEADER_BYTES = 8;

// zlib.crc32 arrived in Node 20.15; older 20.x get the table-driven equivalent.
const nativeCrc32 = (zlib as { crc32?: (data: Uint8Array) => number }).crc32;
let table: Uint32Array | undefined;

function tableCrc32(data: Uint8Array): number {
  if (!table) {
    table = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (const byte of data) crc = table[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** CRC-32 (IEEE), as zlib computes it. */
export const crc32: (data: Uint8Array) => number = nativeCrc32 ?? tableCrc32;

/** One record framed as `length | crc32 | payload`. */
export function frame(payload: Buffer): Buffer {
  return Buffer.concat([frameHeader(payload), payload]);
}

/** The frame's header alone, for a writer that writes the payload after it as it is. */
export function frameHeader(payload: Buffer): Buffer {
  const header = Buffer.allocUnsafe(FRAME_HEADER_BYTES);
  header.writeUInt32LE(payload.length, 0);
  header.writeUInt32LE(crc32(payload), 4);
  return header;
}

/** The records read from a file, how many bytes of it were sound, and why reading stopped early. */
export interface ReadFrames {
  records: Buffer[];
  validBytes: number;
  /** Set when bytes after `validBytes` were ignored: a torn write or corruption. */
  problem?: string;
}

/**
 * Reads framed records until the end or the first record that is cut short or fails its checksum;
 * everything from there on is reported, not returned, since no later boundary can be trusted.
 */
export function readFrames(data: Buffer): ReadFrames {
  const records: Buffer[] = [];
  let offset = 0;
  while (offset < data.length) {
    if (data.length - offset < FRAME_HEADER_BYTES) {
      return { records, validBytes: offset, problem: 'record header cut short' };
    }
    const length = data.readUInt32LE(offset);
    const end = offset + FRAME_HEADER_BYTES + length;
    if (end > data.length) return { records, validBytes: offset, problem: 'record cut short' };
    const payload = data.subarray(offset + FRAME_HEADER_BYTES, end);
    if (crc32(payload) !== data.readUInt32LE(offset + 4)) {
      return { records, validBytes: offset, problem: 'checksum mismatch' };
    }
    records.push(payload);
    offset = end;
  }
  return { records, validBytes: offset };
}
