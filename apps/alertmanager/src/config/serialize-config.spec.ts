import { parse } from 'yaml';
import { parseConfig } from './parse-config';
import { serializeConfig } from './serialize-config';

// Every secret upstream masks (plus the webhook URL, a secret since 0.26), each with a
// distinct value so that the test can prove none of them leaks into the dump.
const SECRETS = {
  smtp_auth_password: 'S-smtp-password',
  smtp_auth_secret: 'S-smtp-secret',
  slack_api_url: 'https://hooks.slack.com/S-global-slack',
  opsgenie_api_key: 'S-opsgenie',
  wechat_api_secret: 'S-wechat',
  victorops_api_key: 'S-victorops',
  telegram_bot_token: 'S-telegram',
  rocketchat_token: 'S-rocket',
  rocketchat_token_id: 'S-rocket-id',
  mattermost_webhook_url: 'https://mm.example.com/S-mattermost',
  basic_auth_password: 'S-basic',
  bearer_token: 'S-bearer',
  authorization: 'S-authorization',
  oauth2_client_secret: 'S-oauth2',
  tls_key: 'S-tls-key',
  header_secret: 'S-header',
  proxy_header: 'S-proxy-header',
  webhook_url: 'https://hooks.example.com/S-webhook',
  slack_url: 'https://hooks.slack.com/S-receiver-slack',
  routing_key: 'S-routing-key',
  service_key: 'S-service-key',
  email_password: 'S-email-password',
  email_secret: 'S-email-secret',
};

const WITH_SECRETS = `
global:
  smtp_from: a@example.com
  smtp_smarthost: smtp.example.com:25
  smtp_auth_password: ${SECRETS.smtp_auth_password}
  smtp_auth_secret: ${SECRETS.smtp_auth_secret}
  chat_api_url: ${SECRETS.slack_api_url}
  opsgenie_api_key: ${SECRETS.opsgenie_api_key}
  wechat_api_secret: ${SECRETS.wechat_api_secret}
  victorops_api_key: ${SECRETS.victorops_api_key}
  telegram_bot_token: ${SECRETS.telegram_bot_token}
  rocketchat_token: ${SECRETS.rocketchat_token}
  rocketchat_token_id: ${SECRETS.rocketchat_token_id}
  mattermost_webhook_url: ${SECRETS.mattermost_webhook_url}
  http_config:
    basic_auth: {username: u, password: ${SECRETS.basic_auth_password}}
    tls_config: {cert: c, key: ${SECRETS.tls_key}}
    http_headers:
      X-Key: {secrets: [${SECRETS.header_secret}]}
    proxy_url: http://proxy:3128
    proxy_connect_header:
      Proxy-Key: [${SECRETS.proxy_header}]
route:
  receiver: r
receivers:
  - name: r
    webhook_configs:
      - url: ${SECRETS.webhook_url}
        http_config: {bearer_token: ${SECRETS.bearer_token}}
      - url: http://b/
        http_config: {authorization: {credentials: ${SECRETS.authorization}}}
      - url: http://c/
        http_config:
          oauth2: {client_id: id, client_secret: ${SECRETS.oauth2_client_secret}, token_url: http://t/}
    chat_configs:
      - api_url: ${SECRETS.slack_url}
    paging_configs:
      - routing_key: ${SECRETS.routing_key}
      - service_key: ${SECRETS.service_key}
    email_configs:
      - to: x@example.com
        auth_password: ${SECRETS.email_password}
        auth_secret: ${SECRETS.email_secret}
`;

describe('serializeConfig', () => {
  const dump = serializeConfig(parseConfig(WITH_SECRETS, '/etc/am/am.yml'));
  const tree = parse(dump, { version: '1.1' });

  it.each(Object.entries(SECRETS))('never prints the %s', (_name, secret) => {
    expect(dump).not.toContain(secret);
  });

  it.each<[string, (t: typeof tree) => unknown]>([
    ['global.smtp_auth_password', (t) => t.global.smtp_auth_password],
    ['global.slack_api_url', (t) => t.global.slack_api_url],
    ['global basic_auth password', (t) => t.global.http_config.basic_auth.password],
    ['global tls key', (t) => t.global.http_config.tls_config.key],
    ['header secrets', (t) => t.global.http_config.http_headers['X-Key'].secrets[0]],
    ['webhook url', (t) => t.receivers[0].webhook_configs[0].url],
    [
      'bearer token (as authorization)',
      (t) => t.receivers[0].webhook_configs[0].http_config.authorization.credentials,
    ],
    [
      'oauth2 client_secret',
      (t) => t.receivers[0].webhook_configs[2].http_config.oauth2.client_secret,
    ],
    ['slack api_url', (t) => t.receivers[0].slack_configs[0].api_url],
    ['pagerduty routing_key', (t) => t.receivers[0].pagerduty_configs[0].routing_key],
    ['pagerduty service_key', (t) => t.receivers[0].pagerduty_configs[1].service_key],
    ['email auth_password', (t) => t.receivers[0].email_configs[0].auth_password],
    ['email auth_secret', (t) => t.receivers[0].email_configs[0].auth_secret],
  ])('prints %s as <secret>', (_name, pick) => {
    expect(pick(tree)).toBe('<secret>');
  });

  it('uses upstream names for aliases', () => {
    expect(Object.keys(tree.receivers[0])).toEqual(
      expect.arrayContaining(['slack_configs', 'pagerduty_configs']),
    );
    expect(dump).not.toMatch(/^\s*(chat_configs|chat_api_url|paging_configs):/m);
  });

  it('loads again from its own output', () => {
    expect(() => parseConfig(dump, '/etc/am/am.yml')).not.toThrow();
  });

  it('fills in defaults and prints durations the Prometheus way', () => {
    const plain = parse(
      serializeConfig(parseConfig('route: {receiver: r}\nreceivers: [{name: r}]\n', 'a.yml')),
    );
    expect(plain.global.resolve_timeout).toBe('5m');
    expect(plain.route).toMatchObject({
      group_wait: '30s',
      group_interval: '5m',
      repeat_interval: '4h',
    });
    expect(plain.global.pagerduty_url).toBe('https://events.pagerduty.com/v2/enqueue');
  });

  it.each([
    'route: {receiver: r, group_by: [a], routes: [{receiver: r, group_by: [], matchers: ["a=~\\"x|y\\""]}]}\nreceivers: [{name: r}]\n',
    'route: {receiver: r}\nreceivers: [{name: r, slack_configs: [{api_url_file: /s, title: ""}]}]\n',
    'route: {receiver: "yes"}\nreceivers: [{name: "yes"}, {name: "010"}]\ntime_intervals: [{name: "on", time_intervals: [{weekdays: [monday], months: [may]}]}]\n',
  ])('round-trips %j', (text) => {
    const config = parseConfig(text, 'a.yml');
    expect(parseConfig(serializeConfig(config), 'a.yml')).toEqual(config);
  });
});
