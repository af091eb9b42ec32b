import { encodeRecord, RecordReader, type RecordWriter } from './record-codec';
import type { SampleChain } from './sample-chain';
import type { SampleBatch } from './wal-records';

/** The record type of XOR-encoded samples. */
export const XOR_SAMPLES = 5;

const bits = new ArrayBuffer(8);
const words = new Uint32Array(bits);
const float = new Float64Array(bits);
/** Index of the high and low 32-bit words of a float64 on this machine. */
const HI = new Uint8Array(new Float64Array([1]).buffer)[7] === 0x3f ? 1 : 0;
const LO = 1 - HI;
/** The control byte of a staleness marker (no value bytes follow). */
const STALE_CONTROL = 0xff;

const zigzag = (n: number) => (n >= 0 ? 2 * n : -2 * n - 1);
const unzigzag = (n: number) => (n % 2 === 0 ? n / 2 : -(n + 1) / 2);

/**
 * Samples as an `XOR_SAMPLES` record, about 4 bytes a sample for scrapes against 17 plain:
 * series ids as differences from the one before, timestamps once when all are equal (a scrape)
 * or as differences from the first, and each value XORed with the series' last one in `chain`
 * (see {@link SampleChain}), written as a control byte (leading and trailing zero bytes of the
 * XOR) and the bytes between. `undefined` when a timestamp is not a whole number of ms.
 */
export function encodeXorSamples(batch: SampleBatch, chain: SampleChain): Buffer | undefined {
  const n = batch.ids.length;
  const t0 = batch.t[0];
  let shared = true;
  for (let i = 0; i < n; i++) {
    if (!Number.isSafeInteger(batch.t[i])) return undefined;
    if (batch.t[i] !== t0) shared = false;
  }
  return encodeRecord((w) => {
    w.byte(XOR_SAMPLES);
    w.uvarint(n);
    w.uvarint(zigzag(t0));
    w.byte(shared ? 1 : 0);
    let previousId = 0;
    for (let i = 0; i < n; i++) {
      const id = batch.ids[i];
      w.uvarint(zigzag(id - previousId));
      previousId = id;
      if (!shared) w.uvarint(zigzag(batch.t[i] - t0));
      if (batch.stale[i]) {
        w.byte(STALE_CONTROL);
        continue;
      }
      float[0] = batch.v[i];
      const hi = words[HI];
      const lo = words[LO];
      writeXor(w, (hi ^ chain.high(id)) >>> 0, (lo ^ chain.low(id)) >>> 0);
      chain.set(id, hi, lo);
    }
  });
}

/** The XOR's eight bytes, high first, as control byte and the bytes between the zero runs. */
function writeXor(w: RecordWriter, hi: number, lo: number): void {
  const bytes = [
    hi >>> 24,
    (hi >>> 16) & 0xff,
    (hi >>> 8) & 0xff,
    hi & 0xff,
    lo >>> 24,
    (lo >>> 16) & 0xff,
    (lo >>> 8) & 0xff,
    lo & 0xff,
  ];
  let lead = 0;
  while (lead < 8 && bytes[lead] === 0) lead++;
  let trail = 0;
  while (lead + trail < 8 && bytes[7 - trail] === 0) trail++;
  w.byte((lead << 4) | trail);
  for (let k = lead; k < 8 - trail; k++) w.byte(bytes[k]);
}

export function readXorSamples(r: RecordReader, n: number, chain: SampleChain): SampleBatch {
  const batch: SampleBatch = { ids: [], t: [], v: [], stale: [] };
  const t0 = unzigzag(r.uvarint());
  const shared = r.byte() === 1;
  let id = 0;
  for (let i = 0; i < n; i++) {
    id += unzigzag(r.uvarint());
    batch.ids.push(id);
    batch.t.push(shared ? t0 : t0 + unzigzag(r.uvarint()));
    const control = r.byte();
    if (control === STALE_CONTROL) {
      batch.v.push(NaN);
      batch.stale.push(true);
      continue;
    }
    const lead = control >>> 4;
    const trail = control & 0x0f;
    if (lead + trail > 8) throw new Error('bad value control byte');
    let hi = 0;
    let lo = 0;
    for (let k = lead; k < 8 - trail; k++) {
      const b = r.byte();
      if (k < 4) hi |= b << (8 * (3 - k));
      else lo |= b << (8 * (7 - k));
    }
    hi = (hi ^ chain.high(id)) >>> 0;
    lo = (lo ^ chain.low(id)) >>> 0;
    chain.set(id, hi, lo);
    words[HI] = hi;
    words[LO] = lo;
    batch.v.push(float[0]);
    batch.stale.push(false);
  }
  return batch;
}
