import { AmtoolError } from './amtool-error';
import { callApi, type AmtoolTarget } from './amtool-http';
import { apiTime, flagDuration, flagTime } from './silence-args';
import { formatSilences, type ListedSilence } from './silence-output';

/** The options of `silence update`. */
export interface SilenceUpdateOptions {
  ids: string[];
  quiet: boolean;
  duration: string;
  start: string;
  end: string;
  comment: string;
  output: string;
  dateFormat: string;
}

/** A silence as `POST /api/v2/silences` takes it, from one the API returned. */
export function postable(s: ListedSilence, withId: boolean): Record<string, unknown> {
  return {
    ...(withId ? { id: s.id } : {}),
    comment: s.comment,
    createdBy: s.createdBy,
    endsAt: s.endsAt,
    matchers: s.matchers,
    startsAt: s.startsAt,
  };
}

const getSilence = async (target: AmtoolTarget, id: string) =>
  (await callApi(target, {
    method: 'GET',
    path: `/silence/${encodeURIComponent(id)}`,
    operation: 'getSilence',
    route: '/silence/{silenceID}',
  })) as ListedSilence;

/** `amtool silence expire`: expires each silence; nothing is printed. */
export async function runSilenceExpire(target: AmtoolTarget, ids: string[]): Promise<number> {
  if (ids.length === 0) throw new AmtoolError('no silence IDs specified');
  for (const id of ids) {
    await callApi(target, {
      method: 'DELETE',
      path: `/silence/${encodeURIComponent(id)}`,
      operation: 'deleteSilence',
      route: '/silence/{silenceID}',
    });
  }
  return 0;
}

/**
 * `amtool silence update`: reads each silence, changes its start, end (`--end`, or its start
 * plus `--duration`) and comment, and posts it back with its id, sending the stored start so the
 * server can keep the id. Prints the resulting silences (or their ids with `--quiet`).
 */
export async function runSilenceUpdate(
  target: AmtoolTarget,
  options: SilenceUpdateOptions,
  out: (line: string) => void,
): Promise<number> {
  if (options.ids.length === 0) throw new AmtoolError('no silence IDs specified');
  const updated: ListedSilence[] = [];
  for (const id of options.ids) {
    const silence = await getSilence(target, id);
    if (options.start !== '') silence.startsAt = apiTime(flagTime(options.start));
    if (options.end !== '') silence.endsAt = apiTime(flagTime(options.end));
    else if (options.duration !== '') {
      silence.endsAt = apiTime(Date.parse(silence.startsAt) + flagDuration(options.duration));
    }
    if (options.comment !== '') silence.comment = options.comment;
    const answer = (await callApi(target, {
      method: 'POST',
      path: '/silences',
      operation: 'postSilences',
      body: postable(silence, true),
    })) as { silenceID: string };
    updated.push(await getSilence(target, answer.silenceID));
  }
  formatSilences(updated, options.output, options.dateFormat, options.quiet).forEach(out);
  return 0;
}
