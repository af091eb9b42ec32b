import { callApi, type AmtoolTarget } from './amtool-http';
import { flagDuration, matcherArgs } from './silence-args';
import { formatSilences, type ListedSilence } from './silence-output';

/** The options of `silence query`. */
export interface SilenceQueryOptions {
  matchers: string[];
  expired: boolean;
  quiet: boolean;
  createdBy: string;
  within: string;
  output: string;
  dateFormat: string;
}

/** Fetches silences through `GET /api/v2/silences`, the matchers sent as `filter`. */
export async function fetchSilences(
  target: AmtoolTarget,
  matchers: readonly string[],
): Promise<ListedSilence[]> {
  const query = new URLSearchParams();
  for (const m of matcherArgs(matchers)) query.append('filter', m.toString());
  const silences = await callApi(target, {
    method: 'GET',
    path: '/silences',
    operation: 'getSilences',
    query,
  });
  return (silences ?? []) as ListedSilence[];
}

/**
 * `amtool silence query`: the server filters by matchers; the client keeps silences not yet
 * ended (or, with `--expired`, only ended ones), optionally ending `--within` a duration of now
 * and created by `--created-by`. Time is an input for tests.
 */
export async function runSilenceQuery(
  target: AmtoolTarget,
  options: SilenceQueryOptions,
  out: (line: string) => void,
  now: number = Date.now(),
): Promise<number> {
  const within = options.within === '' ? 0 : flagDuration(options.within);
  const kept = (await fetchSilences(target, options.matchers)).filter((s) => {
    const endsAt = Date.parse(s.endsAt);
    if (options.expired ? endsAt > now : endsAt < now) return false;
    if (within > 0 && (options.expired ? endsAt < now - within : endsAt > now + within)) {
      return false;
    }
    return options.createdBy === '' || s.createdBy === options.createdBy;
  });
  formatSilences(kept, options.output, options.dateFormat, options.quiet).forEach(out);
  return 0;
}
