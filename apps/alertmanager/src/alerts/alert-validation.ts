import { isValidLabelName, type LabelSet } from '../labels';

// A UTF-16 string is valid UTF-8 once encoded unless it holds a lone surrogate.
// (No `u` flag: with it a regex sees code points and could not match half a pair.)
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** What validation needs of an alert; times in ms, 0 for unset. */
export interface AlertFields {
  labels: LabelSet;
  annotations: LabelSet;
  startsAt: number;
  endsAt: number;
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

/**
 * Upstream's `Alert.Validate`, with its messages and in its order. Called after defaulting, so a
 * zero start only remains when the client sent neither time.
 */
export function validateAlert(alert: AlertFields): string | undefined {
  if (alert.startsAt === 0) return 'start time missing';
  if (alert.endsAt !== 0 && alert.endsAt < alert.startsAt) {
    return 'start time must be before end time';
  }
  const labelError = labelSetError(alert.labels);
  if (labelError) return `invalid label set: ${labelError}`;
  if (Object.keys(alert.labels).length === 0) return 'at least one label pair required';
  const annotationError = labelSetError(alert.annotations);
  if (annotationError) return `invalid annotations: ${annotationError}`;
  return undefined;
}
