import { parseMatcher } from '../labels';
import { goTimeParseError, parseDateTime } from '../time/go-date-time';
import { AmtoolError } from './amtool-error';
import { callApi, type AmtoolTarget } from './amtool-http';

/** The options of `alert add`. */
export interface AlertAddOptions {
  labels: string[];
  annotations: string[];
  start: string;
  end: string;
  generatorURL: string;
}

const GO_ZERO = '0001-01-01T00:00:00.000Z';
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function pairs(items: readonly string[], what: string): Record<string, string> {
  const set: Record<string, string> = {};
  for (const item of items) {
    let matcher;
    try {
      matcher = parseMatcher(item);
    } catch (error) {
      throw new AmtoolError((error as Error).message);
    }
    if (matcher.type !== '=') throw new AmtoolError(`${what} must be specified as key=value pairs`);
    set[matcher.name] = matcher.value;
  }
  return set;
}

function time(text: string): string {
  if (text === '') return GO_ZERO;
  const ms = RFC3339.test(text) ? parseDateTime(text) : undefined;
  if (ms === undefined) throw new AmtoolError(goTimeParseError(text, '2006-01-02T15:04:05Z07:00'));
  return new Date(ms).toISOString();
}

/**
 * `amtool alert add`: posts one alert. A first label without an operator is the alert name;
 * unset times go as Go's zero time, which the server fills in (start now, end after
 * `resolve_timeout`). Prints nothing on success.
 */
export async function runAlertAdd(target: AmtoolTarget, options: AlertAddOptions): Promise<number> {
  const items = [...options.labels];
  if (items.length > 0) {
    try {
      parseMatcher(items[0]);
    } catch {
      items[0] = `alertname=${JSON.stringify(items[0])}`;
    }
  }
  const alert: Record<string, unknown> = {
    annotations: pairs(options.annotations, 'annotations'),
    endsAt: time(options.end),
    startsAt: time(options.start),
  };
  if (options.generatorURL !== '') alert['generatorURL'] = options.generatorURL;
  alert['labels'] = pairs(items, 'labels');
  await callApi(target, {
    method: 'POST',
    path: '/alerts',
    operation: 'postAlerts',
    body: [alert],
  });
  return 0;
}
