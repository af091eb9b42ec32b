import { compress } from 'snappyjs';
import { isStaleNaN, STALE_NAN } from './staleness';
import {
  decodeWriteRequest,
  encodeWriteRequest,
  encodeWriteRequestProto,
  timestampMs,
  WriteRequestDecodeError,
} from './write-request-codec';

/** A value's bits (set one element: an array literal would lose a NaN's payload). */
const bitsOf = (v: number) => {
  const f = new Float64Array(1);
  f[0] = v;
  return new BigUint64Array(f.buffer)[0];
};

describe('the write request codec', () => {
  it('decodes what it encodes, the staleness marker bit for bit', () => {
    const body = encodeWriteRequest({
      timeseries: [
        {
          labels: [
            { name: '__name__', value: 'up' },
            { name: 'job', value: 'a' },
          ],
          samples: [
            { value: 1.5, timestamp: 1_700_000_000_123 },
            { value: STALE_NAN, timestamp: 1_700_000_015_123 },
            { value: NaN, timestamp: 1_700_000_030_123 },
          ],
        },
      ],
    });
    const [series] = decodeWriteRequest(body).timeseries;
    expect(series.labels.map((l) => [l.name, l.value])).toEqual([
      ['__name__', 'up'],
      ['job', 'a'],
    ]);
    expect(series.samples.map((s) => timestampMs(s.timestamp))).toEqual([
      1_700_000_000_123, 1_700_000_015_123, 1_700_000_030_123,
    ]);
    expect(series.samples.map((s) => bitsOf(s.value))).toEqual([
      bitsOf(1.5),
      0x7ff0000000000002n,
      bitsOf(NaN),
    ]);
    expect(series.samples.map((s) => isStaleNaN(s.value))).toEqual([false, true, false]);
  });

  it('writes the protobuf fields of prompb (timeseries 1, labels 1, samples 2)', () => {
    const proto = encodeWriteRequestProto({
      timeseries: [{ labels: [{ name: 'a', value: 'b' }], samples: [{ value: 1, timestamp: 2 }] }],
    });
    // WriteRequest.timeseries (1, bytes) { labels (1) {name "a", value "b"}, samples (2) {1.0, 2} }
    expect(Buffer.from(proto).toString('hex')).toBe(
      '0a150a060a0161120162120b09000000000000f03f1002',
    );
  });

  it('reads negative and large timestamps', () => {
    const body = encodeWriteRequest({
      timeseries: [
        {
          labels: [{ name: 'a', value: 'b' }],
          samples: [
            { value: 1, timestamp: -1 },
            { value: 1, timestamp: 2 ** 50 },
          ],
        },
      ],
    });
    const [series] = decodeWriteRequest(body).timeseries;
    expect(series.samples.map((s) => timestampMs(s.timestamp))).toEqual([-1, 2 ** 50]);
  });

  it.each([
    ['not snappy', Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff]), 'snappy: corrupt input'],
    // A header declaring far more than the block can hold is refused before allocating it.
    [
      'a declared length too long',
      Buffer.from([0x80, 0x80, 0x80, 0x80, 0x08, 0x00]),
      'snappy: corrupt input',
    ],
    ['snappy of a non-protobuf', compress(Buffer.from([0x0a, 0xff, 0x01])), /^proto: /],
  ])('refuses %s', (_name, body, message) => {
    let error: unknown;
    try {
      decodeWriteRequest(body);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(WriteRequestDecodeError);
    expect((error as Error).message).toMatch(message);
  });
});
