import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HttpConfig } from '../config';
import { Secret } from '../config';
import { HttpsStandIn } from '../../test/support/https-stand-in';
import { WebhookCollector } from '../../test/support/webhook-collector';
import { HttpClient } from './http-client';

/** A forward proxy for plain HTTP on loopback that records what it was asked. */
class ForwardProxy {
  readonly seen: Array<{ url: string; headers: IncomingHttpHeaders }> = [];
  private server: Server | undefined;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      this.seen.push({ url: req.url ?? '', headers: req.headers });
      const target = new URL(req.url ?? '');
      const headers = { ...req.headers };
      delete headers['proxy-authorization'];
      const out = request(target, { method: req.method, headers, agent: false }, (upstream) => {
        res.writeHead(upstream.statusCode ?? 502, upstream.headers);
        upstream.pipe(res);
      });
      req.pipe(out);
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

const config = (over: Partial<HttpConfig>): HttpConfig =>
  ({
    http_headers: {},
    follow_redirects: true,
    enable_http2: false,
    tls_config: { insecure_skip_verify: false },
    proxy_from_environment: false,
    proxy_connect_header: {},
    ...over,
  }) as HttpConfig;

describe('HttpClient through a proxy', () => {
  const hooks = new WebhookCollector();
  const proxy = new ForwardProxy();
  let dir: string;
  let tunnel: HttpsStandIn;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'proxy-'));
    await Promise.all([hooks.start(), proxy.start()]);
    tunnel = await new HttpsStandIn(hooks, '/tunnelled').start(dir);
  });
  afterAll(async () => {
    await Promise.all([hooks.stop(), proxy.stop(), tunnel.stop()]);
    await rm(dir, { recursive: true, force: true });
  });

  it('sends a plain HTTP request to the proxy with the absolute URL and its credentials', async () => {
    const proxyUrl = proxy.url.replace('http://', 'http://ops:s%40cret@');
    const client = new HttpClient(config({ proxy_url: proxyUrl }));
    const res = await client.send({ method: 'POST', url: `${hooks.url}/hook`, body: '{"a":1}' });
    client.close();
    expect(res.status).toBe(200);
    expect(proxy.seen.map((s) => [s.url, s.headers['proxy-authorization']])).toEqual([
      [`${hooks.url}/hook`, `Basic ${Buffer.from('ops:s@cret').toString('base64')}`],
    ]);
    expect(hooks.to('/hook').map((d) => d.body)).toEqual([{ a: 1 }]);
  });

  it('goes direct to a host no_proxy names', async () => {
    const before = proxy.seen.length;
    const client = new HttpClient(config({ proxy_url: proxy.url, no_proxy: '127.0.0.0/8' }));
    expect(
      (await client.send({ method: 'POST', url: `${hooks.url}/direct`, body: '{}' })).status,
    ).toBe(200);
    client.close();
    expect(proxy.seen.length).toBe(before);
    expect(hooks.to('/direct')).toHaveLength(1);
  });

  it('tunnels HTTPS with CONNECT, sending proxy_connect_header, and verifies the target with ca_file', async () => {
    const client = new HttpClient(
      config({
        proxy_url: tunnel.proxyUrl,
        proxy_connect_header: { 'X-Proxy-Token': [new Secret('t0ken')] },
        tls_config: { ca_file: tunnel.caFile, insecure_skip_verify: false },
      }),
    );
    const url = 'https://events.pagerduty.com/generic/2010-04-15/create_event.json';
    const res = await client.send({ method: 'POST', url, body: '{"b":2}' });
    expect(res).toMatchObject({ status: 200, body: '{"status":"success"}', truncated: false });
    expect(tunnel.connects.at(-1)).toMatchObject({
      authority: 'events.pagerduty.com:443',
      headers: { 'x-proxy-token': 't0ken' },
    });
    expect(hooks.to('/tunnelled').map((d) => [d.headers.host, d.body])).toEqual([
      ['events.pagerduty.com', { b: 2 }],
    ]);
  });

  it('refuses a target whose certificate the CA did not sign, and a CONNECT the proxy refuses', async () => {
    const untrusted = new HttpClient(config({ proxy_url: tunnel.proxyUrl }));
    await expect(
      untrusted.send({ method: 'POST', url: 'https://events.pagerduty.com/x', body: '{}' }),
    ).rejects.toThrow(/certificate/);
    const refused = new HttpClient(config({ proxy_url: tunnel.proxyUrl }));
    await expect(
      refused.send({ method: 'POST', url: 'https://elsewhere.test/x', body: '{}' }),
    ).rejects.toThrow('proxy 127.0.0.1');
  });
});
