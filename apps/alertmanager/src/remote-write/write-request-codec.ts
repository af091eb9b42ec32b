import type protobuf from 'protobufjs';
import type * as Snappy from 'snappyjs';

/**
 * The part of Prometheus's `prompb` schema that Remote Write 1.0 carries: series with their
 * labels and float samples. Exemplars and native histograms are declared as opaque bytes, so a
 * receiver can tell they were sent without decoding them.
 */
const SCHEMA = `
syntax = "proto3";
package prometheus;

message WriteRequest {
  repeated TimeSeries timeseries = 1;
  reserved 2;
  repeated bytes metadata = 3;
}

message TimeSeries {
  repeated Label labels = 1;
  repeated Sample samples = 2;
  repeated bytes exemplars = 3;
  repeated bytes histograms = 4;
}

message Label {
  string name = 1;
  string value = 2;
}

message Sample {
  double value = 1;
  int64 timestamp = 2;
}
`;

/** The schema's request type and snappy, loaded at the first request rather than with every server. */
let codec: { request: protobuf.Type; snappy: typeof Snappy } | undefined;

function loadCodec(): { request: protobuf.Type; snappy: typeof Snappy } {
  if (codec !== undefined) return codec;
  /* eslint-disable @typescript-eslint/no-require-imports */
  const pb = require('protobufjs') as typeof protobuf;
  const snappy = require('snappyjs') as typeof Snappy;
  /* eslint-enable @typescript-eslint/no-require-imports */
  codec = { request: pb.parse(SCHEMA).root.lookupType('prometheus.WriteRequest'), snappy };
  return codec;
}

/** One label of a series on the wire. */
export interface WireLabel {
  readonly name: string;
  readonly value: string;
}

/** One sample on the wire; `timestamp` is in milliseconds (a `Long` once decoded). */
export interface WireSample {
  readonly value: number;
  readonly timestamp: number | protobuf.Long;
}

/** One series of a write request. */
export interface WireTimeSeries {
  readonly labels: readonly WireLabel[];
  readonly samples: readonly WireSample[];
  readonly exemplars?: readonly Uint8Array[];
  readonly histograms?: readonly Uint8Array[];
}

/** A `prometheus.WriteRequest`. */
export interface WriteRequest {
  readonly timeseries: readonly WireTimeSeries[];
}

/** A body that is not valid snappy, or whose content is not a write request. */
export class WriteRequestDecodeError extends Error {
  override readonly name = 'WriteRequestDecodeError';
}

/**
 * A snappy block cannot decode to more than about 21 times its size (a 3-byte copy of 64 bytes),
 * so a header declaring more is corrupt or hostile: refused before the output is allocated.
 */
const MAX_EXPANSION = 22;

/** The request body: the protobuf encoding, snappy-compressed in block format. */
export function encodeWriteRequest(request: WriteRequest): Uint8Array {
  const { request: type, snappy } = loadCodec();
  return snappy.compress(type.encode(request as unknown as protobuf.Message).finish());
}

/** The protobuf bytes of a request, before compression (for tests and byte counts). */
export function encodeWriteRequestProto(request: WriteRequest): Uint8Array {
  return loadCodec()
    .request.encode(request as unknown as protobuf.Message)
    .finish();
}

/** Decodes a body as sent: snappy block, then protobuf. */
export function decodeWriteRequest(body: Uint8Array): WriteRequest {
  const { request: type, snappy } = loadCodec();
  let raw: Uint8Array;
  try {
    raw = snappy.uncompress(body, body.length * MAX_EXPANSION + 16);
  } catch {
    throw new WriteRequestDecodeError('snappy: corrupt input');
  }
  try {
    return type.decode(raw) as unknown as WriteRequest;
  } catch (error) {
    throw new WriteRequestDecodeError(`proto: ${(error as Error).message}`);
  }
}

/** A timestamp as decoded (a `Long` for int64: two 32-bit halves) in milliseconds. */
export function timestampMs(t: number | protobuf.Long): number {
  return typeof t === 'number' ? t : t.high * 2 ** 32 + (t.low >>> 0);
}
