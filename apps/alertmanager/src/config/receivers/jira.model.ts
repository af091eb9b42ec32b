import type { HttpConfig } from '../model/http-config.model';

/** A templated issue field and whether an update of an existing issue rewrites it. */
export interface JiraFieldConfig {
  template: string;
  enable_update: boolean;
}

/** `jira_configs` entry: one issue per alert group, found again by its `ALERT{<hash>}` label. */
export interface JiraConfig {
  send_resolved: boolean;
  http_config: HttpConfig;
  /** Its own or the global `jira_api_url`, e.g. `https://x.atlassian.net/rest/api/2`. */
  api_url: string;
  api_type: 'auto' | 'cloud' | 'datacenter';
  project: string;
  summary: JiraFieldConfig;
  description: JiraFieldConfig;
  labels: string[];
  priority: string;
  issue_type: string;
  reopen_transition: string;
  resolve_transition: string;
  wont_fix_resolution: string;
  /** ms; 0: none. */
  reopen_duration: number;
  /** Custom fields, any YAML value, their strings templates. */
  fields: Record<string, unknown>;
}
