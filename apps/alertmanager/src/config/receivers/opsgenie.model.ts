import type { HttpConfig } from '../model/http-config.model';
import type { Secret } from '../model/secret';

/** Someone an Opsgenie alert is assigned to; every field may be a template. */
export interface OpsgenieResponder {
  id?: string;
  name?: string;
  username?: string;
  /** `team`, `teams` (a comma-separated `name` list), `user`, `escalation` or `schedule`. */
  type: string;
}

/** `opsgenie_configs` entry. Texts default to the `opsgenie.default.*` templates. */
export interface OpsgenieConfig {
  send_resolved: boolean;
  http_config: HttpConfig;
  /** Own or the global `opsgenie_api_key`; one of this or `api_key_file` is set. */
  api_key?: Secret;
  api_key_file?: string;
  /** Own or the global `opsgenie_api_url`, always ending in `/`. */
  api_url: string;
  message: string;
  description: string;
  source: string;
  /** Added to the alert's common labels; values are templates. */
  details: Record<string, string>;
  entity?: string;
  responders: OpsgenieResponder[];
  /** Comma-separated, templated. */
  actions?: string;
  /** Comma-separated, templated. */
  tags?: string;
  note?: string;
  priority?: string;
  /** Also update the message and description of an existing alert. */
  update_alerts: boolean;
}
