import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NotifyError } from '../notify/notifier';
import { caseAlerts, caseContext, notifierFor } from './testing/integration-case';
import { LoopbackApi, type ApiReply } from './testing/loopback-api';

/** A minimal entry of each integration, pointed at the loopback API. */
const ENTRIES: Record<string, string> = {
  opsgenie_configs: "{api_key: k, api_url: '$URL/og'}",
  victorops_configs: "{api_key: k, routing_key: r, api_url: '$URL/vo'}",
  pushover_configs: '{user_key: u, token: t}',
  telegram_configs: "{bot_token: t, chat_id: 1, api_url: '$URL/tg'}",
  discord_configs: "{webhook_url: '$URL/discord'}",
  webex_configs:
    "{room_id: r, api_url: '$URL/webex', http_config: {authorization: {credentials: t}}}",
  wechat_configs: "{api_secret: s, corp_id: c, api_url: '$URL/wx'}",
  mattermost_configs: "{webhook_url: '$URL/mm', channel: ops}",
  msteams_configs: "{webhook_url: '$URL/teams'}",
  msteamsv2_configs: "{webhook_url: '$URL/workflows'}",
  rocketchat_configs: "{api_url: '$URL/rc', token: t, token_id: u, channel: '#ops'}",
  incidentio_configs: "{url: '$URL/inc', alert_source_token: t}",
  jira_configs: "{api_url: '$URL/rest/api/2', project: OPS, issue_type: Bug}",
};

const telegramError = (code: number) =>
  `{"ok":false,"error_code":${code},"description":"Bad Request: chat not found"}`;
const token = { status: 200, body: '{"access_token":"tok"}' };

/**
 * Which failures each integration retries, as upstream's notifiers decide: the `Retrier` of
 * most retries 5xx only, Opsgenie also 429; Telegram retries every failure; WeChat retries any
 * non-200 status and an expired token, not other API errors.
 */
const CASES: [string, ApiReply[], boolean, string][] = [
  [
    'jira_configs',
    [{ status: 429, body: '' }],
    true,
    'failed to look up existing issues: HTTP request to JIRA API: unexpected status code 429',
  ],
  [
    'jira_configs',
    [
      { status: 200, body: '{"issues":[]}' },
      { status: 400, body: '{"errors":{"project":"project is required"}}' },
    ],
    false,
    'failed to POST request to "issue": unexpected status code 400: {"errors":{"project":"project is required"}}',
  ],
  [
    'incidentio_configs',
    [{ status: 429, body: '{"message":"slow down"}' }],
    true,
    'unexpected status code 429: slow down',
  ],
  ['incidentio_configs', [{ status: 503, body: '' }], true, 'unexpected status code 503'],
  [
    'incidentio_configs',
    [{ status: 422, body: '{"message":"invalid","errors":["title missing","status missing"]}' }],
    false,
    'unexpected status code 422: invalid: title missing, status missing',
  ],
  [
    'rocketchat_configs',
    [{ status: 503, body: '' }],
    true,
    'channel "#ops": unexpected status code 503',
  ],
  [
    'rocketchat_configs',
    [{ status: 200, body: '{"success":false,"error":"error-invalid-channel"}' }],
    false,
    'channel "#ops": error response from Rocketchat: error-invalid-channel',
  ],
  [
    'rocketchat_configs',
    [{ status: 200, body: 'oops' }],
    true,
    'channel "#ops": could not unmarshal JSON response "oops"',
  ],
  ['msteams_configs', [{ status: 502, body: '' }], true, 'unexpected status code 502'],
  [
    'msteams_configs',
    [{ status: 400, body: 'bad card' }],
    false,
    'unexpected status code 400: bad card',
  ],
  ['msteamsv2_configs', [{ status: 503, body: '' }], true, 'unexpected status code 503'],
  ['msteamsv2_configs', [{ status: 429, body: '' }], false, 'unexpected status code 429'],
  [
    'mattermost_configs',
    [{ status: 503, body: '' }],
    true,
    'channel "ops": unexpected status code 503',
  ],
  [
    'mattermost_configs',
    [{ status: 400, body: 'no' }],
    false,
    'channel "ops": unexpected status code 400: no',
  ],
  ['opsgenie_configs', [{ status: 503, body: 'busy' }], true, 'unexpected status code 503: busy'],
  ['opsgenie_configs', [{ status: 429, body: '' }], true, 'unexpected status code 429'],
  ['opsgenie_configs', [{ status: 422, body: 'bad' }], false, 'unexpected status code 422: bad'],
  ['victorops_configs', [{ status: 500, body: '' }], true, 'unexpected status code 500'],
  ['victorops_configs', [{ status: 429, body: '' }], false, 'unexpected status code 429'],
  ['victorops_configs', [{ status: 400, body: '' }], false, 'unexpected status code 400'],
  ['pushover_configs', [{ status: 502, body: '' }], true, 'unexpected status code 502'],
  ['pushover_configs', [{ status: 429, body: '' }], false, 'unexpected status code 429'],
  [
    'pushover_configs',
    [{ status: 400, body: '{"status":0}' }],
    false,
    'unexpected status code 400: {"status":0}',
  ],
  [
    'telegram_configs',
    [{ status: 400, body: telegramError(400) }],
    true,
    'telegram: Bad Request: chat not found (400)',
  ],
  ['telegram_configs', [{ status: 502, body: 'gateway' }], true, 'telebot: Unexpected token'],
  ['discord_configs', [{ status: 500, body: '' }], true, 'unexpected status code 500'],
  ['discord_configs', [{ status: 429, body: '' }], false, 'unexpected status code 429'],
  ['discord_configs', [{ status: 404, body: '' }], false, 'unexpected status code 404'],
  ['webex_configs', [{ status: 503, body: '' }], true, 'unexpected status code 503'],
  ['webex_configs', [{ status: 401, body: '' }], false, 'unexpected status code 401'],
  ['wechat_configs', [token, { status: 500, body: '' }], true, 'unexpected status code 500'],
  ['wechat_configs', [token, { status: 403, body: '' }], true, 'unexpected status code 403'],
  [
    'wechat_configs',
    [token, { status: 200, body: '{"errcode":42001,"errmsg":"access_token expired"}' }],
    true,
    'access_token expired',
  ],
  [
    'wechat_configs',
    [token, { status: 200, body: '{"errcode":40001,"errmsg":"invalid credential"}' }],
    false,
    'invalid credential',
  ],
  [
    'wechat_configs',
    [{ status: 200, body: '{"errcode":40013,"errmsg":"invalid corpid"}' }],
    false,
    'invalid APISecret for CorpID: c',
  ],
];

let api: LoopbackApi;
let dir: string;
beforeEach(async () => {
  api = await new LoopbackApi().start();
  dir = await mkdtemp(join(tmpdir(), 'retries-'));
});
afterEach(async () => {
  await api.stop();
  await rm(dir, { recursive: true, force: true });
});

async function failure(list: string): Promise<NotifyError> {
  const notifier = await notifierFor({ list, entry: ENTRIES[list], apiUrl: api.url, dir });
  try {
    await notifier.notify(caseContext(), caseAlerts(false));
  } catch (err) {
    return err as NotifyError;
  } finally {
    notifier.close?.();
  }
  throw new Error('the notification did not fail');
}

describe('retries over loopback HTTP', () => {
  it.each(CASES)('%s answered %j: retryable %s', async (list, replies, retryable, message) => {
    api.reply(...replies);
    const err = await failure(list);
    expect(err).toBeInstanceOf(NotifyError);
    expect(err.message).toContain(message);
    expect(err.retryable).toBe(retryable);
  });

  it.each(Object.keys(ENTRIES))('%s retries when the API cannot be reached', async (list) => {
    await api.stop();
    const err = await failure(list);
    // Jira names the step that failed first, as upstream does.
    expect(err.message).toMatch(
      /^(failed to look up existing issues: HTTP request to JIRA API: )?(Post|Get) "<redacted>": .*ECONNREFUSED/,
    );
    expect(err.retryable).toBe(true);
    api = await new LoopbackApi().start();
  });

  it('wechat asks for a new token after an expired one, and keeps a good one', async () => {
    const notifier = await notifierFor({
      list: 'wechat_configs',
      entry: ENTRIES.wechat_configs,
      apiUrl: api.url,
      dir,
    });
    api.reply(token, { status: 200, body: '{"errcode":42001,"errmsg":"expired"}' });
    await expect(notifier.notify(caseContext(), caseAlerts(false))).rejects.toThrow('expired');
    await notifier.notify(caseContext(), caseAlerts(false));
    await notifier.notify(caseContext(), caseAlerts(false));
    notifier.close?.();
    expect(api.requests.map((r) => r.url.split('?')[0])).toEqual([
      '/wx/gettoken',
      '/wx/message/send',
      '/wx/gettoken',
      '/wx/message/send',
      '/wx/message/send',
    ]);
  });
});
