import { isValidLabelName, Matcher, type MatchType } from '../labels';
import { checkRe2 } from '../re2';
import type { SilenceInput } from './silence';

/** A matcher as the API carries it: `isEqual` false makes it negative. */
export interface MatcherInput {
  name: string;
  value: string;
  isRegex: boolean;
  isEqual: boolean;
}

/**
 * A silence the server refuses, with the HTTP status the API answers: 400 for invalid input and
 * for the limits, 404 for an update of an unknown id. The message is the response body.
 */
export class SilenceError extends Error {
  override readonly name = 'SilenceError';

  constructor(
    message: string,
    readonly status: 400 | 404 = 400,
  ) {
    super(message);
  }
}

/** The 404 of an unknown silence id, in upstream's words. */
export const silenceNotFound = (): SilenceError => new SilenceError('silence not found', 404);

const invalid = (why: string) => new SilenceError(`silence invalid: ${why}`);

/** The operator of an API matcher. */
export function matchType(m: Pick<MatcherInput, 'isRegex' | 'isEqual'>): MatchType {
  if (m.isRegex) return m.isEqual ? '=~' : '!~';
  return m.isEqual ? '=' : '!=';
}

/**
 * Builds the matchers of a silence, checking each as upstream's `validateMatcher` does: the label
 * name's syntax, then the regex. Errors read `silence invalid: invalid label matcher <i>: ...`,
 * quoting the regex as the client sent it (not anchored).
 */
export function buildMatchers(inputs: readonly MatcherInput[]): Matcher[] {
  if (inputs.length === 0) throw invalid('at least one matcher required');
  return inputs.map((m, i) => {
    if (!isValidLabelName(m.name)) {
      throw invalid(`invalid label matcher ${i}: invalid label name ${JSON.stringify(m.name)}`);
    }
    if (m.isRegex) {
      try {
        checkRe2(m.value);
      } catch (error) {
        const why = `invalid regular expression ${JSON.stringify(m.value)}: ${(error as Error).message}`;
        throw invalid(`invalid label matcher ${i}: ${why}`);
      }
    }
    return new Matcher(matchType(m), m.name, m.value);
  });
}

/** Whether a matcher accepts the empty string; negative matchers count as not accepting it. */
function matchesEmpty(m: Matcher): boolean {
  if (m.type === '=') return m.value === '';
  if (m.type === '=~') return m.matches('');
  return false;
}

/** The API layer's first checks, made before the matchers: start before end, end not past. */
export function checkSilenceTimes(
  input: Pick<SilenceInput, 'startsAt' | 'endsAt'>,
  now: number,
): void {
  if (input.startsAt >= input.endsAt) {
    throw new SilenceError('Failed to create silence: start time must be before end time');
  }
  if (input.endsAt < now) {
    throw new SilenceError("Failed to create silence: end time can't be in the past");
  }
}

/**
 * The checks of upstream's API layer and `validateSilence`, in their order, on a silence whose
 * matchers are already built: start before end, end not in the past, a matcher that does not
 * match the empty string (a silence of only `a=""` would mute every alert), author and comment.
 */
export function validateSilence(input: SilenceInput, now: number): void {
  checkSilenceTimes(input, now);
  if (input.matchers.every(matchesEmpty)) {
    throw invalid('at least one matcher must not match the empty string');
  }
  // The schema already requires both; an empty string slips through it, as upstream's does not.
  if (input.createdBy.trim() === '') throw invalid('createdBy must not be empty');
  if (input.comment.trim() === '') throw invalid('comment must not be empty');
}
