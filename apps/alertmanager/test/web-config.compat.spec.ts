import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { Agent } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as bcrypt from 'bcryptjs';
import { amtoolRunner, tableRows } from './support/amtool-runner';
import { testRequest, type ClientTls, type TestRequest } from './support/https-request';
import { startServerProcess, type Readiness, type ServerProcess } from './support/server-process';
import { makeTestCertificates, OPENSSL_BIN } from './support/test-certificates';
import { startUpstream, UPSTREAM_BIN } from './support/upstream-alertmanager';
import { installedCommand } from './support/installed-command';
import { describeWhen } from '@redisx/testing';

/**
 * One web config file given to Debian's upstream Alertmanager 0.25 and to ours: the same
 * requests get the same statuses and auth headers, and upstream's `amtool --http.config.file`
 * works against our server.
 */
const amtoolBin = installedCommand('amtool');
const missing = [
  UPSTREAM_BIN ? '' : 'prometheus-alertmanager',
  OPENSSL_BIN ? '' : 'openssl',
].filter(Boolean);
const describeWithUpstream = describeWhen(
  missing.length === 0,
  `web config compatibility skipped: ${missing.join(' and ')} not installed (apt-get install prometheus-alertmanager openssl)`,
);

const AM_CONFIG = 'route:\n  receiver: hook\nreceivers:\n  - name: hook\n';

// Keys that both upstream 0.25 (exporter-toolkit 0.8) and this server read.
const webConfig = (hash: string) =>
  [
    'tls_server_config:',
    '  cert_file: server.crt',
    '  key_file: server.key',
    '  client_ca_file: ca.crt',
    '  client_auth_type: RequireAndVerifyClientCert',
    'http_server_config:',
    '  headers:',
    '    X-Frame-Options: deny',
    '    X-Content-Type-Options: nosniff',
    '    Strict-Transport-Security: max-age=31536000',
    'basic_auth_users:',
    `  admin: ${hash}`,
    '',
  ].join('\n');

const COMPARED_HEADERS = [
  'www-authenticate',
  'x-frame-options',
  'x-content-type-options',
  'strict-transport-security',
];

describeWithUpstream('one web config, upstream 0.25 and ours', () => {
  let dir: string;
  let tls: ClientTls;
  const servers: Array<{ name: string; server: ServerProcess; file: string }> = [];
  const hash = bcrypt.hashSync('secret', 6);

  const readiness = (path: string): Readiness => ({
    scheme: 'https',
    ready: async (url) =>
      (await testRequest(`${url}${path}`, { auth: 'admin:secret', tls })).status === 200,
  });

  // Certificates, bcrypt and server starts take a while on a busy machine.
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'am-web-compat-'));
    const certs = await makeTestCertificates(dir);
    tls = { ca: certs.ca, cert: certs.client.cert, key: certs.client.key };
    await writeFile(join(dir, 'alertmanager.yml'), AM_CONFIG);
    const files = { upstream: join(dir, 'web-upstream.yml'), ours: join(dir, 'web-ours.yml') };
    await writeFile(files.upstream, webConfig(hash));
    await writeFile(files.ours, webConfig(hash));
    const am = join(dir, 'alertmanager.yml');
    // Pushed one by one, so that afterAll stops whichever started.
    servers.push({
      name: 'upstream',
      server: await startUpstream(
        am,
        [`--web.config.file=${files.upstream}`],
        readiness('/-/ready'),
      ),
      file: files.upstream,
    });
    servers.push({
      name: 'ours',
      server: await startServerProcess(
        am,
        [`--web.config.file=${files.ours}`],
        undefined,
        readiness('/-/ready'),
      ),
      file: files.ours,
    });
  }, 60_000);
  afterAll(async () => {
    await Promise.all(servers.map(({ server }) => server.stop()));
    await rm(dir, { recursive: true, force: true });
  });

  /** The same request to both servers: status, auth and security headers, 401 bodies. */
  async function both(path: string, req: TestRequest) {
    return Promise.all(
      servers.map(async ({ server }) => {
        const res = await testRequest(`${server.url}${path}`, { tls, ...req });
        const headers = COMPARED_HEADERS.map((h) => [h, res.headers[h]]);
        return { status: res.status, headers, body: res.status === 401 ? res.body : '' };
      }),
    );
  }

  const AUTHS: Array<[string, TestRequest]> = [
    ['no credentials', {}],
    ['the right password', { auth: 'admin:secret' }],
    ['a wrong password', { auth: 'admin:wrong' }],
    ['an unknown user', { auth: 'nobody:secret' }],
    ['a bearer token', { headers: { Authorization: 'Bearer secret' } }],
  ];
  const ROUTES: Array<[string, string, string | undefined]> = [
    ['GET', '/-/healthy', undefined],
    ['HEAD', '/-/healthy', undefined],
    ['GET', '/-/ready', undefined],
    ['GET', '/api/v2/status', undefined],
    ['GET', '/api/v2/alerts', undefined],
    ['POST', '/api/v2/alerts', '[]'],
    ['GET', '/api/v2/silences', undefined],
  ];
  const cases = ROUTES.flatMap(([method, path, body]) =>
    AUTHS.map(([who, req]) => [method, path, who, { ...req, method, body }] as const),
  );

  it.each(cases)('%s %s with %s', async (_, path, __, req) => {
    const [upstream, ours] = await both(path, req);
    expect(ours).toEqual(upstream);
  });

  it('both refuse a connection without a client certificate', async () => {
    for (const { name, server } of servers) {
      const attempt = testRequest(`${server.url}/-/healthy`, {
        auth: 'admin:secret',
        tls: { ca: tls.ca },
      });
      await expect(attempt.then(() => name)).rejects.toThrow();
    }
  });

  it('both answer 500 once the file is broken, and 200 again once it is fixed', async () => {
    const read = (path?: string) => (path ? readFileSync(path) : undefined);
    const agents = servers.map(
      () =>
        new Agent({
          keepAlive: true,
          maxSockets: 1,
          ca: read(tls.ca),
          cert: read(tls.cert),
          key: read(tls.key),
        }),
    );
    try {
      const statuses = () =>
        Promise.all(
          servers.map(async ({ server }, i) => {
            const res = await testRequest(`${server.url}/-/ready`, {
              auth: 'admin:secret',
              agent: agents[i],
            });
            return [res.status, res.body.trim(), res.headers['x-frame-options']];
          }),
        );
      expect((await statuses()).map(([status]) => status)).toEqual([200, 200]);
      await Promise.all(servers.map(({ file }) => writeFile(file, `${webConfig(hash)}foo: 1\n`)));
      const [upstream, ours] = await statuses();
      expect(upstream).toEqual([500, 'Internal Server Error', undefined]);
      expect(ours).toEqual(upstream);
      await Promise.all(servers.map(({ file }) => writeFile(file, webConfig(hash))));
      expect((await statuses()).map(([status]) => status)).toEqual([200, 200]);
    } finally {
      agents.forEach((agent) => agent.destroy());
    }
  });

  const describeWithAmtool = describeWhen(
    !!amtoolBin,
    'upstream amtool --http.config.file skipped: amtool is not installed',
  );

  describeWithAmtool('amtool --http.config.file', () => {
    let httpConfig: string;
    beforeAll(async () => {
      httpConfig = join(dir, 'http.yml');
      // Absolute paths: amtool 0.25's client library resolves relative ones against the parent
      // of the file's directory (fixed upstream later; this server resolves them as now).
      await writeFile(
        httpConfig,
        `basic_auth:\n  username: admin\n  password: secret\ntls_config:\n  ca_file: ${tls.ca}\n  cert_file: ${tls.cert}\n  key_file: ${tls.key}\n`,
      );
    });

    it('upstream amtool adds and queries silences and alerts on our server', async () => {
      const ours = servers[1].server;
      const amtool = amtoolRunner(ours.url, dir, amtoolBin);
      const flag = `--http.config.file=${httpConfig}`;
      const added = await amtool(
        flag,
        'silence',
        'add',
        'alertname=Upstream',
        '-c',
        'tls',
        '-a',
        'ops',
      );
      expect(added.code).toBe(0);
      const id = added.stdout.trim();
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      const rows = tableRows((await amtool(flag, 'silence', 'query', 'Upstream')).stdout);
      expect(rows.map((r) => [r[0], r[1]])).toEqual([[id, 'alertname="Upstream"']]);
      expect((await amtool(flag, 'alert', 'add', 'Upstream')).code).toBe(0);
      const query = await amtool(flag, '-o', 'json', 'alert', 'query', '-s', 'Upstream');
      expect(JSON.parse(query.stdout)).toMatchObject([
        { labels: { alertname: 'Upstream' }, status: { state: 'suppressed', silencedBy: [id] } },
      ]);
    });

    it('upstream amtool and ours fail alike with a wrong password', async () => {
      const wrong = join(dir, 'wrong.yml');
      await writeFile(wrong, readFileSync(httpConfig, 'utf8').replace('secret', 'wrong'));
      const url = servers[1].server.url;
      const upstream = await amtoolRunner(url, dir, amtoolBin)(
        `--http.config.file=${wrong}`,
        'silence',
        'query',
      );
      const ours = await amtoolRunner(url, dir)(`--http.config.file=${wrong}`, 'silence', 'query');
      const message = (stderr: string) => stderr.trim().replace(/^[\w-]+: error: /, '');
      expect([ours.code, message(ours.stderr)]).toEqual([upstream.code, message(upstream.stderr)]);
    });

    it('our amtool queries upstream through the same file', async () => {
      const upstreamUrl = servers[0].server.url;
      const result = await amtoolRunner(upstreamUrl, dir)(
        `--http.config.file=${httpConfig}`,
        'silence',
        'query',
      );
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(result.stdout).toMatch(/^ID\s+Matchers\s+Ends At\s+Created By\s+Comment/);
    });
  });
});
