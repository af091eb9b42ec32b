import type { ServerProcess } from './server-process';
import { startUpstream } from './upstream-alertmanager';

/** The external URL both servers run with, so that rendered links are equal. */
export const EXTERNAL_URL = 'http://alertmanager.example:9093';

/** Where the scenario's receivers deliver. */
export interface Endpoints {
  /** Base URL of the loopback HTTP recorder (each integration gets its own path). */
  http: string;
  /** `host:port` of the loopback SMTP server. */
  smtp: string;
}

/** The 0.25 defaults of the PagerDuty details, spelled out (this server's defaults are HEAD's). */
const PD_DETAILS = `
        details:
          firing: '{{ template "pagerduty.default.instances" .Alerts.Firing }}'
          resolved: '{{ template "pagerduty.default.instances" .Alerts.Resolved }}'
          num_firing: '{{ .Alerts.Firing | len }}'
          num_resolved: '{{ .Alerts.Resolved | len }}'`;

/** The newer chat and paging integrations, with their default templates. */
const NEWER_INTEGRATIONS = (http: string) => `
    opsgenie_configs:
      - {api_key: og-key, api_url: '${http}/opsgenie/'}
    victorops_configs:
      - {api_key: vo-key, routing_key: vo-route, api_url: '${http}/victorops/'}
    telegram_configs:
      - {bot_token: 'tg-token', chat_id: 42, api_url: '${http}/telegram'}
    discord_configs:
      - {webhook_url: '${http}/discord'}
    webex_configs:
      - {room_id: room, api_url: '${http}/webex', http_config: {authorization: {credentials: wx-token}}}`;

/**
 * One receiver with every integration this server delivers to, each with `send_resolved`,
 * once with default templates and once with the spec's custom ones (Slack, PagerDuty, email).
 */
export function scenarioConfig(endpoints: Endpoints): string {
  const { http, smtp } = endpoints;
  return `
global:
  slack_api_url: '${http}/slack-default'
  smtp_smarthost: '${smtp}'
  smtp_from: alertmanager@example.org
  smtp_require_tls: false
route:
  receiver: team.all
  group_by: [alertname]
  group_wait: 1s
  group_interval: 1s
  repeat_interval: 1h
receivers:
  - name: team.all
    slack_configs:
      - send_resolved: true
      - api_url: '${http}/slack-custom'
        send_resolved: true
        channel: '#alerts'
        username: alert-bot
        title: '{{ .GroupLabels.alertname }}'
        title_link: '{{ .ExternalURL }}/#/alerts'
        text: "{{ range .Alerts }}*{{ .Annotations.summary }}*\\n{{ .Annotations.description }} (severity: {{ .Labels.severity }})\\n{{ end }}"
        fields:
          - {title: Severity, value: '{{ .CommonLabels.severity }}', short: true}
          - {title: Count, value: '{{ len .Alerts }}'}
        actions:
          - {type: button, text: 'Runbook {{ .GroupLabels.alertname }}', url: 'https://runbooks.example/{{ .GroupLabels.alertname | toLower }}'}
    pagerduty_configs:
      - routing_key: rk-secret-1
        url: '${http}/pagerduty-default'${PD_DETAILS}
      - routing_key: rk-secret-2
        url: '${http}/pagerduty-custom'
        description: '{{ .GroupLabels.alertname }}: {{ range .Alerts }}{{ .Annotations.summary }} {{ end }}'
        severity: '{{ if eq .CommonLabels.severity "critical" }}critical{{ else }}warning{{ end }}'
        class: disk
        component: '{{ .CommonLabels.job }}'
        group: storage
        client: redisx
        client_url: '{{ .ExternalURL }}'
        images: [{src: 'https://img.example/a.png', alt: graph}]
        links: [{href: 'https://runbooks.example', text: runbook}]${PD_DETAILS}
    webhook_configs:
      - url: '${http}/webhook'
    email_configs:
      - to: oncall@example.org
        send_resolved: true
        headers:
          Subject: '[{{ .Status | toUpper }}] {{ .GroupLabels.alertname }}'
        text: '{{ template "__text_alert_list" .Alerts }}'
      - {to: 'defaults@example.org, second@example.org', send_resolved: true}${NEWER_INTEGRATIONS(http)}
`;
}

/** When the scenario's alerts start and, once resolved, end. */
export interface ScenarioTimes {
  readonly startsAt: string;
  readonly endsAt: string;
}

/**
 * The times of the recorded fixture: long past, so a server flushes each alert's group as soon
 * as the alert arrives (its group wait is over).
 */
export const FIXED_TIMES: ScenarioTimes = {
  startsAt: '2024-01-01T00:00:00Z',
  endsAt: '2024-01-01T00:10:00Z',
};

/**
 * Times from now: both alerts wait out the group wait together, so no server can flush the group
 * between the two (upstream's dispatcher, on its own goroutines, sometimes did with past times).
 * They end `endsInMs` after they start.
 */
export function freshTimes(endsInMs: number): ScenarioTimes {
  const now = Date.now();
  return {
    startsAt: new Date(now).toISOString(),
    endsAt: new Date(now + endsInMs).toISOString(),
  };
}

/** The scenario's two alerts; `resolved` gives them their end. */
export function scenarioAlerts(resolved: boolean, times: ScenarioTimes = FIXED_TIMES) {
  const { startsAt, endsAt } = times;
  return ['a:9100', 'b:9100'].map((instance) => ({
    labels: { alertname: 'DiskFull', severity: 'critical', job: 'node', instance },
    annotations: {
      summary: `Disk almost full on ${instance}`,
      description: `Less than 5% left on ${instance} <root>.`,
    },
    startsAt,
    ...(resolved ? { endsAt } : {}),
    generatorURL: 'http://prometheus.example:9090/graph?g0.expr=disk&g0.tab=1',
  }));
}

/** Posts the scenario's alerts (firing or resolved) to a server's API v2. */
export async function postScenarioAlerts(
  serverUrl: string,
  resolved: boolean,
  times: ScenarioTimes = FIXED_TIMES,
): Promise<void> {
  const res = await fetch(`${serverUrl}/api/v2/alerts`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(scenarioAlerts(resolved, times)),
  });
  if (res.status !== 200) throw new Error(`POST /api/v2/alerts: ${res.status} ${await res.text()}`);
}

/** Starts upstream Alertmanager with the scenario's external URL (see `startUpstream`). */
export function startUpstreamAt(configFile: string): Promise<ServerProcess> {
  return startUpstream(configFile, [`--web.external-url=${EXTERNAL_URL}`, '--web.route-prefix=/']);
}
