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
  for (const body of pending) await post(client, url, body);
}

/** The most bytes of protobuf a request carries: receivers refuse bodies over 4 MiB. */
const MAX_REQUEST_BYTES = 3 << 20;

/**
 * Sends the next `steps` steps of `stream` (a `SampleStream` over `series`), `perRequest` steps in
 * each write request (each series with that many samples; the series split over several requests
 * where they would not fit in one), each request sent before the next is encoded, so a long span
 * needs no more memory than a request.
 */
export async function pushStream(client, url, series, stream, steps, perRequest = 1) {
  const encodedLabels = series.map((s) => encodeLabels(s.labels));
  for (let done = 0; done < steps; done += perRequest) {
    const n = Math.min(perRequest, steps - done);
    const values = Array.from({ length: n }, () => new Float64Array(series.length));
    const times = [];
    for (let k = 0; k < n; k++) {
      stream.next((i, t, v) => {
        values[k][i] = v;
        times[k] = t;
      });
    }
    // Each series takes its labels and about 20 bytes a sample.
    for (let from = 0; from < series.length;) {
      let to = from;
      let bytes = 0;
      while (to < series.length && (to === from || bytes < MAX_REQUEST_BYTES)) {
        bytes += encodedLabels[to].length + 24 * n;
        to++;
      }
      const slice = values.map((v) => v.subarray(from, to));
      await post(
        client,
        url,
        snappyBlock(encodeSteps(encodedLabels.slice(from, to), slice, times)),
      );
      from = to;
    }
  }
}

/** A write request with the samples of `times.length` steps per series, written into one buffer. */
function encodeSteps(encodedLabels, values, times) {
  const encodedTimes = times.map((t) => varint(t));
  // A sample: value (field 1, fixed64) and timestamp (field 2, varint); each is field 2 of its series.
  const samplesLength = encodedTimes.reduce((n, time) => n + 2 + 1 + 8 + 1 + time.length, 0);
  let size = 0;
  for (const labels of encodedLabels) {
    const length = labels.length + samplesLength;
    size += 1 + varintLength(length) + length;
  }
  const out = Buffer.alloc(size);
  let at = 0;
  const writeVarint = (n) => {
    while (n >= 0x80) {
      out[at++] = (n & 0x7f) | 0x80;
      n = Math.floor(n / 128);
    }
    out[at++] = n;
  };
  for (let i = 0; i < encodedLabels.length; i++) {
    out[at++] = 0x0a;
    writeVarint(encodedLabels[i].length + samplesLength);
    encodedLabels[i].copy(out, at);
    at += encodedLabels[i].length;
    for (let k = 0; k < times.length; k++) {
      out[at++] = 0x12;
      out[at++] = 1 + 8 + 1 + encodedTimes[k].length;
      out[at++] = 0x09;
      out.writeDoubleLE(values[k][i], at);
      at += 8;
      out[at++] = 0x10;
      encodedTimes[k].copy(out, at);
      at += encodedTimes[k].length;
    }
  }
  return out;
}

function varintLength(n) {
  let length = 1;
  while (n >= 0x80) {
    n = Math.floor(n / 128);
    length++;
  }
  return length;
}

/** One write request, as a remote-write sender makes it; throws on an answer other than 2xx. */
async function post(client, url, body) {
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
