import type { EmailConfig } from '../../config';
import type { RenderText } from '../templating/notification-text';

/** A rendered email: envelope, headers and parts. */
export interface EmailMessage {
  from: string;
  to: string;
  subject: string;
  /** Headers other than Subject, To and From, rendered. */
  headers: Record<string, string>;
  html?: string;
  text?: string;
}

/**
 * Renders an email from its config: every header (Subject, To, From included) through the
 * text templates, `html` through the HTML templates, `text` through the text templates.
 */
export function buildEmailMessage(
  config: EmailConfig,
  render: { text: RenderText; html: RenderText },
): EmailMessage {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(config.headers)) {
    headers[name] = render.text(value);
  }
  const { Subject, To, From, ...rest } = headers;
  const html = config.html ? render.html(config.html) : '';
  const text = config.text ? render.text(config.text) : '';
  return {
    from: From ?? render.text(config.from),
    to: To ?? render.text(config.to),
    subject: Subject ?? '',
    headers: rest,
    ...(html ? { html } : {}),
    ...(text ? { text } : {}),
  };
}
