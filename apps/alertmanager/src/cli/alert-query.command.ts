import { parseMatcher } from '../labels';
import { formatAlerts, type ListedAlert } from './alert-output';
import { callApi, type AmtoolTarget } from './amtool-http';

/** The options of `alert query`. */
export interface AlertQueryOptions {
  matchers: string[];
  active: boolean;
  silenced: boolean;
  inhibited: boolean;
  unprocessed: boolean;
  receiver: string;
  output: string;
  dateFormat: string;
}

/**
 * `amtool alert query`: a first argument that is not a matcher means `alertname=<arg>`; with no
 * state flag only active alerts are shown. Filtering happens on the server.
 */
export async function runAlertQuery(
  target: AmtoolTarget,
  options: AlertQueryOptions,
  out: (line: string) => void,
): Promise<number> {
  const matchers = [...options.matchers];
  if (matchers.length > 0) {
    try {
      parseMatcher(matchers[0]);
    } catch {
      matchers[0] = `alertname=${matchers[0]}`;
    }
  }
  const none = !options.active && !options.silenced && !options.inhibited && !options.unprocessed;
  const query = new URLSearchParams({
    active: String(options.active || none),
    silenced: String(options.silenced),
    inhibited: String(options.inhibited),
    unprocessed: String(options.unprocessed),
    receiver: options.receiver,
  });
  for (const m of matchers) query.append('filter', m);
  const alerts = await callApi(target, {
    method: 'GET',
    path: '/alerts',
    operation: 'getAlerts',
    query,
  });
  formatAlerts((alerts ?? []) as ListedAlert[], options.output, options.dateFormat).forEach(out);
  return 0;
}
