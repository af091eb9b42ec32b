import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer, request, type Server } from 'node:http';
import { createServer as createHttpsServer, request as httpsRequest } from 'node:https';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as bcrypt from 'bcryptjs';
import { StreamLogger } from '../logging/stream-logger';
import { systemClock } from '../time/clock';
import { WebConfigEnforcer } from './web-config-enforcer';

const HASH = bcrypt.hashSync('secret', 4);
const AUTH = `Basic ${Buffer.from('admin:secret').toString('base64')}`;
const tlsDir = join(__dirname, 'testdata', 'tls');
const logger = new StreamLogger('error', 'logfmt', () => undefined);

/** Sends a request and resolves with the status (and whether a 100 Continue came first). */
function send(
  port: number,
  options: { tls?: boolean; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; continued: boolean }> {
  return new Promise((resolve, reject) => {
    const make = options.tls ? httpsRequest : request;
    let continued = false;
    const req = make(
      {
        host: '127.0.0.1',
        port,
        method: options.body ? 'POST' : 'GET',
        path: '/anything',
        headers: options.headers,
        agent: false,
        ca: options.tls ? readFileSync(join(tlsDir, 'server.crt')) : undefined,
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, continued }));
      },
    );
    req.on('continue', () => {
      continued = true;
      req.end(options.body);
    });
    req.on('error', reject);
    if (!options.headers?.Expect) req.end(options.body);
  });
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

describe('web config enforcer', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'web-enforcer-'));
    await copyFile(join(tlsDir, 'server.crt'), join(dir, 'server.crt'));
    await copyFile(join(tlsDir, 'server.key'), join(dir, 'server.key'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('puts basic auth in front of the listeners already on the server', async () => {
    const file = join(dir, 'plain.yml');
    await writeFile(file, `basic_auth_users:\n  admin: ${HASH}\n`);
    const enforcer = WebConfigEnforcer.open(file, logger, systemClock);
    expect(enforcer.httpsOptions).toBeUndefined();
    const reached: string[] = [];
    const server = createHttpServer((req, res) => {
      reached.push(req.headers.authorization ?? '');
      res.end('ok');
    });
    enforcer.install(server);
    const port = await listen(server);
    try {
      expect(await send(port)).toEqual({ status: 401, continued: false });
      expect(await send(port, { headers: { Authorization: AUTH } })).toEqual({
        status: 200,
        continued: false,
      });
      // A refused client is not invited to send its body; an accepted one is.
      const expect100 = { Expect: '100-continue', 'Content-Length': '2' };
      expect(await send(port, { headers: expect100, body: '{}' })).toEqual({
        status: 401,
        continued: false,
      });
      expect(
        await send(port, { headers: { ...expect100, Authorization: AUTH }, body: '{}' }),
      ).toEqual({ status: 200, continued: true });
      expect(reached).toEqual([AUTH, AUTH]);
    } finally {
      server.close();
    }
  });

  it('serves HTTPS with the file as it is at each new connection', async () => {
    const file = join(dir, 'tls.yml');
    const valid = 'tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n';
    await writeFile(file, valid);
    const enforcer = WebConfigEnforcer.open(file, logger, systemClock);
    const server = createHttpsServer(enforcer.httpsOptions ?? {}, (_, res) => res.end('ok'));
    enforcer.install(server);
    const port = await listen(server);
    try {
      expect((await send(port, { tls: true })).status).toBe(200);
      await writeFile(file, `${valid}  client_auth_type: Sometimes\n`);
      await expect(send(port, { tls: true })).rejects.toThrow();
      await writeFile(file, valid);
      expect((await send(port, { tls: true })).status).toBe(200);
    } finally {
      server.close();
    }
  });

  it.each([
    ['an unknown key', 'foo: 1\n', '{file}:1: foo: field foo not found'],
    [
      'a certificate that cannot be read',
      'tls_server_config:\n  cert_file: nope.crt\n  key_file: server.key\n',
      '{file}: failed to read cert_file ({dir}/nope.crt): open {dir}/nope.crt: no such file or directory',
    ],
  ])('refuses to start with %s, naming the file', async (_, text, message) => {
    const file = join(dir, 'bad.yml');
    await writeFile(file, text);
    expect(() => WebConfigEnforcer.open(file, logger, systemClock)).toThrow(
      message.replaceAll('{file}', file).replaceAll('{dir}', dir),
    );
  });
});
