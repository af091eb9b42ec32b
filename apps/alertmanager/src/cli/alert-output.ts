import { formatTime } from '../template/funcs/go-time';
import { tabulate } from './tab-writer';

/** A gettableAlert as the API returns it, with the fields amtool prints. */
export interface ListedAlert {
  labels: Record<string, string>;
  annotations: Record<string, string>;
  startsAt: string;
  endsAt: string;
  generatorURL?: string;
  status: { state: string };
}

const pairs = (set: Record<string, string>) =>
  Object.entries(set)
    .map(([k, v]) => `${k}="${v}"`)
    .sort()
    .join(' ');

/**
 * `amtool alert query` output: `simple` (Alertname, Starts At, Summary, State), `extended`
 * (Labels, Annotations, Starts At, Ends At, Generator URL, State), both sorted by start time,
 * or `json` (the API's array on one line).
 */
export function formatAlerts(
  alerts: readonly ListedAlert[],
  output: string,
  dateFormat: string,
): string[] {
  if (output === 'json') return [JSON.stringify(alerts)];
  const date = (text: string) => formatTime(Date.parse(text), dateFormat, 'UTC');
  const sorted = [...alerts].sort((a, b) => Date.parse(a.startsAt) - Date.parse(b.startsAt));
  if (output === 'extended') {
    return tabulate([
      'Labels\tAnnotations\tStarts At\tEnds At\tGenerator URL\tState\t',
      ...sorted.map(
        (a) =>
          `${pairs(a.labels)}\t${pairs(a.annotations)}\t${date(a.startsAt)}\t${date(a.endsAt)}\t` +
          `${a.generatorURL ?? ''}\t${a.status.state}\t`,
      ),
    ]);
  }
  return tabulate([
    'Alertname\tStarts At\tSummary\tState\t',
    ...sorted.map(
      (a) =>
        `${a.labels['alertname'] ?? ''}\t${date(a.startsAt)}\t${a.annotations['summary'] ?? ''}\t${a.status.state}\t`,
    ),
  ]);
}
