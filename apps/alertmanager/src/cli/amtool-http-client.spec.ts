import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseHttpConfigFile } from '../config';
import { AmtoolHttpClient } from './amtool-http-client';

/** A server that records what it receives and answers by path. */
async function recordingServer(answer: (path: string, host: string) => [number, string?]) {
  const seen: Array<{ method: string; path: string; headers: IncomingHttpHeaders; body: string }> =
    [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
      const [status, location] = answer(req.url ?? '', req.headers.host ?? '');
      res.writeHead(status, location ? { Location: location } : {}).end(`answer ${req.url}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, seen, port };
}

describe('amtool HTTP client', () => {
  let dir: string;
  let servers: Server[] = [];
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'amtool-http-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));
  afterEach(async () => {
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
    servers = [];
  });

  const client = (yaml: string) =>
    AmtoolHttpClient.fromConfig(parseHttpConfigFile(yaml, join(dir, 'http.yml')));
  const get = (c: AmtoolHttpClient, url: string, method = 'GET', body?: string) =>
    c.send({ method, url, headers: {}, body, signal: AbortSignal.timeout(5000) });

  it.each([
    ['basic_auth:\n  username: admin\n  password: secret\n', `Basic ${btoa('admin:secret')}`],
    ['bearer_token: t0k3n\n', 'Bearer t0k3n'],
    ['authorization:\n  type: Token\n  credentials: abc\n', 'Token abc'],
  ])('sends the credentials of %j', async (yaml, authorization) => {
    const { server, seen, port } = await recordingServer(() => [200]);
    servers.push(server);
    const res = await get(await client(yaml), `http://127.0.0.1:${port}/api/v2/status`);
    expect([res.status, res.body]).toEqual([200, 'answer /api/v2/status']);
    expect(seen[0].headers.authorization).toBe(authorization);
  });

  it('reads secret files at each request, so a rotated password is used at once', async () => {
    const { server, seen, port } = await recordingServer(() => [200]);
    servers.push(server);
    await writeFile(join(dir, 'password'), 'first\n');
    const c = await client('basic_auth:\n  username: admin\n  password_file: password\n');
    await get(c, `http://127.0.0.1:${port}/`);
    await writeFile(join(dir, 'password'), 'second\n');
    await get(c, `http://127.0.0.1:${port}/`);
    expect(seen.map((s) => s.headers.authorization)).toEqual([
      `Basic ${btoa('admin:first')}`,
      `Basic ${btoa('admin:second')}`,
    ]);
  });

  it('reports an unreadable secret file in upstream words', async () => {
    const c = await client('basic_auth:\n  username: admin\n  password_file: missing\n');
    const path = join(dir, 'missing');
    await expect(get(c, 'http://127.0.0.1:9/')).rejects.toThrow(
      `unable to read basic auth password: unable to read file ${path}: open ${path}: no such file or directory`,
    );
  });

  it('follows redirects with the credentials on the same host, without them elsewhere', async () => {
    const other = await recordingServer(() => [200]);
    const { server, seen, port } = await recordingServer((path) =>
      path === '/a'
        ? [302, '/b']
        : path === '/b'
          ? [307, `http://localhost:${other.port}/c`]
          : [200],
    );
    servers.push(server, other.server);
    const c = await client('bearer_token: t\n');
    const res = await get(c, `http://127.0.0.1:${port}/a`, 'POST', '{}');
    expect([res.status, res.body]).toEqual([200, 'answer /c']);
    expect(seen.map((s) => [s.method, s.path, s.headers.authorization, s.body])).toEqual([
      ['POST', '/a', 'Bearer t', '{}'],
      // 302 turns the POST into a GET without body; 307 repeats it as it is.
      ['GET', '/b', 'Bearer t', ''],
    ]);
    expect(other.seen.map((s) => [s.method, s.path, s.headers.authorization])).toEqual([
      ['GET', '/c', undefined],
    ]);
  });

  it('returns the redirect itself with follow_redirects: false', async () => {
    const { server, port } = await recordingServer(() => [302, '/elsewhere']);
    servers.push(server);
    const res = await get(await client('follow_redirects: false\n'), `http://127.0.0.1:${port}/`);
    expect(res.status).toBe(302);
  });

  it('stops after 10 redirects, as Go', async () => {
    const { server, seen, port } = await recordingServer(() => [302, '/again']);
    servers.push(server);
    await expect(get(await AmtoolHttpClient.plain(), `http://127.0.0.1:${port}/`)).rejects.toThrow(
      'stopped after 10 redirects',
    );
    expect(seen).toHaveLength(11);
  });

  it.each([
    [
      'oauth2:\n  client_id: a\n  token_url: http://t/\n',
      'oauth2 is not supported by redisx-amtool',
    ],
    [
      'proxy_url: http://proxy:3128\n',
      'proxies (proxy_url, proxy_from_environment) are not supported by redisx-amtool',
    ],
    [
      'tls_config:\n  ca_file: nope.crt\n',
      'unable to read CA cert: unable to read file {dir}/nope.crt: open {dir}/nope.crt: no such file or directory',
    ],
    ['tls_config:\n  ca: not a certificate\n', 'unable to use specified CA cert inline'],
    [
      'tls_config:\n  min_version: TLS13\n  max_version: TLS12\n',
      'tls_config.max_version must be greater than or equal to tls_config.min_version if both are specified',
    ],
  ])('is not made for %j', async (yaml, message) => {
    await expect(client(yaml)).rejects.toThrow(message.replaceAll('{dir}', dir));
  });
});
