import { AmtoolError } from './amtool-error';
import { callApi, type AmtoolTarget } from './amtool-http';
import {
  apiMatcher,
  apiTime,
  flagDuration,
  flagTime,
  matcherArgs,
  osUserName,
} from './silence-args';

/** The options of `silence add`. */
export interface SilenceAddOptions {
  matchers: string[];
  author: string;
  requireComment: boolean;
  duration: string;
  start: string;
  end: string;
  comment: string;
}

/**
 * `amtool silence add`: posts one silence over the matchers, starting now (or `--start`) and
 * ending after `--duration` (or at `--end`); prints its id. Time is an input for tests.
 */
export async function runSilenceAdd(
  target: AmtoolTarget,
  options: SilenceAddOptions,
  out: (line: string) => void,
  now: number = Date.now(),
): Promise<number> {
  const matchers = matcherArgs(options.matchers);
  if (matchers.length === 0) throw new AmtoolError('no matchers specified');
  if (options.requireComment && options.comment === '') {
    throw new AmtoolError('comment required by config');
  }
  const startsAt = options.start === '' ? now : flagTime(options.start);
  const endsAt =
    options.end === '' ? startsAt + flagDuration(options.duration) : flagTime(options.end);
  if (endsAt < startsAt) throw new AmtoolError('silence cannot start after it ends');
  const answer = (await callApi(target, {
    method: 'POST',
    path: '/silences',
    operation: 'postSilences',
    body: {
      comment: options.comment,
      createdBy: options.author === '' ? osUserName() : options.author,
      endsAt: apiTime(endsAt),
      matchers: matchers.map(apiMatcher),
      startsAt: apiTime(startsAt),
    },
  })) as { silenceID: string };
  out(answer.silenceID);
  return 0;
}
