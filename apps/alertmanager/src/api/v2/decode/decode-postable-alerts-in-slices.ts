import type { PostedAlert } from '../../../alerts/alert-ingest';
import {
  ALERTS_REQUIRED,
  alertsBodyFailed,
  notAnAlertsArray,
  PostableAlertsDecoder,
  type BodyRejection,
} from './decode-postable-alerts';
import { GoJsonScanner } from '../../json/go-json-scanner';
import { isBlank } from '../../json/go-json-syntax';
import type { Json } from '../../json/parse-json-as-go';

/** How much work is done between two pauses. */
export interface SliceSizes {
  /** Bytes scanned: 256 KiB by default, well under a millisecond of work. */
  bytes: number;
  /** Alerts parsed and decoded: 500 by default. */
  alerts: number;
}

const DEFAULT_SLICES: SliceSizes = { bytes: 256 * 1024, alerts: 500 };

/** Lets other work run (another request, a health check) before decoding goes on. */
export type Pause = () => Promise<void>;

// The value a top-level byte starts, for Go's `cannot unmarshal <type>` message.
function valueStartedBy(first: number | undefined): Json {
  if (first === 0x7b) return {};
  if (first === 0x22) return '';
  if (first === 0x74 || first === 0x66) return true;
  if (first === 0x6e) return null;
  return 0;
}

/**
 * {@link decodePostableAlerts} for long bodies, with the same answers, in slices with a pause
 * between them, so that a body of tens of megabytes never holds the event loop for long: the
 * syntax is checked by Go's scanner a slice of bytes at a time (which also finds where each
 * alert of the array starts and ends), then each alert is parsed and decoded on its own.
 */
export async function decodePostableAlertsInSlices(
  body: Buffer,
  pause: Pause,
  slices: SliceSizes = DEFAULT_SLICES,
): Promise<PostedAlert[] | BodyRejection> {
  if (isBlank(body)) return ALERTS_REQUIRED;
  const scanner = new GoJsonScanner(body);
  let scan = scanner.scan(slices.bytes);
  while (scan === undefined) {
    await pause();
    scan = scanner.scan(slices.bytes);
  }
  if (scan.error !== undefined) return alertsBodyFailed(scan.error);
  if (scan.first !== 0x5b) {
    const value = valueStartedBy(scan.first);
    return value === null ? [] : notAnAlertsArray(value);
  }
  const decoder = new PostableAlertsDecoder();
  for (const [index, [start, end]] of scan.elements.entries()) {
    if (index > 0 && index % slices.alerts === 0) await pause();
    const stop = decoder.item(JSON.parse(body.toString('utf8', start, end)) as Json, index);
    if (stop) return stop;
  }
  return decoder.result();
}
