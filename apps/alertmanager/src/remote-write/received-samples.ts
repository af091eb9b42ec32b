import { Labels } from '../tsdb/labels';
import { isStaleNaN } from './staleness';
import { decodeWriteRequest, timestampMs, WriteRequestDecodeError } from './write-request-codec';

/**
 * A write request's samples in a flat form that crosses threads without copying its numbers:
 * series `i` has `labelCounts[i]` labels (names and values sorted as a `Labels` holds them, from
 * `names`/`values` in order) and `sampleCounts[i]` samples (from `t`, `v`, `stale` in order).
 */
export interface ReceivedSamples {
  readonly kind: 'samples';
  readonly names: readonly string[];
  readonly values: readonly string[];
  readonly labelCounts: Int32Array;
  readonly sampleCounts: Int32Array;
  readonly t: Float64Array;
  readonly v: Float64Array;
  /** 1 where the sample is a staleness marker. */
  readonly stale: Uint8Array;
}

/** A request refused whole, with upstream's answer; `undecodable`: the body did not decode. */
export interface RefusedWrite {
  readonly kind: 'refused';
  readonly status: number;
  readonly message: string;
  readonly undecodable: boolean;
}

/**
 * Decodes a write request body and checks every series before anything is appended, as
 * Prometheus's receiver does: a body that does not decode, a label name twice, a series without
 * labels (empty values dropped) or with native histograms refuses the request whole.
 */
export function receivedSamples(body: Uint8Array): ReceivedSamples | RefusedWrite {
  let request;
  try {
    request = decodeWriteRequest(body);
  } catch (error) {
    if (!(error instanceof WriteRequestDecodeError)) throw error;
    return { kind: 'refused', status: 400, message: error.message, undecodable: true };
  }
  const series = request.timeseries;
  const names: string[] = [];
  const values: string[] = [];
  const labelCounts = new Int32Array(series.length);
  const sampleCounts = new Int32Array(series.length);
  let total = 0;
  for (const [i, s] of series.entries()) {
    const seen = new Set<string>();
    for (const { name } of s.labels) {
      if (seen.has(name)) return invalid(`label name ${JSON.stringify(name)} is not unique`);
      seen.add(name);
    }
    const labels = Labels.from(s.labels.map((l) => [l.name, l.value] as const));
    if (labels.size === 0) return invalid('empty labelset');
    if ((s.histograms?.length ?? 0) > 0) {
      return {
        kind: 'refused',
        status: 400,
        message: 'native histograms are not supported',
        undecodable: false,
      };
    }
    names.push(...labels.names);
    values.push(...labels.values);
    labelCounts[i] = labels.size;
    sampleCounts[i] = s.samples.length;
    total += s.samples.length;
  }
  const t = new Float64Array(total);
  const v = new Float64Array(total);
  const stale = new Uint8Array(total);
  let at = 0;
  for (const s of series) {
    for (const sample of s.samples) {
      t[at] = timestampMs(sample.timestamp);
      if (isStaleNaN(sample.value)) stale[at] = 1;
      else v[at] = sample.value;
      at++;
    }
  }
  return { kind: 'samples', names, values, labelCounts, sampleCounts, t, v, stale };
}

/** Upstream's wording for a series the store cannot hold. */
function invalid(reason: string): RefusedWrite {
  return { kind: 'refused', status: 400, message: `invalid sample: ${reason}`, undecodable: false };
}
