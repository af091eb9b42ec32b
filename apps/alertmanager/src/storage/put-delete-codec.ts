/** A journal record: items as they now are, or the keys of items removed. */
export type PutDeleteRecord<T> = { put: T[] } | { del: string[] };

/**
 * How one kind of item is written in records. Items are stored as positional tuples, which keeps
 * records about a third smaller than objects with field names; `fromTuple` throws on a tuple
 * that is not one of its items, which loading reports as corruption.
 */
export interface TupleCodec<T, Tuple = unknown[]> {
  toTuple(item: T): Tuple;
  fromTuple(tuple: Tuple): T;
}

/** Serialises a record as the payload of one frame: `{"p":[tuples]}` or `{"d":[keys]}`. */
export function encodePutDelete<T, Tuple>(
  record: PutDeleteRecord<T>,
  codec: TupleCodec<T, Tuple>,
): Buffer {
  const body =
    'put' in record ? { p: record.put.map((item) => codec.toTuple(item)) } : { d: record.del };
  return Buffer.from(JSON.stringify(body));
}

/** Reads a record back; throws on a payload that is not one (reported as corruption). */
export function decodePutDelete<T, Tuple>(
  payload: Buffer,
  codec: TupleCodec<T, Tuple>,
): PutDeleteRecord<T> {
  const body = JSON.parse(payload.toString('utf8')) as { p?: Tuple[]; d?: unknown[] };
  if (Array.isArray(body.p)) return { put: body.p.map((tuple) => codec.fromTuple(tuple)) };
  if (Array.isArray(body.d) && body.d.every((key) => typeof key === 'string'))
    return { del: body.d as string[] };
  throw new Error('unknown record type');
}
