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
    active: queryFlag(params, 'active'),
    silenced: queryFlag(params, 'silenced'),
    inhibited: queryFlag(params, 'inhibited'),
    unprocessed: queryFlag(params, 'unprocessed'),
    muted: queryFlag(params, 'muted'),
    matchers,
    receiver,
  };
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
