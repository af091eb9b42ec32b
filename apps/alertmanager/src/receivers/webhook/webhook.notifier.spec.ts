import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig, type WebhookConfig } from '../../config';
import { testAlert } from '../../alerts/testing/test-alert';
import { NotifyError } from '../../notify/notifier';
import type { NotifyContext } from '../../notify/notify-context';
import { WebhookNotifier } from './webhook.notifier';

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A loopback receiver that records requests and answers with `reply`. */
async function receiver(
  reply: (req: Received, res: ServerResponse) => void = (_r, res) => res.end(),
  make: (handler: (req: IncomingMessage, res: ServerResponse) => void) => Server = createHttpServer,
) {
  const received: Received[] = [];
  const server = make((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      };
      received.push(r);
      reply(r, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { received, port, close: () => new Promise((r) => server.close(r)) };
}

let dir: string;
beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'webhook-'))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function webhookConfig(yaml: string): WebhookConfig {
  const file = join(dir, 'alertmanager.yml');
  const config = parseConfig(
    `route: {receiver: r}\nreceivers:\n- name: r\n  webhook_configs:\n  - ${yaml.trim().replace(/\n/g, '\n    ')}\n`,
    file,
  );
  return config.receivers[0].webhook_configs[0];
}

function ctx(fields: Partial<NotifyContext> = {}): NotifyContext {
  return {
    now: Date.parse('2026-01-01T00:00:00Z'),
    groupKey: '{}:{}',
    receiver: 'team.x',
    groupLabels: {},
    routeId: '{}',
    repeatInterval: 1,
    muteTimeIntervals: [],
    activeTimeIntervals: [],
    deadline: 0,
    signal: new AbortController().signal,
    ...fields,
  };
}

const ALERTS = [testAlert({ alertname: 'A' }, { startsAt: Date.parse('2025-12-31T23:00:00Z') })];
const servers: { close(): Promise<unknown> }[] = [];
const notifiers: WebhookNotifier[] = [];
afterEach(async () => {
  notifiers.splice(0).forEach((n) => n.close());
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function send(config: WebhookConfig, context = ctx()) {
  const notifier = new WebhookNotifier(config, 'http://am.example:9093');
  notifiers.push(notifier);
  return notifier.notify(context, ALERTS).then(
    () => undefined,
    (err: unknown) => err as NotifyError,
  );
}

describe('WebhookNotifier over loopback HTTP', () => {
  it('POSTs the JSON payload with upstream-style headers', async () => {
    const srv = await receiver();
    servers.push(srv);
    expect(await send(webhookConfig(`url: http://127.0.0.1:${srv.port}/hook`))).toBeUndefined();
    const [req] = srv.received;
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/hook');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers['user-agent']).toMatch(/^Alertmanager\/\d+\.\d+\.\d+/);
    expect(req.headers.authorization).toBeUndefined();
    const body = JSON.parse(req.body);
    expect(body).toMatchObject({
      receiver: 'team\\.x',
      version: '4',
      externalURL: 'http://am.example:9093',
    });
    expect(body.alerts[0].endsAt).toBe('0001-01-01T00:00:00Z');
  });

  it('renders a templated URL for each notification', async () => {
    const srv = await receiver();
    servers.push(srv);
    const config = webhookConfig(
      `url: 'http://127.0.0.1:${srv.port}/{{ .Status }}/{{ .CommonLabels.alertname | toLower }}'`,
    );
    expect(await send(config)).toBeUndefined();
    expect(srv.received.map((r) => r.url)).toEqual(['/firing/a']);
  });

  it('sends basic auth, with the password read from a file at send time', async () => {
    const srv = await receiver();
    servers.push(srv);
    writeFileSync(join(dir, 'pw'), 's3cret\n');
    const config = webhookConfig(`url: http://127.0.0.1:${srv.port}/
http_config:
  basic_auth: {username: alice, password_file: pw}`);
    await send(config);
    writeFileSync(join(dir, 'pw'), 'rotated');
    await send(config);
    expect(srv.received.map((r) => r.headers.authorization)).toEqual([
      `Basic ${Buffer.from('alice:s3cret').toString('base64')}`,
      `Basic ${Buffer.from('alice:rotated').toString('base64')}`,
    ]);
  });

  it.each([
    ['bearer_token', 'bearer_token: tok', 'Bearer tok'],
    ['authorization', 'authorization: {credentials: tok2}', 'Bearer tok2'],
    ['authorization type', 'authorization: {type: Token, credentials: t3}', 'Token t3'],
  ])('sends the %s header', async (_name, http, header) => {
    const srv = await receiver();
    servers.push(srv);
    await send(webhookConfig(`url: http://127.0.0.1:${srv.port}/\nhttp_config:\n  ${http}`));
    expect(srv.received[0].headers.authorization).toBe(header);
  });

  it.each([
    [500, true, 'serverError'],
    [503, true, 'serverError'],
    [400, false, 'clientError'],
    [404, false, 'clientError'],
    [302, false, 'other'],
  ])('status %d fails with retryable=%s and reason %s', async (status, retryable, reason) => {
    const srv = await receiver((_r, res) => {
      res.statusCode = status;
      res.end('boom');
    });
    servers.push(srv);
    const err = await send(
      webhookConfig(`url: http://127.0.0.1:${srv.port}/
http_config: {follow_redirects: false}`),
    );
    expect(err).toBeInstanceOf(NotifyError);
    expect(err).toMatchObject({
      retryable,
      reason,
      message: `unexpected status code ${status}: boom`,
    });
  });

  it('treats a refused connection as retryable', async () => {
    const srv = await receiver();
    await srv.close();
    const err = await send(webhookConfig(`url: http://127.0.0.1:${srv.port}/`));
    expect(err).toMatchObject({ retryable: true, reason: 'other' });
    expect(err?.message).toMatch(/^Post "<redacted>": .*ECONNREFUSED/);
  });

  it('follows redirects by default, repeating a 307 with its body', async () => {
    const srv = await receiver((r, res) => {
      if (r.url === '/old') {
        res.writeHead(307, { Location: '/new' });
      }
      res.end();
    });
    servers.push(srv);
    expect(await send(webhookConfig(`url: http://127.0.0.1:${srv.port}/old`))).toBeUndefined();
    expect(srv.received.map((r) => [r.method, r.url, r.body.length > 0])).toEqual([
      ['POST', '/old', true],
      ['POST', '/new', true],
    ]);
  });

  it('reads url_file at send time', async () => {
    const srv = await receiver();
    servers.push(srv);
    writeFileSync(join(dir, 'url'), `http://127.0.0.1:${srv.port}/from-file\n`);
    await send(webhookConfig('url_file: url'));
    expect(srv.received[0].url).toBe('/from-file');
  });

  it('gives up after its own timeout, as a retryable error', async () => {
    const srv = await receiver(() => undefined); // never answers
    servers.push(srv);
    const err = await send(webhookConfig(`url: http://127.0.0.1:${srv.port}/\ntimeout: 50ms`));
    expect(err).toMatchObject({ retryable: true });
    expect(err?.message).toContain('configured webhook timeout reached (0.05s)');
  });

  it('stops when the flush is aborted', async () => {
    const srv = await receiver(() => undefined);
    servers.push(srv);
    const controller = new AbortController();
    const pending = send(
      webhookConfig(`url: http://127.0.0.1:${srv.port}/`),
      ctx({ signal: controller.signal }),
    );
    controller.abort(new Error('context deadline exceeded'));
    expect((await pending)?.message).toContain('context deadline exceeded');
  });
});

describe('WebhookNotifier over TLS', () => {
  const openssl = spawnSync('openssl', ['version']).status === 0;

  function selfSigned(): { cert: string; key: string } {
    const key = join(dir, 'tls.key');
    const cert = join(dir, 'tls.crt');
    const args = ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert];
    args.push(
      '-days',
      '1',
      '-subj',
      '/CN=alertmanager-test',
      '-addext',
      'subjectAltName=DNS:receiver.test',
    );
    const run = spawnSync('openssl', args);
    if (run.status !== 0) throw new Error(`openssl failed: ${run.stderr}`);
    return { cert: readFileSync(cert, 'utf8'), key: readFileSync(key, 'utf8') };
  }

  it('verifies the server with ca_file and server_name, refuses it without, or skips verification', async () => {
    if (!openssl) {
      console.warn('TLS case not run: the openssl command is not available to make a certificate');
      return;
    }
    const { cert, key } = selfSigned();
    const srv = await receiver(undefined, (handler) => createHttpsServer({ cert, key }, handler));
    servers.push(srv);
    const url = `url: https://127.0.0.1:${srv.port}/`;
    const trusted = webhookConfig(`${url}
http_config: {tls_config: {ca_file: tls.crt, server_name: receiver.test, min_version: TLS12}}`);
    expect(await send(trusted)).toBeUndefined();
    const untrusted = await send(webhookConfig(url));
    expect(untrusted).toMatchObject({ retryable: true });
    expect(untrusted?.message).toMatch(/certificate/i);
    const wrongName = await send(
      webhookConfig(`${url}\nhttp_config: {tls_config: {ca_file: tls.crt}}`),
    );
    expect(wrongName?.message).toMatch(/altnames|certificate|IP/i);
    const insecure = webhookConfig(
      `${url}\nhttp_config: {tls_config: {insecure_skip_verify: true}}`,
    );
    expect(await send(insecure)).toBeUndefined();
    expect(srv.received).toHaveLength(2);
  });
});
