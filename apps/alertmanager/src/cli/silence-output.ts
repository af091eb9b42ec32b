import { formatTime } from '../template/funcs/go-time';
import { tabulate } from './tab-writer';

/** A matcher as the API returns it. */
export interface ListedMatcher {
  name: string;
  value: string;
  isRegex: boolean;
  isEqual?: boolean;
}

/** A gettableSilence as the API returns it, with the fields amtool prints and posts back. */
export interface ListedSilence {
  id: string;
  status?: { state: string };
  updatedAt?: string;
  comment: string;
  createdBy: string;
  startsAt: string;
  endsAt: string;
  matchers: ListedMatcher[];
}

/** `name="value"` with the matcher's operator, as amtool prints matchers. */
export function matcherText(m: ListedMatcher): string {
  const op = m.isRegex ? (m.isEqual === false ? '!~' : '=~') : m.isEqual === false ? '!=' : '=';
  const value = m.value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
  return `${m.name}${op}"${value}"`;
}

/**
 * `amtool silence query` output: `simple` (ID, Matchers space-separated, Ends At, Created By,
 * Comment), `extended` (adds Starts At and Updated At, matchers as `{a="1",b="2"}`), `json` (the
 * API's array on one line), or only the ids with `quiet`.
 */
export function formatSilences(
  silences: readonly ListedSilence[],
  output: string,
  dateFormat: string,
  quiet = false,
): string[] {
  if (quiet) return silences.map((s) => s.id);
  if (output === 'json') return [JSON.stringify(silences)];
  const date = (text: string | undefined) =>
    text === undefined ? '' : formatTime(Date.parse(text), dateFormat, 'UTC');
  if (output === 'extended') {
    return tabulate([
      'ID\tMatchers\tStarts At\tEnds At\tUpdated At\tCreated By\tComment\t',
      ...silences.map(
        (s) =>
          `${s.id}\t{${s.matchers.map(matcherText).join(',')}}\t${date(s.startsAt)}\t` +
          `${date(s.endsAt)}\t${date(s.updatedAt)}\t${s.createdBy}\t${s.comment}\t`,
      ),
    ]);
  }
  return tabulate([
    'ID\tMatchers\tEnds At\tCreated By\tComment\t',
    ...silences.map(
      (s) =>
        `${s.id}\t${s.matchers.map(matcherText).join(' ')}\t${date(s.endsAt)}\t${s.createdBy}\t${s.comment}\t`,
    ),
  ]);
}
