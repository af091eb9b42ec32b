import { isScalar } from 'yaml';
import { readUrl } from '../decoder/url';
import type { YamlValue } from '../decoder/yaml-value';
import type { GlobalConfig } from '../model/global.model';
import type { JiraConfig, JiraFieldConfig } from './jira.model';
import { HTTP_NOTIFIER_KEYS, inheritHttpConfig } from './receiver-context';

const KEYS = [
  ...HTTP_NOTIFIER_KEYS,
  'api_url',
  'api_type',
  'project',
  'summary',
  'description',
  'labels',
  'priority',
  'issue_type',
  'reopen_transition',
  'resolve_transition',
  'wont_fix_resolution',
  'reopen_duration',
  'fields',
];

/** `summary`/`description`: a template, or `{template, enable_update}`. */
function fieldConfig(value: YamlValue, fallback: string): JiraFieldConfig {
  if (value.isNull) return { template: fallback, enable_update: true };
  if (isScalar(value.node)) return { template: value.string(), enable_update: true };
  const r = value.object(['template', 'enable_update']);
  return { template: r.string('template', fallback), enable_update: r.bool('enable_update', true) };
}

/** Decodes a `jira_configs` entry with upstream's defaults and messages. */
export function decodeJira(value: YamlValue, global: GlobalConfig): JiraConfig {
  if (value.isNull) value.fail('missing jira config');
  const r = value.object(KEYS);
  if (r.string('project') === '') value.fail('missing project in jira_config');
  if (r.string('issue_type') === '') value.fail('missing issue_type in jira_config');
  const apiType = r.string('api_type', 'auto');
  if (apiType !== 'auto' && apiType !== 'cloud' && apiType !== 'datacenter') {
    value.fail('unknown api_type on jira_config, must be auto, cloud or datacenter');
  }
  const apiUrl = r.has('api_url') ? readUrl(r.get('api_url')) : global.jira_api_url;
  if (!apiUrl) value.fail('no global Jira Cloud URL set');
  return {
    send_resolved: r.bool('send_resolved', true),
    http_config: inheritHttpConfig(r, global),
    api_url: apiUrl as string,
    api_type: apiType as JiraConfig['api_type'],
    project: r.string('project'),
    summary: fieldConfig(r.get('summary'), '{{ template "jira.default.summary" . }}'),
    description: fieldConfig(r.get('description'), '{{ template "jira.default.description" . }}'),
    labels: r.get('labels').stringList(),
    priority: r.string('priority', '{{ template "jira.default.priority" . }}'),
    issue_type: r.string('issue_type'),
    reopen_transition: r.string('reopen_transition'),
    resolve_transition: r.string('resolve_transition'),
    wont_fix_resolution: r.string('wont_fix_resolution'),
    reopen_duration: r.duration('reopen_duration', 0),
    fields: r.has('fields') ? (r.get('fields').toJS() as Record<string, unknown>) : {},
  };
}
