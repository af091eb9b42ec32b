import type { HttpConfig } from '../model/http-config.model';
import type { Secret } from '../model/secret';

/** `webhook_configs` entry. Exactly one of `url` (a secret, may be a template) or `url_file`. */
export interface WebhookConfig {
  send_resolved: boolean;
  http_config: HttpConfig;
  url?: Secret;
  url_file?: string;
  /** 0 means no limit. */
  max_alerts: number;
  /** Milliseconds; 0 means only the pipeline's own timeout applies. */
  timeout: number;
  /**
   * A custom body instead of the version 4 message (upstream 0.32+): any YAML value whose
   * strings and map keys are templates over the notification's data.
   */
  payload?: unknown;
}
