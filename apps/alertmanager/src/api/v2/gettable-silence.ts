import { silenceState, type Silence } from '../../silences';
import { formatTime } from './gettable-alert';

/**
 * One gettableSilence as JSON text, fields in upstream's order (`id`, `status`, `updatedAt`,
 * `comment`, `createdBy`, `endsAt`, `matchers`, `startsAt`), each matcher as
 * `{isEqual, isRegex, name, value}`.
 */
export function gettableSilenceJson(silence: Silence, now: number): string {
  const matchers = silence.matchers.map(
    (m) =>
      `{"isEqual":${m.isEqual},"isRegex":${m.isRegex},"name":${JSON.stringify(m.name)},"value":${JSON.stringify(m.value)}}`,
  );
  return (
    `{"id":${JSON.stringify(silence.id)},"status":{"state":"${silenceState(silence, now)}"},` +
    `"updatedAt":"${formatTime(silence.updatedAt)}","comment":${JSON.stringify(silence.comment)},` +
    `"createdBy":${JSON.stringify(silence.createdBy)},"endsAt":"${formatTime(silence.endsAt)}",` +
    `"matchers":[${matchers.join(',')}],"startsAt":"${formatTime(silence.startsAt)}"}`
  );
}
