import type { HttpConfig } from '../model/http-config.model';
import type { Secret } from '../model/secret';

/** An image attached to a PagerDuty event. */
export interface PagerdutyImage {
  src?: string;
  alt?: string;
  href?: string;
}

/** A link attached to a PagerDuty event. */
export interface PagerdutyLink {
  href?: string;
  text?: string;
}

/**
 * `pagerduty_configs` entry (alias `paging_configs`). A routing key selects Events API v2,
 * a service key v1; at least one of the keys or their `_file` forms is set.
 */
export interface PagerdutyConfig {
  send_resolved: boolean;
  http_config: HttpConfig;
  service_key?: Secret;
  service_key_file?: string;
  routing_key?: Secret;
  routing_key_file?: string;
  /** Events API v2 endpoint; defaults to the global `pagerduty_url`. */
  url: string;
  client: string;
  client_url: string;
  description: string;
  /** Template strings (or nested values); `firing`, `resolved`, `num_*` are added if absent. */
  details: Record<string, unknown>;
  images: PagerdutyImage[];
  links: PagerdutyLink[];
  /** Defaults to `client`. */
  source: string;
  /** Empty means `error` when sending (upstream applies the default at send time). */
  severity?: string;
  class?: string;
  component?: string;
  group?: string;
  /** Milliseconds; 0 means no timeout of its own. */
  timeout: number;
}
