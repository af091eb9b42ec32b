import type { EmailConfig } from '../receivers/email.model';
import type { PagerdutyConfig } from '../receivers/pagerduty.model';
import type { SlackConfig } from '../receivers/slack.model';
import type { WebhookConfig } from '../receivers/webhook.model';

/**
 * A named receiver and its integrations. A receiver without integrations is valid: alerts
 * routed to it are dropped on purpose.
 */
export interface Receiver {
  name: string;
  /** Receiver labels (0.33+); `name` is always set to the receiver's name. */
  labels: Record<string, string>;
  webhook_configs: WebhookConfig[];
  slack_configs: SlackConfig[];
  pagerduty_configs: PagerdutyConfig[];
  email_configs: EmailConfig[];
}
