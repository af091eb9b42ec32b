import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as bcrypt from 'bcryptjs';
import { StreamLogger } from '../logging/stream-logger';
import { BasicAuthenticator } from './basic-auth';
import { RateLimiter } from './rate-limiter';
import { parseWebConfig } from './web-config.decoder';
import type { WebConfigState } from './web-config-loader';
import { WebRequestGate } from './web-request-gate';

const HASH = bcrypt.hashSync('secret', 4);
const basic = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;

describe('web request gate', () => {
  let server: Server;
  let url: string;
  let state: WebConfigState;
  let limiter: RateLimiter | undefined;
  const logged: string[] = [];
  const load = (text: string) => {
    state = { config: parseWebConfig(text, 'web.yml', 'reload') };
  };

  beforeAll(async () => {
    const gate = new WebRequestGate(
      { current: () => state },
      new BasicAuthenticator(),
      { allow: () => limiter?.allow() ?? true } as RateLimiter,
      new StreamLogger('info', 'logfmt', (line) => logged.push(line)),
    );
    server = createServer((req, res) =>
      gate.handle(req, res, () => {
        res.setHeader('Content-Type', 'text/plain');
        res.end('passed');
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  beforeEach(() => {
    limiter = undefined;
    logged.length = 0;
  });

  const headersOf = (response: Response) => Object.fromEntries(response.headers.entries());

  it('lets every request through without users, with the configured headers', async () => {
    load('http_server_config:\n  headers:\n    X-Frame-Options: deny\n');
    const response = await fetch(url);
    expect([response.status, await response.text()]).toEqual([200, 'passed']);
    expect(response.headers.get('x-frame-options')).toBe('deny');
  });

  it.each([
    ['no credentials', undefined],
    ['a wrong password', basic('admin:wrong')],
    ['an unknown user', basic('nobody:secret')],
    ['another scheme', 'Bearer secret'],
  ])('answers 401 as upstream to %s', async (_, authorization) => {
    load(
      `basic_auth_users:\n  admin: ${HASH}\nhttp_server_config:\n  headers:\n    X-Frame-Options: deny\n`,
    );
    const response = await fetch(url, { headers: authorization ? { authorization } : {} });
    expect(response.status).toBe(401);
    expect(await response.text()).toBe('Unauthorized\n');
    expect(headersOf(response)).toMatchObject({
      'www-authenticate': 'Basic',
      'content-type': 'text/plain; charset=utf-8',
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'deny',
      'content-length': '13',
    });
  });

  it('lets valid credentials through, then again from the cache', async () => {
    load(`basic_auth_users:\n  admin: ${HASH}\n`);
    for (let i = 0; i < 3; i++) {
      const response = await fetch(url, { headers: { authorization: basic('admin:secret') } });
      expect([response.status, await response.text()]).toEqual([200, 'passed']);
    }
  });

  it('answers HEAD with the 401 headers and no body', async () => {
    load(`basic_auth_users:\n  admin: ${HASH}\n`);
    const response = await fetch(url, { method: 'HEAD' });
    expect([response.status, await response.text()]).toEqual([401, '']);
    expect(response.headers.get('www-authenticate')).toBe('Basic');
  });

  it('answers 500 while the config does not load, and logs the reason once', async () => {
    state = { error: new Error('web.yml:2: foo: field foo not found') };
    for (let i = 0; i < 3; i++) {
      const response = await fetch(url, { headers: { authorization: basic('admin:secret') } });
      expect([response.status, await response.text()]).toEqual([500, 'Internal Server Error\n']);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    }
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain('level=error msg="Unable to parse configuration"');
    expect(logged[0]).toContain('err="web.yml:2: foo: field foo not found"');
  });

  it('answers 429 when the rate limit is spent', async () => {
    load('');
    const clock = { now: () => 0 };
    limiter = new RateLimiter(1, 60_000, clock);
    expect((await fetch(url)).status).toBe(200);
    const refused = await fetch(url);
    expect([refused.status, await refused.text()]).toEqual([429, 'Too Many Requests\n']);
  });

  it('never logs passwords or hashes', async () => {
    load(`basic_auth_users:\n  admin: ${HASH}\n`);
    await fetch(url, { headers: { authorization: basic('admin:wrong-password') } });
    state = { error: new Error('broken') };
    await fetch(url, { headers: { authorization: basic('admin:secret') } });
    expect(logged.join('\n')).not.toMatch(/wrong-password|secret|\$2[aby]\$/);
  });
});
