import { parseConfig, SUPPORTED_INTEGRATIONS } from '../config';
import { StreamLogger } from '../logging/stream-logger';
import { EmailNotifier } from './email/email.notifier';
import { PagerdutyNotifier } from './pagerduty/pagerduty.notifier';
import { SlackNotifier } from './slack/slack.notifier';
import { buildReceivers, closeReceivers, INTEGRATION_NAMES } from './registry';
import { WebhookNotifier } from './webhook/webhook.notifier';

const CONFIG = `
route: {receiver: blackhole}
receivers:
  - name: blackhole
  - name: hooks
    webhook_configs:
      - url: http://127.0.0.1:1/a
      - url: http://127.0.0.1:1/b
        send_resolved: false
        http_config:
          oauth2: {client_id: x, client_secret: y, token_url: 'http://127.0.0.1:1/token'}
  - name: mail
    email_configs:
      - {to: a@example.com, from: b@example.com, smarthost: 'localhost:25'}
  - name: chat
    slack_configs: [{api_url: 'http://127.0.0.1:1/chat'}]
  - name: paging
    pagerduty_configs: [{routing_key: abc}]
`;

function build() {
  const lines: string[] = [];
  const logger = new StreamLogger('debug', 'logfmt', (l) => lines.push(l));
  const receivers = buildReceivers(parseConfig(CONFIG, 'x.yml'), {
    externalUrl: 'http://am:9093',
    logger,
  });
  return { receivers, lines };
}

describe('buildReceivers', () => {
  it('maps each receiver to its integrations, indexed per integration name', () => {
    const { receivers } = build();
    expect([...receivers.keys()]).toEqual(['blackhole', 'hooks', 'mail', 'chat', 'paging']);
    expect(receivers.get('blackhole')).toEqual([]);
    expect(
      receivers.get('hooks')?.map((i) => [i.name, i.index, i.sendResolved, i.notifier.constructor]),
    ).toEqual([
      ['webhook', 0, true, WebhookNotifier],
      ['webhook', 1, false, WebhookNotifier],
    ]);
    closeReceivers(receivers);
  });

  it('takes oauth2 without a warning, and warns about a SOCKS proxy the client cannot use', () => {
    const { lines } = build();
    expect(lines.join('\n')).not.toMatch(/oauth2 is not supported/);
    const socks = buildReceivers(
      parseConfig(
        "route: {receiver: s}\nreceivers:\n  - name: s\n    webhook_configs: [{url: 'http://127.0.0.1:1/', http_config: {proxy_url: 'socks5://127.0.0.1:1080'}}]\n",
        's.yml',
      ),
      {
        externalUrl: 'http://am:9093',
        logger: new StreamLogger('debug', 'logfmt', (l) => lines.push(l)),
      },
    );
    closeReceivers(socks);
    expect(lines.join('\n')).toMatch(
      /http_config a SOCKS proxy_url is not supported.*s\/webhook\[0\]/,
    );
  });

  it('builds the email, paging and chat notifiers', () => {
    const { receivers } = build();
    expect(
      receivers.get('mail')?.map((i) => [i.name, i.index, i.sendResolved, i.notifier.constructor]),
    ).toEqual([['email', 0, false, EmailNotifier]]);
    expect(
      receivers.get('chat')?.map((i) => [i.name, i.sendResolved, i.notifier.constructor]),
    ).toEqual([['slack', false, SlackNotifier]]);
    expect(
      receivers.get('paging')?.map((i) => [i.name, i.sendResolved, i.notifier.constructor]),
    ).toEqual([['pagerduty', true, PagerdutyNotifier]]);
    closeReceivers(receivers);
  });

  it('builds every integration the config decoder accepts, and no other', () => {
    expect([...INTEGRATION_NAMES].sort()).toEqual([...SUPPORTED_INTEGRATIONS].sort());
    expect(INTEGRATION_NAMES).toContain('mattermost');
  });
});
