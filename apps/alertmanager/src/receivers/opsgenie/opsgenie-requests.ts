import type { OpsgenieConfig, OpsgenieResponder } from '../../config';
import { truncateRunes, type RenderText } from '../templating/notification-text';
import { sortedKeys } from '../templating/send-request';

/** Opsgenie cuts `message` at 130 characters; upstream truncates before sending. */
const MAX_MESSAGE_RUNES = 130;

/** One Opsgenie API call: method, URL (with query) and JSON body. */
export interface OpsgenieRequest {
  method: 'POST' | 'PUT';
  url: string;
  body: Record<string, unknown>;
}

/** What the requests of one notification are built from. */
export interface OpsgenieInput {
  config: OpsgenieConfig;
  render: RenderText;
  alias: string;
  resolved: boolean;
  commonLabels: Record<string, string>;
}

/** Upstream's `safeSplit`: trimmed, split on `sep`, empty parts dropped. */
function splitList(text: string): string[] {
  return text
    .trim()
    .split(',')
    .filter((part) => part !== '');
}

function endpoint(config: OpsgenieConfig, path: string, byAlias: boolean): string {
  const url = new URL(config.api_url);
  url.pathname += path;
  if (byAlias) url.searchParams.set('identifierType', 'alias');
  return url.href;
}

/** Drops empty strings and empty lists, as Go's `omitempty` on those fields. */
function omitEmpty(object: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(object).filter(
      ([, v]) => v !== '' && v !== undefined && !(Array.isArray(v) && v.length === 0),
    ),
  );
}

function responders(config: OpsgenieConfig, render: RenderText): Record<string, string>[] {
  const out: Record<string, string>[] = [];
  for (const r of config.responders) {
    const one: OpsgenieResponder = {
      id: render(r.id ?? ''),
      name: render(r.name ?? ''),
      username: render(r.username ?? ''),
      type: render(r.type),
    };
    if (!one.id && !one.name && !one.username && !one.type) continue;
    // `teams` is a comma-separated list of team names, sent as one responder each.
    if (one.type === 'teams') {
      for (const team of splitList(one.name ?? '')) out.push({ name: render(team), type: 'team' });
      continue;
    }
    out.push({
      ...(omitEmpty({ id: one.id, name: one.name, username: one.username }) as Record<
        string,
        string
      >),
      type: one.type,
    });
  }
  return out;
}

/**
 * Upstream's Opsgenie requests: a firing group creates the alert (`POST v2/alerts`) and with
 * `update_alerts` also updates its message and description; a resolved group closes it
 * (`POST v2/alerts/<alias>/close?identifierType=alias`). The alias is the group key's hash.
 */
export function opsgenieRequests(input: OpsgenieInput): OpsgenieRequest[] {
  const { config, render, alias } = input;
  const source = render(config.source);
  if (input.resolved) {
    return [
      {
        method: 'POST',
        url: endpoint(config, `v2/alerts/${alias}/close`, true),
        body: { source },
      },
    ];
  }
  const details: Record<string, string> = { ...input.commonLabels };
  for (const [key, value] of Object.entries(config.details)) details[key] = render(value);
  const message = truncateRunes(render(config.message), MAX_MESSAGE_RUNES).text;
  const description = render(config.description);
  const create = {
    alias,
    message,
    ...omitEmpty({ description }),
    details: sortedKeys(details),
    source,
    ...omitEmpty({
      responders: responders(config, render),
      tags: splitList(render(config.tags ?? '')),
      note: render(config.note ?? ''),
      priority: render(config.priority ?? ''),
      entity: render(config.entity ?? ''),
      actions: splitList(render(config.actions ?? '')),
    }),
  };
  const requests: OpsgenieRequest[] = [
    { method: 'POST', url: endpoint(config, 'v2/alerts', false), body: create },
  ];
  if (config.update_alerts) {
    requests.push(
      {
        method: 'PUT',
        url: endpoint(config, `v2/alerts/${alias}/message`, true),
        body: omitEmpty({ message }),
      },
      {
        method: 'PUT',
        url: endpoint(config, `v2/alerts/${alias}/description`, true),
        body: omitEmpty({ description }),
      },
    );
  }
  return requests;
}
