import { isValidLabelName, type LabelSet } from '../labels';
import { GO_ZERO_TIME } from '../time/go-zero-time';

// A UTF-16 string is valid UTF-8 once encoded unless it holds a lone surrogate.
// (No `u` flag: with it a regex sees code points and could not match half a pair.)
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** What validation needs of an alert; unset times are Go's zero time. */
export interface AlertFields {
  labels: LabelSet;
  annotations: LabelSet;
  startsAt: number;
  endsAt: number;
  generatorURL?: string;
}

/** Upstream's `LabelSet.Validate`: the first bad name or value, or undefined. */
export function labelSetError(labels: LabelSet): string | undefined {
  for (const name of Object.keys(labels)) {
    if (!isValidLabelName(name)) return `invalid name ${JSON.stringify(name)}`;
    if (LONE_SURROGATE.test(labels[name])) {
      return `invalid value ${JSON.stringify(labels[name])}`;
    }
  }
  return undefined;
}

/** Bounds on the size of one alert, in UTF-8 bytes; 0 for no bound. */
export interface AlertLimits {
  /** Label names and values together (`--alerts.max-labels-size-bytes`). */
  maxLabelsBytes: number;
  /** Annotation names and values and the generator URL (`--alerts.max-annotations-size-bytes`). */
  maxAnnotationsBytes: number;
}

/** No bounds: upstream's own validation only. */
export const NO_ALERT_LIMITS: AlertLimits = { maxLabelsBytes: 0, maxAnnotationsBytes: 0 };

/**
 * Upstream's `Alert.Validate`, with its messages and in its order, then this server's bounds on
 * an alert's size (every label value is matched against routes, silences and inhibit rules, so
 * an unbounded one would make each of those matches as long as the value). Called after
 * defaulting, so a zero start only remains when the client sent neither time.
 */
export function validateAlert(
  alert: AlertFields,
  limits: AlertLimits = NO_ALERT_LIMITS,
): string | undefined {
  if (alert.startsAt === GO_ZERO_TIME) return 'start time missing';
  if (alert.endsAt !== GO_ZERO_TIME && alert.endsAt < alert.startsAt) {
    return 'start time must be before end time';
  }
  const labelError = labelSetError(alert.labels);
  if (labelError) return `invalid label set: ${labelError}`;
  if (Object.keys(alert.labels).length === 0) return 'at least one label pair required';
  const annotationError = labelSetError(alert.annotations);
  if (annotationError) return `invalid annotations: ${annotationError}`;
  return sizeError(alert, limits);
}

function sizeError(alert: AlertFields, limits: AlertLimits): string | undefined {
  const labels = overLimit([alert.labels], '', limits.maxLabelsBytes);
  if (labels !== undefined) {
    return `invalid label set: labels take ${labels} bytes, more than the ${limits.maxLabelsBytes} allowed by --alerts.max-labels-size-bytes`;
  }
  const url = alert.generatorURL ?? '';
  const annotations = overLimit([alert.annotations], url, limits.maxAnnotationsBytes);
  if (annotations !== undefined) {
    return `invalid annotations: annotations and generator URL take ${annotations} bytes, more than the ${limits.maxAnnotationsBytes} allowed by --alerts.max-annotations-size-bytes`;
  }
  return undefined;
}

/** The UTF-8 size of the names and values (and `extra`) when it is over `limit`, else undefined. */
function overLimit(sets: LabelSet[], extra: string, limit: number): number | undefined {
  if (limit <= 0) return undefined;
  let units = extra.length;
  for (const set of sets) for (const name in set) units += name.length + set[name].length;
  // A UTF-16 unit is at most 3 UTF-8 bytes: most alerts are decided without encoding anything.
  if (units * 3 <= limit) return undefined;
  let bytes = Buffer.byteLength(extra);
  for (const set of sets) {
    for (const name in set) bytes += Buffer.byteLength(name) + Buffer.byteLength(set[name]);
  }
  return bytes > limit ? bytes : undefined;
}
