import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AlertmanagerConfig } from './model/config.model';
import { Secret } from './model/secret';
import { loadConfigFile } from './load-config-file';
import { parseConfig } from './parse-config';
import { routeMatchers } from './route.decoder';
import { inhibitSourceMatchers, inhibitTargetMatchers } from './inhibit-rule.decoder';
import { serializeConfig } from './serialize-config';

const dir = join(__dirname, 'valid-testdata');
const load = async (name: string) => (await loadConfigFile(join(dir, name))).config;
const MIN = 60_000;

/** Replaces secret values by the mask, which is what a re-parsed dump holds. */
function maskSecrets<T>(value: T): T {
  if (value instanceof Secret) return new Secret('<secret>') as T;
  if (Array.isArray(value)) return value.map(maskSecrets) as T;
  if (
    value === null ||
    typeof value !== 'object' ||
    Object.getPrototypeOf(value) !== Object.prototype
  ) {
    return value;
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskSecrets(v)])) as T;
}

describe('valid configurations', () => {
  const files = readdirSync(dir).filter((name) => name.endsWith('.yml'));

  it.each(files)('%s loads and survives serialisation', async (name) => {
    const config = await load(name);
    const file = join(dir, name);
    expect(parseConfig(serializeConfig(config), file)).toEqual(maskSecrets(config));
  });

  const cases: Array<[string, (c: AlertmanagerConfig) => void]> = [
    [
      'more-integrations.yml',
      (c) => {
        // Field by field in receivers/more-integrations-defaults.spec.ts.
        const [r] = c.receivers;
        expect(
          [r.opsgenie_configs, r.victorops_configs, r.pushover_configs, r.telegram_configs].map(
            (l) => l.length,
          ),
        ).toEqual([2, 2, 2, 2]);
        expect([r.discord_configs, r.webex_configs, r.wechat_configs].map((l) => l.length)).toEqual(
          [2, 2, 2],
        );
        expect(r.mattermost_configs.map((m) => [m.channel, m.priority?.priority])).toEqual([
          ['', undefined],
          ['{{ .CommonLabels.team }}', 'urgent'],
        ]);
      },
    ],
    [
      'binary-values.yml',
      ({ route, receivers }) => {
        expect(route.receiver).toBe('hook');
        expect(route.group_wait).toBe(30_000);
        expect(receivers[0].webhook_configs[0].url?.reveal()).toBe('http://127.0.0.1:9099/hook');
      },
    ],
    [
      'globals.yml',
      ({ global, receivers }) => {
        expect(global.resolve_timeout).toBe(10 * MIN);
        expect(global.http_config).toMatchObject({ follow_redirects: false, enable_http2: false });
        expect(global.smtp_auth_password?.reveal()).toBe('smtp-password');
        expect(global.slack_api_url?.reveal()).toBe(
          'https://hooks.slack.com/services/T000/B000/XXXX',
        );
        expect(global.smtp_force_implicit_tls).toBe(true);
        expect(global.jira_api_url).toBe('https://example.atlassian.net/rest/api/2');
        expect(receivers[0].email_configs[0]).toMatchObject({
          from: 'alertmanager@example.com',
          smarthost: 'smtp.example.com:587',
          hello: 'am.example.com',
          auth_username: 'alertmanager',
          auth_identity: 'am-identity',
          require_tls: false,
          force_implicit_tls: true,
          tls_config: { insecure_skip_verify: true, server_name: 'smtp.example.com' },
        });
      },
    ],
    [
      'routes.yml',
      ({ route }) => {
        const [db, web] = route.routes;
        expect(db.matchers.map(String)).toEqual([
          'env!="staging"',
          'service="db"',
          'severity=~"critical|page"',
        ]);
        expect(db).toMatchObject({
          receiver: 'database',
          continue: true,
          group_by: ['alertname', 'cluster'],
        });
        expect(db.labels).toEqual({ team: 'infra', tier: 'storage' });
        expect(db.routes[0]).toMatchObject({
          receiver: 'database',
          group_wait: MIN,
          group_interval: 2 * MIN,
          repeat_interval: 3 * 60 * MIN,
          group_by: ['alertname', 'cluster'],
          mute_time_intervals: [],
        });
        expect(db.routes[1].group_by).toEqual([]);
        expect(web).toMatchObject({
          receiver: 'default',
          group_by: ['...'],
          repeat_interval: 24 * 60 * MIN,
        });
        expect(web.mute_time_intervals).toEqual(['weekends']);
        expect(web.active_time_intervals).toEqual(['business-hours']);
        expect(routeMatchers(web).map(String)).toEqual(['path=~"^(?:/api/.*)$"', 'service="web"']);
      },
    ],
    [
      'inhibit-rules.yml',
      ({ inhibit_rules: [named, legacy, open] }) => {
        expect(named.name).toBe('critical-silences-warning');
        expect(inhibitTargetMatchers(named).map(String)).toEqual(['severity=~"warning|info"']);
        expect(named.equal).toEqual(['alertname', 'cluster']);
        expect(inhibitSourceMatchers(legacy).map(String)).toEqual([
          'alertname="NodeDown"',
          'cluster=~"^(?:prod-.*)$"',
        ]);
        expect(inhibitTargetMatchers(legacy).map(String)).toEqual([
          'alertname=~"^(?:Node.+)$"',
          'severity="warning"',
        ]);
        expect(inhibitTargetMatchers(open)).toEqual([]);
      },
    ],
    [
      'time-intervals.yml',
      ({ mute_time_intervals, time_intervals }) => {
        expect(mute_time_intervals[0].time_intervals[0].times).toEqual([
          { start_minute: 0, end_minute: 360 },
          { start_minute: 1320, end_minute: 1440 },
        ]);
        const [spec, sundays] = time_intervals[0].time_intervals;
        expect(spec).toEqual({
          times: [{ start_minute: 570, end_minute: 1065 }],
          weekdays: [
            { begin: 1, end: 3 },
            { begin: 5, end: 5 },
          ],
          days_of_month: [
            { begin: 1, end: 5 },
            { begin: -3, end: -1 },
            { begin: 15, end: 15 },
          ],
          months: [
            { begin: 1, end: 3 },
            { begin: 5, end: 8 },
            { begin: 12, end: 12 },
          ],
          years: [
            { begin: 2020, end: 2022 },
            { begin: 2030, end: 2030 },
          ],
          location: 'Europe/Berlin',
        });
        expect(sundays).toMatchObject({ weekdays: [{ begin: 0, end: 0 }], location: 'UTC' });
      },
    ],
    [
      'webhook.yml',
      ({
        receivers: [
          {
            webhook_configs: [full, templated, fromFile],
          },
        ],
      }) => {
        expect(full).toMatchObject({ send_resolved: false, max_alerts: 10, timeout: 15_000 });
        expect(full.url?.reveal()).toBe('https://hooks.example.com/alerts?token=abc');
        expect(full.http_config.basic_auth?.password?.reveal()).toBe('hook-password');
        expect(full.http_config.follow_redirects).toBe(false);
        expect(templated).toMatchObject({ send_resolved: true, max_alerts: 0, timeout: 0 });
        expect(templated.url?.reveal()).toBe('http://localhost:5001/{{ .GroupLabels.team }}');
        expect(fromFile.url_file).toBe(join(dir, 'secrets/webhook-url'));
      },
    ],
    [
      'slack.yml',
      ({
        receivers: [
          {
            slack_configs: [full, inherited],
          },
        ],
      }) => {
        expect(full.api_url?.reveal()).toBe('https://hooks.slack.com/services/OWN');
        expect(full).toMatchObject({
          send_resolved: true,
          short_fields: true,
          link_names: true,
          timeout: 30_000,
        });
        expect(full.mrkdwn_in).toEqual(['text']);
        expect(full.fields[0]).toEqual({
          title: 'Severity',
          value: '{{ .CommonLabels.severity }}',
          short: true,
        });
        expect(full.actions[0]).toEqual({
          type: 'button',
          text: 'Runbook',
          url: 'https://runbooks.example.com',
          style: 'primary',
        });
        expect(full.actions[1].confirm?.ok_text).toBe('Yes');
        expect(inherited.api_url?.reveal()).toBe('https://hooks.slack.com/services/GLOBAL');
        expect(inherited).toMatchObject({
          send_resolved: false,
          username: '{{ template "slack.default.username" . }}',
          title_link: '{{ template "slack.default.titlelink" . }}',
          mrkdwn_in: ['fallback', 'pretext', 'text'],
        });
      },
    ],
    [
      'pagerduty.yml',
      ({
        receivers: [
          {
            pagerduty_configs: [v2, v1, fromFile],
          },
        ],
      }) => {
        expect(v2.url).toBe('https://pd-proxy.example.com/v2/enqueue');
        expect(v2.routing_key?.reveal()).toBe('routing-key-1');
        expect(v2.details).toEqual({
          firing: 'custom firing',
          resolved: '{{ .Alerts.Resolved | toJson }}',
          num_firing: '{{ .Alerts.Firing | len }}',
          num_resolved: '{{ .Alerts.Resolved | len }}',
          runbook: '{{ .CommonAnnotations.runbook }}',
          nested: { level: 2 },
        });
        expect(v2).toMatchObject({
          source: 'prometheus',
          severity: 'critical',
          timeout: 20_000,
          send_resolved: false,
        });
        expect(v1.service_key?.reveal()).toBe('service-key-1');
        expect(v1).toMatchObject({
          url: 'https://events.eu.pagerduty.com/v2/enqueue',
          send_resolved: true,
          client: '{{ template "pagerduty.default.client" . }}',
          source: '{{ template "pagerduty.default.client" . }}',
        });
        expect(fromFile.routing_key_file).toBe('/etc/alertmanager/pd-key');
      },
    ],
    [
      'email.yml',
      ({
        receivers: [
          {
            email_configs: [inherited, own],
          },
        ],
      }) => {
        expect(inherited).toMatchObject({
          to: 'team@example.com, boss@example.com',
          from: 'alertmanager@example.com',
          smarthost: 'smtp.example.com:587',
          hello: 'am.example.com',
          auth_username: 'global-user',
          auth_identity: 'global-identity',
          require_tls: false,
          send_resolved: false,
          html: '{{ template "email.default.html" . }}',
          tls_config: { server_name: 'smtp.example.com' },
        });
        expect(inherited.auth_password?.reveal()).toBe('global-password');
        expect(inherited.headers).toEqual({
          Subject: '{{ template "email.default.subject" . }}',
          To: 'team@example.com, boss@example.com',
          From: 'alertmanager@example.com',
        });
        expect(own).toMatchObject({
          smarthost: '[::1]:465',
          require_tls: true,
          force_implicit_tls: true,
        });
        expect(own.auth_password).toBeUndefined();
        expect(own.auth_password_file).toBe(join(dir, 'secrets/smtp-password'));
        expect(own.headers).toEqual({
          Subject: 'Alert: {{ .CommonLabels.alertname }}',
          To: 'ops@example.com',
          From: 'ops-alerts@example.com',
          'X-Priority': '1',
          'Reply-To': 'noreply@example.com',
        });
        expect(own.threading).toEqual({ enabled: true, thread_by_date: 'daily' });
      },
    ],
    [
      'aliases.yml',
      ({ global, receivers: [team] }) => {
        expect(global.slack_api_url?.reveal()).toBe('https://hooks.slack.com/services/ALIAS');
        expect(team.slack_configs[0].api_url?.reveal()).toBe(
          'https://hooks.slack.com/services/ALIAS',
        );
        expect(team.pagerduty_configs[0].routing_key?.reveal()).toBe('alias-routing-key');
      },
    ],
    [
      'file-fields.yml',
      ({ global, receivers: [files] }) => {
        expect(global.smtp_auth_password_file).toBe(join(dir, 'secrets/smtp'));
        expect(global.slack_api_url_file).toBe(join(dir, 'secrets/slack-url'));
        expect(global.http_config.authorization).toEqual({
          type: 'Bearer',
          credentials_file: join(dir, 'secrets/token'),
        });
        expect(global.http_config.tls_config).toMatchObject({
          ca_file: join(dir, 'tls/ca.pem'),
          cert_file: '/etc/tls/cert.pem',
          key_file: join(dir, 'tls/key.pem'),
        });
        expect(files.email_configs[0].auth_password_file).toBe(join(dir, 'secrets/smtp'));
        expect(files.slack_configs[0].api_url_file).toBe(join(dir, 'secrets/slack-url'));
        expect(files.slack_configs[0].http_config).toEqual(global.http_config);
        expect(files.webhook_configs[0].url_file).toBe(join(dir, 'secrets/hook'));
        expect(files.webhook_configs[0].http_config.authorization).toEqual({
          type: 'Bearer',
          credentials_file: join(dir, 'secrets/bearer'),
        });
      },
    ],
    [
      'null-receivers-and-templates.yml',
      ({ receivers, templates }) => {
        expect(receivers.map((r) => r.email_configs.length + r.webhook_configs.length)).toEqual([
          0, 0,
        ]);
        expect(receivers[1].labels).toEqual({ team: 'nobody', name: 'also-nothing' });
        expect(templates).toEqual([
          join(dir, 'templates/*.tmpl'),
          '/etc/alertmanager/templates/*.tmpl',
        ]);
      },
    ],
    [
      'http-config.yml',
      ({
        receivers: [
          {
            webhook_configs: [bearer, token, oauth, proxy],
          },
        ],
      }) => {
        expect(bearer.http_config.authorization?.type).toBe('Bearer');
        expect(bearer.http_config.authorization?.credentials?.reveal()).toBe('bearer-1');
        expect(token.http_config.authorization?.type).toBe('Token');
        expect(token.http_config.tls_config).toMatchObject({
          min_version: 'TLS12',
          max_version: 'TLS13',
        });
        expect(token.http_config.http_headers['X-Team'].secrets[0].reveal()).toBe('s3cr3t');
        expect(oauth.http_config.oauth2).toMatchObject({ client_id: 'am', scopes: ['alerts'] });
        expect(oauth.http_config.oauth2?.client_secret?.reveal()).toBe('oauth-secret');
        expect(oauth.http_config.proxy_from_environment).toBe(true);
        expect(proxy.http_config.proxy_url).toBe('http://proxy:3128');
      },
    ],
    [
      'yaml-features.yml',
      ({ route, receivers: [hooks] }) => {
        expect(route.routes[0].continue).toBe(true);
        expect(hooks.name).toBe('123');
        expect(
          hooks.webhook_configs.map((w) => [w.url?.reveal(), w.send_resolved, w.max_alerts]),
        ).toEqual([
          ['http://localhost:9000/', false, 5],
          ['http://localhost:9001/', false, 5],
        ]);
      },
    ],
    [
      'tracing.yml',
      ({ tracing }) => {
        expect(tracing).toMatchObject({
          client_type: 'grpc',
          endpoint: 'otel-collector:4317',
          sampling_fraction: 0.25,
          timeout: 5000,
        });
      },
    ],
  ];

  it('has assertions for every fixture', () => {
    expect(cases.map(([name]) => name).sort()).toEqual([...files].sort());
  });

  it.each(cases)('%s gives the expected model', async (name, check) => {
    check(await load(name));
  });
});
