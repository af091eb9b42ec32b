import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '@redisx/testing';
import { parseMail } from './support/mime-message';
import { HttpsStandIn } from './support/https-stand-in';
import { metricValue, startServerProcess, type ServerProcess } from './support/server-process';
import { SmtpTestServer } from './support/smtp-test-server';
import { WebhookCollector } from './support/webhook-collector';

const SMTP_PASSWORD = 'smtp-pass-7f3a';
const ROUTING_KEY = 'rk-secret-91b2';
const SERVICE_KEY = 'sk-secret-44d0';
const CHAT_PATH = '/chat-hook-secret-5e1c';
const SECRETS = [SMTP_PASSWORD, ROUTING_KEY, SERVICE_KEY, CHAT_PATH, 'wrong-pass-0c9e'];

/** Each receiver gets the alerts whose `to` label names it. */
function config(
  http: string,
  tls: SmtpTestServer,
  plain: SmtpTestServer,
  dir: string,
  paging: HttpsStandIn,
): string {
  const route = (to: string) => `    - {matchers: ['to="${to}"'], receiver: ${to}}`;
  const names = ['mail', 'mail-badauth', 'mail-notls', 'chat400', 'paging503', 'pagingv1'];
  return `
global:
  smtp_from: alertmanager@example.org
route:
  receiver: mail
  group_by: [alertname, to]
  group_wait: 0s
  group_interval: 1s
  repeat_interval: 1h
  routes:
${names.map(route).join('\n')}
receivers:
  - name: mail
    email_configs:
      - to: 'oncall@example.org, Ops <ops@example.org>'
        smarthost: '${tls.address}'
        hello: am.example.org
        auth_username: alertmanager
        auth_password_file: '${join(dir, 'smtp-password')}'
        tls_config: {ca_file: '${join(dir, 'ca.pem')}', server_name: localhost}
        headers: {Subject: 'Alert: {{ .GroupLabels.alertname }} ({{ .Status }})', X-Team: '{{ .CommonLabels.team }}'}
        text: '{{ range .Alerts }}{{ .Annotations.summary }}{{ end }}'
  - name: mail-badauth
    email_configs:
      - {to: a@example.org, smarthost: '${tls.address}', auth_username: alertmanager, auth_password: wrong-pass-0c9e, tls_config: {ca_file: '${join(dir, 'ca.pem')}', server_name: localhost}}
  - name: mail-notls
    email_configs:
      - {to: a@example.org, smarthost: '${plain.address}'}
  - name: chat400
    slack_configs:
      - {api_url: '${http}${CHAT_PATH}', channel: '#alerts'}
  - name: paging503
    pagerduty_configs:
      - {routing_key: ${ROUTING_KEY}, url: '${http}/paging503'}
  - name: pagingv1
    pagerduty_configs:
      - service_key: ${SERVICE_KEY}
        description: '{{ .GroupLabels.alertname }} on {{ .CommonLabels.to }}'
        http_config:
          proxy_url: ${paging.proxyUrl}
          proxy_connect_header: {X-Proxy-Token: [proxy-token-3c7d]}
          tls_config: {ca_file: '${paging.caFile}'}
`;
}

async function post(url: string, to: string): Promise<void> {
  const alert = {
    labels: { alertname: 'Broken', to, team: 'db' },
    annotations: { summary: `summary for ${to}` },
  };
  const res = await fetch(`${url}/api/v2/alerts`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify([alert]),
  });
  expect(res.status).toBe(200);
}

/**
 * Receivers on the real server against a real SMTP server (STARTTLS with a certificate made
 * for the test, AUTH) and loopback HTTP receivers that fail on purpose: what is retried, what
 * is logged, and that no secret shows in logs, metrics or the status API.
 */
describe('receivers: TLS, authentication, failures and secrets', () => {
  let dir: string;
  let server: ServerProcess;
  let paging: HttpsStandIn;
  const http = new WebhookCollector();
  const tls = new SmtpTestServer({
    starttls: true,
    credentials: { user: 'alertmanager', pass: SMTP_PASSWORD },
  });
  const plain = new SmtpTestServer({ starttls: false });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'am-failures-'));
    await Promise.all([http.start(), tls.start(), plain.start()]);
    await writeFile(join(dir, 'smtp-password'), `${SMTP_PASSWORD}\n`);
    await writeFile(join(dir, 'ca.pem'), tls.cert);
    paging = await new HttpsStandIn(http, '/v1').start(dir);
    await writeFile(join(dir, 'am.yml'), config(http.url, tls, plain, dir, paging));
    http.failNext(CHAT_PATH, 100, 400);
    http.failNext('/paging503', 1, 503);
    server = await startServerProcess(join(dir, 'am.yml'), ['--log.level=debug']);
    for (const to of ['mail', 'mail-badauth', 'mail-notls', 'chat400', 'paging503', 'pagingv1']) {
      await post(server.url, to);
    }
    await http.waitFor('/paging503', 1);
    await http.waitFor('/v1', 1);
    await waitFor('the mail', () => tls.mails.length >= 1, 15_000, 20);
    await waitFor('a retried login', () => tls.authFailures.length >= 2, 15_000, 20);
    await waitFor(
      'failures logged',
      () => {
        const out = server.process.output();
        return (
          /mail-badauth\/email\[0\]/.test(out) &&
          /mail-notls\/email\[0\]/.test(out) &&
          /chat400\/slack\[0\]/.test(out)
        );
      },
      15_000,
      50,
    );
  }, 40_000);

  afterAll(async () => {
    await server?.stop();
    await Promise.all([http.stop(), tls.stop(), plain.stop(), paging?.stop()]);
    await rm(dir, { recursive: true, force: true });
  });

  it('mails over STARTTLS with AUTH: envelope, headers, rendered subject and both parts', () => {
    const [mail] = tls.mails;
    expect(mail).toMatchObject({
      secure: true,
      user: 'alertmanager',
      from: 'alertmanager@example.org',
      to: ['oncall@example.org', 'ops@example.org'],
    });
    const parsed = parseMail(mail.raw);
    expect(parsed.headers).toMatchObject({
      subject: 'Alert: Broken (firing)',
      'x-team': 'db',
      to: 'oncall@example.org, Ops <ops@example.org>',
      from: 'alertmanager@example.org',
    });
    expect(parsed.headers['content-type']).toMatch(/^multipart\/alternative;/);
    expect(parsed.headers['message-id']).toMatch(/^<.+@.+>$/);
    expect(parsed.parts['text/plain']).toBe('summary for mail');
    expect(parsed.parts['text/html']).toContain('<title>[FIRING:1] Broken mail (db)</title>');
  });

  it('retries wrong SMTP credentials and logs the server answer', () => {
    expect(tls.authFailures.length).toBeGreaterThanOrEqual(2);
    expect(server.process.output()).toMatch(/mail-badauth\/email\[0\].*auth: 535/);
  });

  it('fails when the server does not offer STARTTLS, with upstream message', () => {
    expect(server.process.output()).toContain(
      `'require_tls' is true (default) but \\"${plain.address}\\" does not advertise the STARTTLS extension`,
    );
    expect(plain.mails).toHaveLength(0);
  });

  it('does not retry a 400 and logs it', async () => {
    // The failed flush is tried again at the next group_interval (1 s here), as upstream's; what
    // matters is that no flush retries: every request is one flush's only, failed, attempt.
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    const requests = metricValue(
      metrics,
      'alertmanager_notification_requests_total{integration="slack"}',
    );
    expect(requests).toBeGreaterThanOrEqual(1);
    expect(
      metricValue(
        metrics,
        'alertmanager_notifications_failed_total{integration="slack",reason="clientError"}',
      ),
    ).toBe(requests);
    expect(server.process.output()).toMatch(
      /Notify for alerts failed.*chat400\/slack\[0\]: notify retry canceled due to unrecoverable error after 1 attempts: unexpected status code 400: failing on purpose/,
    );
  });

  it('retries a 503 and then delivers', async () => {
    // One v1 request, and the v2 request twice: the 503, then the retry that was delivered.
    await waitFor('the requests counted', async () => {
      const metrics = await (await fetch(`${server.url}/metrics`)).text();
      const requests = 'alertmanager_notification_requests_total{integration="pagerduty"}';
      return (metricValue(metrics, requests) ?? 0) >= 3;
    });
    expect(http.to('/paging503')[0].body).toMatchObject({
      routing_key: ROUTING_KEY,
      event_action: 'trigger',
    });
  });

  it('reaches the fixed v1 endpoint through proxy_url, with proxy_connect_header on CONNECT', () => {
    expect(paging.connects.map((c) => [c.authority, c.headers['x-proxy-token']])).toEqual([
      ['events.pagerduty.com:443', 'proxy-token-3c7d'],
    ]);
    expect(http.to('/v1')[0].headers.host).toBe('events.pagerduty.com');
  });

  it('sends Events API v1 requests as upstream', () => {
    const body = http.to('/v1')[0].body as unknown as Record<string, unknown>;
    expect(Object.keys(body)).toEqual([
      'service_key',
      'incident_key',
      'event_type',
      'description',
      'event_action',
      'payload',
      'client',
      'client_url',
      'details',
    ]);
    expect(body).toMatchObject({
      service_key: SERVICE_KEY,
      event_type: 'trigger',
      description: 'Broken on pagingv1',
      event_action: '',
      payload: null,
      client: 'Alertmanager',
    });
    expect(body.incident_key).toMatch(/^[0-9a-f]{64}$/);
  });

  it('keeps every secret out of logs, metrics and /api/v2/status', async () => {
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    const status = await (await fetch(`${server.url}/api/v2/status`)).text();
    for (const secret of SECRETS.filter((s) => s !== CHAT_PATH)) {
      expect(server.process.output()).not.toContain(secret);
      expect(metrics).not.toContain(secret);
      expect(status).not.toContain(secret);
    }
    expect(server.process.output()).not.toContain(CHAT_PATH);
    expect(status).not.toContain(CHAT_PATH);
  });
});
