import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runProcess, waitFor } from '@redisx/testing';
import { LoopbackApi } from '../src/receivers/testing/loopback-api';
import { postAlerts } from './support/alerts-client';
import { HttpsStandIn } from './support/https-stand-in';
import { AMTOOL_BIN, startServerProcess, type ServerProcess } from './support/server-process';
import { SmtpTestServer } from './support/smtp-test-server';

/**
 * Each integration of the configuration below, and the path of the request that shows it
 * delivered (on the loopback API; Pushover's fixed endpoint through a proxy, email by SMTP).
 */
const INTEGRATIONS: [list: string, entry: string, path: RegExp][] = [
  ['webhook_configs', `{url: '$URL/webhook'}`, /^POST \/webhook$/],
  ['slack_configs', `{api_url: '$URL/slack', channel: '#alerts'}`, /^POST \/slack$/],
  ['pagerduty_configs', `{routing_key: rk, url: '$URL/pagerduty'}`, /^POST \/pagerduty$/],
  ['email_configs', `{to: oncall@example.org}`, /^SMTP oncall@example.org$/],
  ['opsgenie_configs', `{api_key: og-key, api_url: '$URL/og/'}`, /^POST \/og\/v2\/alerts$/],
  [
    'victorops_configs',
    `{api_key: vo-key, routing_key: vo-route, api_url: '$URL/vo/'}`,
    /^POST \/vo\/vo-key\/vo-route$/,
  ],
  [
    'pushover_configs',
    `{user_key: uk, token: tk, http_config: {proxy_url: '$PROXY', tls_config: {ca_file: '$CA'}}}`,
    // The stand-in records that a request reached Pushover's host, not its path: the exact
    // request is in the integration-requests.json cases.
    /^POST api\.pushover\.net$/,
  ],
  [
    'wechat_configs',
    `{api_secret: wx-secret, corp_id: corp, api_url: '$URL/wechat/', to_user: '@all', agent_id: '1000002'}`,
    /^POST \/wechat\/message\/send\?access_token=tok$/,
  ],
  [
    'telegram_configs',
    `{bot_token: tg-token, chat_id: 42, api_url: '$URL/tg'}`,
    /^POST \/tg\/bottg-token\/sendMessage$/,
  ],
  [
    'sns_configs',
    `{api_url: '$URL/sns/', sigv4: {region: eu-west-1, access_key: AKIDEXAMPLE, secret_key: s3cr3t}, topic_arn: 'arn:aws:sns:eu-west-1:123456789012:alerts'}`,
    /^POST \/sns\/$/,
  ],
  [
    'webex_configs',
    `{room_id: room, api_url: '$URL/webex', http_config: {authorization: {credentials: wx-token}}}`,
    /^POST \/webex$/,
  ],
  ['discord_configs', `{webhook_url: '$URL/discord/hook'}`, /^POST \/discord\/hook$/],
  [
    'msteams_configs',
    `{webhook_url: '$URL/teams/webhookb2/abc'}`,
    /^POST \/teams\/webhookb2\/abc$/,
  ],
  ['msteamsv2_configs', `{webhook_url: '$URL/workflows/abc'}`, /^POST \/workflows\/abc$/],
  [
    'jira_configs',
    `{api_url: '$URL/rest/api/2', project: OPS, issue_type: Bug}`,
    /^POST \/rest\/api\/2\/issue$/,
  ],
  [
    'rocketchat_configs',
    `{api_url: '$URL/rc/', token_id: uid}`,
    /^POST \/rc\/api\/v1\/chat\.postMessage$/,
  ],
  [
    'incidentio_configs',
    `{url: '$URL/incidentio/alert-events/http/abc', alert_source_token: src-token}`,
    /^POST \/incidentio\/alert-events\/http\/abc$/,
  ],
  [
    'mattermost_configs',
    `{webhook_url: '$URL/mattermost/hooks/abc'}`,
    /^POST \/mattermost\/hooks\/abc$/,
  ],
];

/**
 * One `alertmanager.yml` with a receiver holding every integration this server has (each of
 * current upstream's), on loopback endpoints: `check-config` accepts it, the server loads it,
 * and one alert reaches every one of them.
 */
describe('one configuration with every integration', () => {
  let dir: string;
  let api: LoopbackApi;
  let smtp: SmtpTestServer;
  let pushover: HttpsStandIn;
  let server: ServerProcess;
  let configFile: string;
  /** Requests that came through the Pushover stand-in. */
  const proxied: string[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'am-every-integration-'));
    api = await new LoopbackApi().start();
    smtp = await new SmtpTestServer({ starttls: false }).start();
    await mkdir(join(dir, 'pushover'));
    const sink = { record: (path: string) => proxied.push(path) };
    pushover = await new HttpsStandIn(sink, '', 'api.pushover.net').start(join(dir, 'pushover'));
    const entries = INTEGRATIONS.map(([list, entry]) => `    ${list}:\n      - ${entry}`)
      .join('\n')
      .replaceAll('$URL', api.url)
      .replaceAll('$PROXY', pushover.proxyUrl)
      .replaceAll('$CA', pushover.caFile);
    configFile = join(dir, 'alertmanager.yml');
    await writeFile(
      configFile,
      `global:
  smtp_smarthost: '${smtp.address}'
  smtp_from: alertmanager@example.org
  smtp_require_tls: false
  rocketchat_token: rc-token
route:
  receiver: everything
  group_by: [alertname]
  group_wait: 0s
receivers:
  - name: everything
${entries}
`,
    );
    server = await startServerProcess(configFile);
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    await pushover?.stop();
    await smtp?.stop();
    await api?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('passes check-config, naming every integration', async () => {
    const result = await runProcess(process.execPath, [AMTOOL_BIN, 'check-config', configFile]);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain(`Checking '${configFile}'  SUCCESS`);
    expect(result.stdout).toContain(' - 1 receivers\n');
    expect(result.code).toBe(0);
  });

  it('delivers one alert to every integration', async () => {
    await postAlerts(server.url, [
      { labels: { alertname: 'EveryIntegration', severity: 'critical', instance: 'db-1' } },
    ]);
    const delivered = () => [
      ...api.requests.map((r) => `${r.method} ${r.url}`),
      ...proxied.map(() => 'POST api.pushover.net'),
      ...smtp.mails.flatMap((mail) => mail.to.map((to) => `SMTP ${to}`)),
    ];
    const missing = () => {
      const got = delivered();
      return INTEGRATIONS.filter(([, , path]) => !got.some((d) => path.test(d))).map(
        ([list]) => list,
      );
    };
    await waitFor('a delivery to every integration', () => missing().length === 0).catch(
      (error: unknown) => {
        throw new Error(
          `${String(error)}: none to ${missing().join(', ')}; got ${delivered().join(' | ')}`,
        );
      },
    );
    expect(missing()).toEqual([]);
  }, 30_000);
});
