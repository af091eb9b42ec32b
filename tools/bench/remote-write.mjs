// Prometheus's remote-write protocol, to load a benchmark's samples into Debian's `prometheus`
// through `--web.enable-remote-write-receiver`: protobuf by hand, snappy as literal runs.
import { generateSamples } from './spec-metrics.mjs';

/**
 * Sends every sample of `series` from `start`, `steps` steps of `stepMs`, one write request per
 * step (all series at one time), in time order, as scrapes would deliver them.
 */
export async function pushSamples(client, url, series, start, steps, stepMs) {
  const batch = new Array(series.length);
  const pending = [];
  const encodedLabels = series.map((s) => encodeLabels(s.labels));
  let filled = 0;
  generateSamples(series, start, steps, stepMs, (i, t, v) => {
    batch[i] = [t, v];
    if (++filled === series.length) {
      filled = 0;
      pending.push(snappyBlock(encodeWriteRequest(encodedLabels, batch)));
    }
  });
  for (const body of pending) {
    const res = await client.request(`${url}/api/v1/write`, {
      method: 'POST',
      headers: {
        'Content-Encoding': 'snappy',
        'Content-Type': 'application/x-protobuf',
        'X-Prometheus-Remote-Write-Version': '0.1.0',
      },
      body,
    });
    if (res.status >= 300) throw new Error(`remote write: ${res.status} ${res.body}`);
  }
}

function varint(value) {
  const out = [];
  let v = BigInt(value);
  if (v < 0n) v += 1n << 64n;
  while (v >= 0x80n) {
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  out.push(Number(v));
  return Buffer.from(out);
}

function field(number, wireType, payload) {
  return Buffer.concat([varint((number << 3) | wireType), payload]);
}

function bytesField(number, payload) {
  return field(number, 2, Buffer.concat([varint(payload.length), payload]));
}

function encodeLabels(labels) {
  const names = Object.keys(labels).sort();
  return Buffer.concat(
    names.map((n) =>
      bytesField(
        1,
        Buffer.concat([bytesField(1, Buffer.from(n)), bytesField(2, Buffer.from(labels[n]))]),
      ),
    ),
  );
}

function encodeWriteRequest(encodedLabels, batch) {
  const parts = [];
  for (let i = 0; i < batch.length; i++) {
    const [t, v] = batch[i];
    const value = Buffer.alloc(8);
    value.writeDoubleLE(v);
    const sample = Buffer.concat([field(1, 1, value), field(2, 0, varint(t))]);
    parts.push(bytesField(1, Buffer.concat([encodedLabels[i], bytesField(2, sample)])));
  }
  return Buffer.concat(parts);
}

/** Snappy's block format with every byte in literal runs: valid, just not smaller. */
function snappyBlock(data) {
  const parts = [varint(data.length)];
  for (let at = 0; at < data.length; at += 65536) {
    const chunk = data.subarray(at, at + 65536);
    const n = chunk.length - 1;
    if (n < 60) parts.push(Buffer.from([n << 2]));
    else if (n < 256) parts.push(Buffer.from([60 << 2, n]));
    else parts.push(Buffer.from([61 << 2, n & 0xff, n >> 8]));
    parts.push(chunk);
  }
  return Buffer.concat(parts);
}
