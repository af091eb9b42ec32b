const MASK = (1n << 64n) - 1n;
const P1 = 11400714785074694791n;
const P2 = 14029467366897019727n;
const P3 = 1609587929392839161n;
const P4 = 9650029242287828579n;
const P5 = 2870177450012600261n;

function rotl(x: bigint, r: bigint): bigint {
  return ((x << r) | (x >> (64n - r))) & MASK;
}

function round(acc: bigint, lane: bigint): bigint {
  return (rotl((acc + lane * P2) & MASK, 31n) * P1) & MASK;
}

function mergeRound(acc: bigint, value: bigint): bigint {
  return (((((acc ^ round(0n, value)) & MASK) * P1) & MASK) + P4) & MASK;
}

/** XXH64 with seed 0 of a byte string, as Go's `cespare/xxhash` `Sum64` (Prometheus's label hash). */
export function xxhash64(bytes: Uint8Array): bigint {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const length = bytes.length;
  let i = 0;
  let h: bigint;
  if (length >= 32) {
    let v1 = (P1 + P2) & MASK;
    let v2 = P2;
    let v3 = 0n;
    let v4 = (MASK + 1n - P1) & MASK;
    for (; i + 32 <= length; i += 32) {
      v1 = round(v1, view.getBigUint64(i, true));
      v2 = round(v2, view.getBigUint64(i + 8, true));
      v3 = round(v3, view.getBigUint64(i + 16, true));
      v4 = round(v4, view.getBigUint64(i + 24, true));
    }
    h = (rotl(v1, 1n) + rotl(v2, 7n) + rotl(v3, 12n) + rotl(v4, 18n)) & MASK;
    h = mergeRound(h, v1);
    h = mergeRound(h, v2);
    h = mergeRound(h, v3);
    h = mergeRound(h, v4);
  } else {
    h = P5;
  }
  h = (h + BigInt(length)) & MASK;
  for (; i + 8 <= length; i += 8) {
    h ^= round(0n, view.getBigUint64(i, true));
    h = (((rotl(h, 27n) * P1) & MASK) + P4) & MASK;
  }
  if (i + 4 <= length) {
    h ^= (BigInt(view.getUint32(i, true)) * P1) & MASK;
    h = (((rotl(h, 23n) * P2) & MASK) + P3) & MASK;
    i += 4;
  }
  for (; i < length; i++) {
    h ^= (BigInt(bytes[i]) * P5) & MASK;
    h = (rotl(h, 11n) * P1) & MASK;
  }
  h ^= h >> 33n;
  h = (h * P2) & MASK;
  h ^= h >> 29n;
  h = (h * P3) & MASK;
  h ^= h >> 32n;
  return h;
}
