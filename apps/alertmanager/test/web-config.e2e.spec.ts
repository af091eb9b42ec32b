import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { Agent } from 'node:https';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as bcrypt from 'bcryptjs';
import { describeWhen, startProcess } from '@redisx/testing';
import { amtoolRunner, tableRows } from './support/amtool-runner';
import { testRequest, type ClientTls } from './support/https-request';
import { ALERTMANAGER_BIN, startServerProcess, type ServerProcess } from './support/server-process';
import {
  makeTestCertificates,
  OPENSSL_BIN,
  type TestCertificates,
} from './support/test-certificates';

/**
 * The real server behind `--web.config.file`: HTTPS with client certificates, basic auth and
 * headers on every route (those answered ahead of Express too), and changes to the file or its
 * certificates applied to the next request or connection. Certificates are made with openssl.
 */
const describeWithOpenssl = describeWhen(
  !!OPENSSL_BIN,
  'web config end-to-end tests skipped: openssl is not installed (apt-get install openssl)',
);

// How a client sees a connection the server refused: a TLS alert during the handshake, or the
// connection closed once the server checked the certificate after it.
const REFUSED =
  /certificate required|bad certificate|socket hang up|ECONNRESET|disconnected before secure TLS/;

const AM_CONFIG = 'route:\n  receiver: hook\nreceivers:\n  - name: hook\n';

/** A web config with the given client auth lines, users and headers. */
function webConfig(
  hash: string,
  tlsExtra = '  client_ca_file: ca.crt\n  client_auth_type: RequireAndVerifyClientCert\n',
) {
  return [
    'tls_server_config:',
    '  cert_file: serving.crt',
    '  key_file: serving.key',
    tlsExtra.trimEnd(),
    'http_server_config:',
    '  headers:',
    '    X-Frame-Options: deny',
    '    Strict-Transport-Security: max-age=31536000',
    'basic_auth_users:',
    `  admin: ${hash}`,
    '',
  ].join('\n');
}

describeWithOpenssl('the server behind --web.config.file', () => {
  let dir: string;
  let certs: TestCertificates;
  let server: ServerProcess;
  let webFile: string;
  const hash = bcrypt.hashSync('secret', 6);
  const clientWith = (who: 'none' | 'stranger' | 'client'): ClientTls => {
    const pair = who === 'none' ? undefined : certs[who];
    return { ca: certs.ca, cert: pair?.cert, key: pair?.key };
  };
  const client = () => clientWith('client');

  const useServingCert = async (pair: { cert: string; key: string }) => {
    await copyFile(pair.key, join(dir, 'serving.key'));
    await copyFile(pair.cert, join(dir, 'serving.crt'));
  };

  // Certificates, bcrypt and server starts take a while on a busy machine.
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'am-web-config-'));
    certs = await makeTestCertificates(dir);
    await useServingCert(certs.server);
    webFile = join(dir, 'web.yml');
    await writeFile(webFile, webConfig(hash));
    await writeFile(join(dir, 'alertmanager.yml'), AM_CONFIG);
    server = await startServerProcess(
      join(dir, 'alertmanager.yml'),
      [`--web.config.file=${webFile}`],
      undefined,
      {
        scheme: 'https',
        ready: async (url) =>
          (await testRequest(`${url}/-/ready`, { auth: 'admin:secret', tls: client() })).status ===
          200,
      },
    );
  }, 60_000);
  beforeEach(async () => {
    await useServingCert(certs.server);
    await writeFile(webFile, webConfig(hash));
  });
  afterAll(async () => {
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('serves HTTPS only, with the configured certificate', async () => {
    await expect(
      testRequest(server.url.replace('https:', 'http:') + '/-/healthy'),
    ).rejects.toThrow();
    const response = await testRequest(`${server.url}/-/healthy`, {
      auth: 'admin:secret',
      tls: client(),
    });
    expect([response.status, response.body, response.peerCN]).toEqual([200, 'OK', 'localhost']);
  });

  it.each([
    ['no client certificate', 'none'],
    ['a certificate the CA did not sign', 'stranger'],
  ] as const)('refuses the connection with %s', async (_, who) => {
    const tls = clientWith(who);
    await expect(
      testRequest(`${server.url}/-/healthy`, { auth: 'admin:secret', tls }),
    ).rejects.toThrow(REFUSED);
  });

  const silence = () =>
    JSON.stringify({
      matchers: [{ name: 'alertname', value: 'Web', isRegex: false }],
      startsAt: new Date().toISOString(),
      endsAt: new Date(Date.now() + 3_600_000).toISOString(),
      createdBy: 'e2e',
      comment: 'web config',
    });

  // The first three are answered ahead of Express (HotRoutes), the others by the controllers.
  it.each([
    ['POST', '/api/v2/alerts', () => '[]'],
    ['POST', '/api/v2/silences', silence],
    ['GET', '/-/healthy', () => undefined],
    ['HEAD', '/-/healthy', () => undefined],
    ['GET', '/-/ready', () => undefined],
    ['GET', '/api/v2/status', () => undefined],
    ['GET', '/api/v2/alerts', () => undefined],
    ['GET', '/metrics', () => undefined],
  ])('asks for credentials on %s %s and applies the headers', async (method, path, body) => {
    const url = `${server.url}${path}`;
    for (const auth of [undefined, 'admin:wrong', 'nobody:secret']) {
      const refused = await testRequest(url, { method, auth, body: body(), tls: client() });
      expect([refused.status, refused.headers['www-authenticate']]).toEqual([401, 'Basic']);
      expect(refused.body).toBe(method === 'HEAD' ? '' : 'Unauthorized\n');
      expect(refused.headers['x-frame-options']).toBe('deny');
    }
    const ok = await testRequest(url, {
      method,
      auth: 'admin:secret',
      body: body(),
      tls: client(),
    });
    expect(ok.status).toBe(200);
    expect(ok.headers).toMatchObject({
      'x-frame-options': 'deny',
      'strict-transport-security': 'max-age=31536000',
    });
    expect(ok.headers['www-authenticate']).toBeUndefined();
  });

  it('applies a password changed in the file at the next request', async () => {
    await writeFile(webFile, webConfig(bcrypt.hashSync('changed', 6)));
    const url = `${server.url}/api/v2/status`;
    expect((await testRequest(url, { auth: 'admin:secret', tls: client() })).status).toBe(401);
    expect((await testRequest(url, { auth: 'admin:changed', tls: client() })).status).toBe(200);
  });

  it('serves a renewed certificate to the next connection', async () => {
    await useServingCert(certs.rotated);
    const response = await testRequest(`${server.url}/-/healthy`, {
      auth: 'admin:secret',
      tls: client(),
    });
    expect([response.status, response.peerCN]).toEqual([200, 'rotated']);
  });

  it('answers 500 on an open connection and refuses new ones while the file is broken', async () => {
    const read = (path: string) => readFileSync(path);
    const agent = new Agent({
      keepAlive: true,
      maxSockets: 1,
      ca: read(certs.ca),
      cert: read(certs.client.cert),
      key: read(certs.client.key),
    });
    try {
      const url = `${server.url}/-/ready`;
      expect((await testRequest(url, { auth: 'admin:secret', agent })).status).toBe(200);
      await writeFile(webFile, `${webConfig(hash)}unknown_key: 1\n`);
      const broken = await testRequest(url, { auth: 'admin:secret', agent });
      expect([broken.status, broken.body]).toEqual([500, 'Internal Server Error\n']);
      await expect(testRequest(url, { auth: 'admin:secret', tls: client() })).rejects.toThrow(
        REFUSED,
      );
      await writeFile(webFile, webConfig(hash));
      expect((await testRequest(url, { auth: 'admin:secret', tls: client() })).status).toBe(200);
    } finally {
      agent.destroy();
    }
  });

  const CA = '  client_ca_file: ca.crt\n';
  it.each([
    ['RequestClientCert', '', 'none', true],
    ['RequestClientCert', '', 'stranger', true],
    ['RequireAnyClientCert', '', 'none', false],
    ['RequireAnyClientCert', '', 'stranger', true],
    ['VerifyClientCertIfGiven', CA, 'none', true],
    ['VerifyClientCertIfGiven', CA, 'stranger', false],
    ['VerifyClientCertIfGiven', CA, 'client', true],
    ['RequireAndVerifyClientCert', `${CA}  client_allowed_sans: [client.test]\n`, 'client', true],
    ['RequireAndVerifyClientCert', `${CA}  client_allowed_sans: [other.test]\n`, 'client', false],
    ['NoClientCert', '', 'stranger', true],
  ] as const)(
    '%s %j: a client with %s certificate gets through: %s',
    async (type, extra, who, ok) => {
      // The TLS setup is read from the file at each new connection: no restart in between.
      await writeFile(webFile, webConfig(hash, `${extra}  client_auth_type: ${type}\n`));
      const attempt = testRequest(`${server.url}/-/healthy`, {
        auth: 'admin:secret',
        tls: clientWith(who),
      });
      if (ok) expect((await attempt).status).toBe(200);
      else await expect(attempt).rejects.toThrow(REFUSED);
    },
  );

  it('lets redisx-amtool --http.config.file add and query silences and alerts', async () => {
    const httpConfig = join(dir, 'http.yml');
    await writeFile(
      httpConfig,
      'basic_auth:\n  username: admin\n  password: secret\ntls_config:\n  ca_file: ca.crt\n  cert_file: client.crt\n  key_file: client.key\n',
    );
    const amtool = amtoolRunner(server.url, dir);
    const flag = `--http.config.file=${httpConfig}`;
    const added = await amtool(
      flag,
      'silence',
      'add',
      'alertname=Amtool',
      '--duration=1h',
      '-c',
      'tls',
    );
    expect(added).toMatchObject({ code: 0, stderr: '' });
    const id = added.stdout.trim();
    const rows = tableRows((await amtool(flag, 'silence', 'query', 'Amtool')).stdout);
    expect(rows.map((r) => r[0])).toEqual([id]);
    expect(await amtool(flag, 'alert', 'add', 'Amtool', 'severity=page')).toMatchObject({
      code: 0,
    });
    const [alert] = JSON.parse(
      (await amtool(flag, '-o', 'json', 'alert', 'query', '-s', 'Amtool')).stdout,
    );
    expect(alert).toMatchObject({ labels: { alertname: 'Amtool' }, status: { silencedBy: [id] } });

    await writeFile(
      join(dir, 'wrong.yml'),
      (await readFileSync(httpConfig, 'utf8')).replace('secret', 'wrong'),
    );
    const refused = await amtool(
      `--http.config.file=${join(dir, 'wrong.yml')}`,
      'silence',
      'query',
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('swagger spec (status 401)');
  });
});

describe('a --web.config.file that does not load', () => {
  it('stops the server at startup with a one-line error naming the file and key', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'am-web-bad-'));
    try {
      await writeFile(join(dir, 'alertmanager.yml'), AM_CONFIG);
      await writeFile(join(dir, 'web.yml'), 'http_server_config:\n  headers:\n    Server: x\n');
      const proc = startProcess(process.execPath, [
        ALERTMANAGER_BIN,
        `--config.file=${join(dir, 'alertmanager.yml')}`,
        `--storage.path=${join(dir, 'data')}`,
        '--web.listen-address=127.0.0.1:0',
        `--web.config.file=${join(dir, 'web.yml')}`,
      ]);
      expect(await proc.exited).toBe(1);
      const errors = proc
        .output()
        .split('\n')
        .filter((line) => line.includes('level=error'));
      expect(errors).toEqual([
        `ts=${errors[0]?.slice(3, 27)} level=error msg="Startup failed" err="invalid --web.config.file: ${join(dir, 'web.yml')}:3: http_server_config.headers.Server: HTTP header \\"Server\\" can not be configured"`,
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
