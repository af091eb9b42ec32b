/**
 * Prometheus's staleness marker: a NaN with the bit pattern `0x7ff0000000000002`, which tells a
 * receiver that a series ended. A plain NaN is an ordinary value. The pattern only survives in
 * typed arrays and object fields: V8 rewrites NaNs stored in a plain array of numbers to its
 * canonical one, so a marker must never pass through `number[]`.
 */
export const STALE_NAN: number = new Float64Array(
  new BigUint64Array([0x7ff0000000000002n]).buffer,
)[0];

const scratch = new Float64Array(1);
const scratchBits = new BigUint64Array(scratch.buffer);

/** Whether `v` carries the staleness marker's bits (not just any NaN). */
export function isStaleNaN(v: number): boolean {
  if (!Number.isNaN(v)) return false;
  scratch[0] = v;
  return scratchBits[0] === 0x7ff0000000000002n;
}
