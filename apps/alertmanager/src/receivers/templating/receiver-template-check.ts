import type { AlertmanagerConfig, Receiver } from '../../config';
import { loadTemplates, sampleTemplateData, TemplateError, type TemplateSet } from '../../template';

/** The templated string fields of the integrations that have no nested templated texts. */
const TEMPLATED_KEYS = {
  opsgenie_configs: [
    'api_key',
    'message',
    'description',
    'source',
    'entity',
    'actions',
    'tags',
    'note',
    'priority',
  ],
  wechat_configs: ['message', 'to_user', 'to_party', 'to_tag', 'agent_id'],
  victorops_configs: [
    'routing_key',
    'message_type',
    'state_message',
    'entity_display_name',
    'monitoring_tool',
  ],
  pushover_configs: ['title', 'url', 'url_title', 'device', 'sound', 'priority'],
  telegram_configs: [],
  webex_configs: ['message', 'room_id'],
  discord_configs: ['content', 'title', 'message'],
} as const;

/** The maps whose values are templates. */
const TEMPLATED_MAPS = {
  opsgenie_configs: 'details',
  victorops_configs: 'custom_fields',
} as const;

/** The texts of {@link TEMPLATED_KEYS} and {@link TEMPLATED_MAPS} of one receiver. */
function simpleTexts(receiver: Receiver): { where: string; text: string; html?: boolean }[] {
  const texts: { where: string; text: string; html?: boolean }[] = [];
  for (const [list, keys] of Object.entries(TEMPLATED_KEYS)) {
    const configs = receiver[list as keyof typeof TEMPLATED_KEYS] as readonly object[];
    configs.forEach((config, i) => {
      const at = `receivers[${receiver.name}].${list}[${i}]`;
      const fields = config as Record<string, unknown>;
      for (const key of keys) {
        const text = fields[key];
        if (typeof text === 'string' && text) texts.push({ where: `${at}.${key}`, text });
      }
      const mapKey = TEMPLATED_MAPS[list as keyof typeof TEMPLATED_MAPS] as string | undefined;
      const map = (mapKey ? fields[mapKey] : undefined) as Record<string, string> | undefined;
      for (const [name, text] of Object.entries(map ?? {}))
        if (text) texts.push({ where: `${at}.${mapKey}.${name}`, text });
    });
  }
  receiver.opsgenie_configs.forEach((c, i) =>
    c.responders.forEach((r, j) => {
      for (const key of ['id', 'name', 'username', 'type'] as const) {
        const text = r[key];
        if (text)
          texts.push({
            where: `receivers[${receiver.name}].opsgenie_configs[${i}].responders[${j}].${key}`,
            text,
          });
      }
    }),
  );
  // These render as HTML when the config asks for it, as when sending.
  receiver.pushover_configs.forEach((c, i) =>
    texts.push({
      where: `receivers[${receiver.name}].pushover_configs[${i}].message`,
      text: c.message,
      html: c.html,
    }),
  );
  receiver.telegram_configs.forEach((c, i) =>
    texts.push({
      where: `receivers[${receiver.name}].telegram_configs[${i}].message`,
      text: c.message,
      html: c.parse_mode === 'HTML',
    }),
  );
  return texts;
}

/** Every templated text of a receiver, with where it is in the configuration. */
function receiverTexts(receiver: Receiver): { where: string; text: string; html?: boolean }[] {
  const texts: { where: string; text: string; html?: boolean }[] = [];
  const add = (where: string, text: string | undefined, html = false) => {
    if (text) texts.push({ where, text, html });
  };
  receiver.slack_configs.forEach((c, i) => {
    const at = `receivers[${receiver.name}].slack_configs[${i}]`;
    for (const key of [
      'channel',
      'username',
      'color',
      'title',
      'title_link',
      'pretext',
      'text',
      'footer',
      'fallback',
      'callback_id',
      'icon_emoji',
      'icon_url',
      'image_url',
      'thumb_url',
    ] as const) {
      add(`${at}.${key}`, c[key]);
    }
    c.fields.forEach((f, j) => {
      add(`${at}.fields[${j}].title`, f.title);
      add(`${at}.fields[${j}].value`, f.value);
    });
    c.actions.forEach((a, j) => {
      for (const key of ['type', 'text', 'url', 'style', 'name', 'value'] as const)
        add(`${at}.actions[${j}].${key}`, a[key]);
    });
  });
  receiver.pagerduty_configs.forEach((c, i) => {
    const at = `receivers[${receiver.name}].pagerduty_configs[${i}]`;
    for (const key of [
      'client',
      'client_url',
      'description',
      'source',
      'severity',
      'class',
      'component',
      'group',
    ] as const) {
      add(`${at}.${key}`, c[key]);
    }
    for (const [key, value] of Object.entries(c.details)) {
      if (typeof value === 'string') add(`${at}.details.${key}`, value);
    }
  });
  receiver.email_configs.forEach((c, i) => {
    const at = `receivers[${receiver.name}].email_configs[${i}]`;
    add(`${at}.to`, c.to);
    add(`${at}.from`, c.from);
    add(`${at}.html`, c.html, true);
    add(`${at}.text`, c.text);
    for (const [name, value] of Object.entries(c.headers)) add(`${at}.headers.${name}`, value);
  });
  texts.push(...simpleTexts(receiver));
  return texts;
}

/** Renders one receiver's texts against sample data; throws naming the field that failed. */
function renderReceiver(templates: TemplateSet, receiver: Receiver): void {
  const data = sampleTemplateData(receiver.name);
  const now = Date.UTC(2024, 0, 1, 1);
  for (const { where, text, html } of receiverTexts(receiver)) {
    try {
      templates.render(text, data, { now, mode: html ? 'html' : 'text' });
    } catch (err) {
      if (err instanceof TemplateError) throw new Error(`${where}: ${err.message}`);
      throw err;
    }
  }
}

/**
 * Renders every templated receiver field of `config` against sample data, so that a template
 * that calls an undefined template or reads a field that does not exist is caught before an
 * alert fires. Throws an Error naming the field (`receivers[x].slack_configs[0].title: ...`).
 * `check-config`, server start and reload all run it, so they accept the same files.
 */
export function checkReceiverTemplates(templates: TemplateSet, config: AlertmanagerConfig): void {
  for (const receiver of config.receivers) renderReceiver(templates, receiver);
}

/** Loads the configuration's templates (defaults, then `templates:` files) and checks them. */
export async function checkConfigTemplates(config: AlertmanagerConfig): Promise<void> {
  checkReceiverTemplates(await loadTemplates(config.templates), config);
}
