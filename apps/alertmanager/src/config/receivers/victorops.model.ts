import type { HttpConfig } from '../model/http-config.model';
import type { Secret } from '../model/secret';

/** `victorops_configs` entry. Texts default to the `victorops.default.*` templates. */
export interface VictoropsConfig {
  send_resolved: boolean;
  http_config: HttpConfig;
  /** Own or the global `victorops_api_key`; one of this or `api_key_file` is set. */
  api_key?: Secret;
  api_key_file?: string;
  /** Own or the global `victorops_api_url`, always ending in `/`. */
  api_url: string;
  /** A template. */
  routing_key: string;
  /** `CRITICAL`, `WARNING` or `INFO` (templated); anything else sends `CRITICAL`. */
  message_type: string;
  state_message: string;
  entity_display_name: string;
  monitoring_tool: string;
  /** Extra payload fields (templates); the payload's own field names are refused. */
  custom_fields: Record<string, string>;
}
