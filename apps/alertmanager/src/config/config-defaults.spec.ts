import { parseConfig } from './parse-config';

const MIN = 60_000;

/** Minimal valid config around a fragment: a root route to `r` and a receiver `r`. */
function load(fragment: string) {
  return parseConfig(
    `route:\n  receiver: r\nreceivers:\n  - name: r\n${fragment}`,
    '/etc/am/am.yml',
  );
}

/** Reads a dotted path such as `route.routes.0.group_wait` from the loaded model. */
function at(value: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((v, key) => (v as Record<string, unknown>)?.[key], value);
}

describe('defaults', () => {
  it.each<[string, unknown]>([
    ['global.resolve_timeout', 5 * MIN],
    ['global.smtp_hello', 'localhost'],
    ['global.smtp_require_tls', true],
    ['global.smtp_tls_config', { insecure_skip_verify: false }],
    ['global.http_config.follow_redirects', true],
    ['global.http_config.enable_http2', true],
    ['global.pagerduty_url', 'https://events.pagerduty.com/v2/enqueue'],
    ['global.opsgenie_api_url', 'https://api.opsgenie.com/'],
    ['global.wechat_api_url', 'https://qyapi.weixin.qq.com/cgi-bin/'],
    [
      'global.victorops_api_url',
      'https://alert.victorops.com/integrations/generic/20131114/alert/',
    ],
    ['global.telegram_api_url', 'https://api.telegram.org'],
    ['global.webex_api_url', 'https://webexapis.com/v1/messages'],
    ['global.rocketchat_api_url', 'https://open.rocket.chat/'],
    ['route.group_wait', 30_000],
    ['route.group_interval', 5 * MIN],
    ['route.repeat_interval', 4 * 60 * MIN],
    ['route.group_by', []],
    ['route.continue', false],
    ['templates', []],
    ['inhibit_rules', []],
    ['time_intervals', []],
  ])('%s', (path, expected) => {
    expect(at(load(''), path)).toEqual(expected);
  });

  it('restores the defaults of an empty global section', () => {
    expect(load('global:\n').global).toEqual(load('').global);
    expect(load('global: {}\n').global).toEqual(load('').global);
  });

  it.each<[string, string, unknown]>([
    ['webhook', '    webhook_configs: [{url: "http://h/"}]\n', true],
    ['pagerduty', '    pagerduty_configs: [{routing_key: k}]\n', true],
    ['slack', '    slack_configs: [{api_url: "https://s/"}]\n', false],
    ['email', '    email_configs: [{to: a@b, from: c@d, smarthost: "h:25"}]\n', false],
  ])('send_resolved of %s defaults to %s', (kind, fragment, expected) => {
    const receiver = load(fragment).receivers[0] as unknown as Record<
      string,
      Array<{ send_resolved: boolean }>
    >;
    expect(receiver[`${kind}_configs`][0].send_resolved).toBe(expected);
  });
});

describe('route inheritance', () => {
  const config = parseConfig(
    `route:
  receiver: root
  group_by: [a]
  group_wait: 1s
  group_interval: 2m
  repeat_interval: 3h
  routes:
    - matchers: [x="1"]
      mute_time_intervals: [night]
      routes:
        - matchers: [y="1"]
        - matchers: [y="2"]
          group_by: []
          receiver: other
          group_interval: 10m
    - matchers: [x="2"]
      group_by: ['...']
      routes:
        - matchers: [y="3"]
receivers:
  - name: root
  - name: other
time_intervals:
  - name: night
    time_intervals: [{times: [{start_time: '00:00', end_time: '06:00'}]}]
`,
    'am.yml',
  );
  const [first, second] = config.route.routes;

  it.each<[string, unknown, unknown]>([
    ['receiver flows down', first.routes[0].receiver, 'root'],
    ['group_by flows down', first.routes[0].group_by, ['a']],
    [
      'timers flow down',
      [first.routes[0].group_wait, first.routes[0].repeat_interval],
      [1000, 3 * 60 * MIN],
    ],
    ['an explicit empty group_by overrides', first.routes[1].group_by, []],
    ['a child sets its own receiver', first.routes[1].receiver, 'other'],
    ['a child sets its own timer', first.routes[1].group_interval, 10 * MIN],
    ['other timers still flow down', first.routes[1].group_wait, 1000],
    ['mute intervals are not inherited', first.routes[0].mute_time_intervals, []],
    ['the parent keeps its own mute intervals', first.mute_time_intervals, ['night']],
    ['group by all flows down', second.routes[0].group_by, ['...']],
  ])('%s', (_name, actual, expected) => {
    expect(actual).toEqual(expected);
  });
});

describe('receiver inheritance from global', () => {
  const global = `global:
  slack_api_url: https://hooks.slack.com/g
  pagerduty_url: https://pd.example.com/enqueue
  http_config:
    follow_redirects: false
    basic_auth: {username: g}
`;

  it('copies the whole global http_config when the receiver has none', () => {
    const config = parseConfig(
      `${global}route: {receiver: r}\nreceivers:\n  - name: r\n    webhook_configs: [{url: "http://a/"}, {url: "http://b/", http_config: {enable_http2: false}}]\n`,
      'am.yml',
    );
    const [inherited, own] = config.receivers[0].webhook_configs;
    expect(inherited.http_config).toEqual(config.global.http_config);
    expect(inherited.http_config).not.toBe(config.global.http_config);
    // A receiver's own http_config replaces the global one entirely: no basic_auth, defaults back.
    expect(own.http_config).toMatchObject({ follow_redirects: true, enable_http2: false });
    expect(own.http_config.basic_auth).toBeUndefined();
  });

  it('uses the global Slack and PagerDuty URLs', () => {
    const config = parseConfig(
      `${global}route: {receiver: r}\nreceivers:\n  - name: r\n    slack_configs: [{}]\n    pagerduty_configs: [{service_key: k}]\n`,
      'am.yml',
    );
    expect(config.receivers[0].slack_configs[0].api_url?.reveal()).toBe(
      'https://hooks.slack.com/g',
    );
    expect(config.receivers[0].pagerduty_configs[0].url).toBe('https://pd.example.com/enqueue');
  });

  it('keeps a receiver password over the global one, and the file form counts as set', () => {
    const config = parseConfig(
      `global:
  smtp_from: a@b
  smtp_smarthost: h:25
  smtp_auth_password: global
route: {receiver: r}
receivers:
  - name: r
    email_configs:
      - to: x@y
      - to: x@y
        auth_password: own
      - to: x@y
        auth_password_file: /pw
`,
      'am.yml',
    );
    const passwords = config.receivers[0].email_configs.map((e) => [
      e.auth_password?.reveal(),
      e.auth_password_file,
    ]);
    expect(passwords).toEqual([
      ['global', undefined],
      ['own', undefined],
      [undefined, '/pw'],
    ]);
  });
});
