import { createHash } from 'node:crypto';
import type { PagerdutyConfig } from '../../config';
import { truncateRunes, type RenderText } from '../templating/notification-text';

/** The Events API v1 endpoint, fixed upstream. */
export const PAGERDUTY_V1_URL = 'https://events.pagerduty.com/generic/2010-04-15/create_event.json';

/** Events larger than this lose their details, as upstream (512 KB). */
export const MAX_EVENT_BYTES = 512_000;

const TOO_BIG =
  'Custom details have been removed because the original event exceeds the maximum size of 512KB';

/** What a PagerDuty event is built from. */
export interface PagerdutyEventInput {
  config: PagerdutyConfig;
  render: RenderText;
  groupKey: string;
  /** True when every alert of the notification is resolved. */
  resolved: boolean;
  /** The revealed key (service key for v1, routing key for v2). */
  key: string;
}

/**
 * A rendered detail value. A rendering that is a JSON object or array is sent as that value
 * (the `toJson` default of `firing`/`resolved`), any other as a string.
 */
function renderDetails(
  details: Record<string, unknown>,
  render: RenderText,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(details)) {
    if (typeof value !== 'string') {
      out[key] = value;
      continue;
    }
    const text = render(value);
    out[key] = text;
    if (/^\s*[[{]/.test(text)) {
      try {
        out[key] = JSON.parse(text);
      } catch {
        // not JSON: keep the text
      }
    }
  }
  return out;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Events API v1 body: `service_key`, `incident_key`, `event_type`, `description`, ... */
export function buildV1Event(input: PagerdutyEventInput): Record<string, unknown> {
  const { config, render } = input;
  const event: Record<string, unknown> = {
    service_key: input.key,
    incident_key: sha256(input.groupKey),
    event_type: input.resolved ? 'resolve' : 'trigger',
    description: truncateRunes(render(config.description), 1024).text,
    // Upstream shares one struct between both versions, so v1 carries these two empty fields.
    event_action: '',
    payload: null,
  };
  if (!input.resolved) {
    event.client = render(config.client);
    event.client_url = render(config.client_url);
  }
  event.details = renderDetails(config.details, render);
  return shrink(withoutEmpty(event, ['description', 'client', 'client_url']), (e) => {
    e.details = { error: TOO_BIG };
  });
}

/** Events API v2 body: `routing_key`, `dedup_key`, `event_action`, `payload`, ... */
export function buildV2Event(input: PagerdutyEventInput): Record<string, unknown> {
  const { config, render } = input;
  const optional = (value: string | undefined) => (value ? render(value) : '');
  const payload: Record<string, unknown> = {
    summary: truncateRunes(render(config.description), 1024).text,
    source: render(config.source),
    severity: render(config.severity || 'error'),
  };
  for (const [key, value] of [
    ['class', optional(config.class)],
    ['component', optional(config.component)],
    ['group', optional(config.group)],
  ] as const) {
    if (value) payload[key] = value;
  }
  payload.custom_details = renderDetails(config.details, render);
  const event: Record<string, unknown> = {
    routing_key: input.key,
    dedup_key: sha256(input.groupKey),
    event_action: input.resolved ? 'resolve' : 'trigger',
    payload,
    client: render(config.client),
    client_url: render(config.client_url),
  };
  const images = config.images
    .map((i) => ({ src: optional(i.src), alt: optional(i.alt), href: optional(i.href) }))
    .filter((i) => i.src !== '')
    .map((i) => Object.fromEntries(Object.entries(i).filter(([k, v]) => k !== 'alt' || v !== '')));
  const links = config.links
    .map((l) => ({ href: optional(l.href), text: optional(l.text) }))
    .filter((l) => l.href !== '');
  if (images.length) event.images = images;
  if (links.length) event.links = links;
  return shrink(
    withoutEmpty(event, ['client', 'client_url']),
    (e) => ((e.payload as Record<string, unknown>).custom_details = { error: TOO_BIG }),
  );
}

/** Go's `omitempty` on the optional string fields. */
function withoutEmpty(event: Record<string, unknown>, keys: readonly string[]) {
  return Object.fromEntries(
    Object.entries(event).filter(([k, v]) => !(keys.includes(k) && v === '')),
  );
}

function shrink(event: Record<string, unknown>, drop: (e: Record<string, unknown>) => void) {
  if (Buffer.byteLength(JSON.stringify(event)) > MAX_EVENT_BYTES) drop(event);
  return event;
}
