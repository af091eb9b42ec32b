/**
 * Node 20's growable `SharedArrayBuffer` (ES2024), typed here because the project's library
 * target is ES2023. Memory is reserved up to `maxByteLength` and committed as it grows; views
 * made without a length follow the growth, on every thread the buffer was posted to.
 */
interface GrowableSharedArrayBuffer extends SharedArrayBuffer {
  readonly maxByteLength: number;
  grow(byteLength: number): void;
}

type GrowableConstructor = new (
  byteLength: number,
  options: { maxByteLength: number },
) => GrowableSharedArrayBuffer;

/** A shared buffer of `byteLength` bytes that can grow to `maxByteLength`. */
export function growableSharedBuffer(byteLength: number, maxByteLength: number): SharedArrayBuffer {
  return new (SharedArrayBuffer as unknown as GrowableConstructor)(byteLength, { maxByteLength });
}

/** Grows `buffer` to at least `byteLength` bytes (at most its maximum); false when it cannot. */
export function growSharedBuffer(buffer: SharedArrayBuffer, byteLength: number): boolean {
  const growable = buffer as GrowableSharedArrayBuffer;
  if (byteLength <= growable.byteLength) return true;
  if (byteLength > growable.maxByteLength) return false;
  growable.grow(byteLength);
  return true;
}
