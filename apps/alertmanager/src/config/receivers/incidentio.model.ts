import type { HttpConfig } from '../model/http-config.model';
import type { Secret } from '../model/secret';

/** `incidentio_configs` entry: the group posted to an incident.io alert source. */
export interface IncidentioConfig {
  send_resolved: boolean;
  http_config: HttpConfig;
  /** Exactly one of `url` and `url_file`. */
  url?: Secret;
  url_file?: string;
  /** Sent as a Bearer token; at most one of the two, and not with `http_config.authorization`. */
  alert_source_token?: Secret;
  alert_source_token_file?: string;
  /** Most alerts per message; 0: all. */
  max_alerts: number;
  /** Longest a request may take, ms; 0: no limit. */
  timeout: number;
}
