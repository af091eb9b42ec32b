import { parseMatcher, type LabelSet, type Matcher } from '../../labels';
import { compileAnchoredRe2, type Re2Pattern } from '../../re2';

/** The query of `GET /api/v2/alerts` and `/alerts/groups`, parsed. */
export interface AlertQuery {
  active: boolean;
  silenced: boolean;
  inhibited: boolean;
  unprocessed: boolean;
  /** HEAD's `muted` (groups only): false drops groups whose every alert is suppressed. */
  muted: boolean;
  matchers: Matcher[];
  /** The `receiver` parameter, a fully anchored regex. */
  receiver: Re2Pattern | undefined;
  /** `receiver_matchers` (upstream 0.33+): matchers on the labels of the alert's receivers. */
  receiverMatchers: Matcher[];
}

// go-openapi's ConvertBool: these words are true, any other value false, absent the default.
const TRUE_WORDS = new Set([
  'true',
  '1',
  'yes',
  'ok',
  'y',
  'on',
  'selected',
  'checked',
  't',
  'enabled',
]);

/** A boolean query parameter as go-openapi reads it: absent is true, else true only for its true-ish words. */
export function queryFlag(params: URLSearchParams, name: string): boolean {
  const value = params.get(name);
  return value === null ? true : TRUE_WORDS.has(value.toLowerCase());
}

/** Parses the query string; throws an Error whose message is upstream's 400 body. */
export function parseAlertQuery(params: URLSearchParams): AlertQuery {
  const matchers = params.getAll('filter').map((f) => parseMatcher(f));
  const receiverText = params.get('receiver');
  let receiver: Re2Pattern | undefined;
  if (receiverText !== null && receiverText !== '') {
    try {
      receiver = compileAnchoredRe2(receiverText);
    } catch (error) {
      throw new Error(`failed to parse receiver param: ${(error as Error).message}`);
    }
  }
  return {
    receiverMatchers: parseReceiverMatchers(params),
    active: queryFlag(params, 'active'),
    silenced: queryFlag(params, 'silenced'),
    inhibited: queryFlag(params, 'inhibited'),
    unprocessed: queryFlag(params, 'unprocessed'),
    muted: queryFlag(params, 'muted'),
    matchers,
    receiver,
  };
}

/** The `receiver_matchers` parameters; throws with upstream's 400 body. */
export function parseReceiverMatchers(params: URLSearchParams): Matcher[] {
  try {
    return params.getAll('receiver_matchers').map((f) => parseMatcher(f));
  } catch (error) {
    throw new Error(`failed to parse receiver_matchers param: ${(error as Error).message}`);
  }
}

/**
 * Whether a receiver's labels pass `receiver_matchers`; a receiver the configuration does not
 * know passes none, and no matchers pass every receiver.
 */
export function receiverPasses(
  matchers: readonly Matcher[],
  labels: ReadonlyMap<string, LabelSet>,
  receiver: string,
): boolean {
  if (matchers.length === 0) return true;
  const known = labels.get(receiver);
  return known !== undefined && matchesFilter(matchers, known);
}

/**
 * The API's label filter, which differs from routing in one respect: `name=""` and `name=~""`
 * match when the label is absent, `name!=""` and `name!~""` when it is present.
 */
export function matchesFilter(matchers: readonly Matcher[], labels: LabelSet): boolean {
  for (const m of matchers) {
    const present = Object.prototype.hasOwnProperty.call(labels, m.name);
    const negative = m.type === '!=' || m.type === '!~';
    if (m.value === '' && present === negative) continue;
    if (!m.matches(present ? labels[m.name] : '')) return false;
  }
  return true;
}
