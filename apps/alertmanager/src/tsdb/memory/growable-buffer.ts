/**
 * Node 20's growable `SharedArrayBuffer` and resizable `ArrayBuffer` (ES2024), typed here because
 * the project's library target is ES2023. Memory is reserved up to `maxByteLength` and committed
 * as it grows; views made without a length follow the growth (of a shared one, on every thread
 * the buffer was posted to).
 */
type Sized<B, Grow extends string> = B & { readonly maxByteLength: number } & Record<
    Grow,
    (byteLength: number) => void
  >;
type GrowableSharedArrayBuffer = Sized<SharedArrayBuffer, 'grow'>;
type ResizableArrayBuffer = Sized<ArrayBuffer, 'resize'>;
type SizedConstructor<B> = new (byteLength: number, options: { maxByteLength: number }) => B;
type GrowableConstructor = SizedConstructor<GrowableSharedArrayBuffer>;
type ResizableConstructor = SizedConstructor<ResizableArrayBuffer>;

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

type TypedArray = Float64Array | Int32Array | Uint32Array | Uint8Array;

/**
 * A typed array of `length` elements over a resizable `ArrayBuffer` that can grow to `maxLength`
 * (`growArray`), the array following its buffer. V8 reserves the buffer's address space and
 * commits it as it grows, outside the C heap: arrays by series id that grew by doubling into new
 * arrays left each outgrown one to glibc's allocator, whose heap kept the pages once they were
 * freed. Scraping 100,000 series, that heap held 47 to 59 MiB; 25 with these arrays outside it
 * (see BENCHMARKS.md).
 */
export function resizableArray<T extends TypedArray>(
  Type: { new (buffer: ArrayBuffer): T; readonly BYTES_PER_ELEMENT: number },
  length: number,
  maxLength: number,
): T {
  const bytes = Type.BYTES_PER_ELEMENT;
  const buffer = new (ArrayBuffer as unknown as ResizableConstructor)(length * bytes, {
    maxByteLength: maxLength * bytes,
  });
  return new Type(buffer);
}

/**
 * Grows an array made by `resizableArray` in place to at least `length` elements (doubling, up
 * to its maximum); new elements are zero. Throws when `length` is past its maximum.
 */
export function growArray(array: TypedArray, length: number): void {
  if (length <= array.length) return;
  const buffer = array.buffer as ResizableArrayBuffer;
  const bytes = array.BYTES_PER_ELEMENT;
  if (length * bytes > buffer.maxByteLength) {
    throw new Error(`metric store full: ${buffer.maxByteLength / bytes} entries`);
  }
  buffer.resize(Math.min(Math.max(length, array.length * 2) * bytes, buffer.maxByteLength));
}
