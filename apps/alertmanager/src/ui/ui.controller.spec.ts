import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StreamLogger } from '../logging/stream-logger';
import { startServer, type RunningServer } from '../server/start-server';
import { UiAssets, type UiAsset } from './ui-assets';
import { UI_SECURITY_HEADERS } from './ui.controller';

const AM_CONFIG = 'route:\n  receiver: hook\nreceivers:\n  - name: hook\n';
const UI_CSP = UI_SECURITY_HEADERS['Content-Security-Policy'];
const CONFIGURED_CSP = "default-src 'none'; frame-ancestors 'self'";

/** A small UI in place of the bundle, which only the package build writes. */
function asset(body: string, contentType: string): UiAsset {
  const bytes = Buffer.from(body);
  const etag = `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 22)}"`;
  return { body: bytes, contentType, etag };
}
const FAKE_UI: Record<string, UiAsset> = {
  'index.html': asset('<!doctype html><title>Alertmanager</title>', 'text/html; charset=utf-8'),
  'app.js': asset('console.log("ui");\n', 'text/javascript; charset=utf-8'),
};

/**
 * The UI's pages on the real server behind `--web.config.file`: the headers of
 * `http_server_config` are the ones sent, as the toolkit sets them on every answer, and the UI's
 * own security headers fill in only those the file does not set.
 */
describe('UI responses behind a web config with headers', () => {
  let dir: string;
  const running: RunningServer[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'am-ui-headers-'));
    await writeFile(join(dir, 'alertmanager.yml'), AM_CONFIG);
    jest.spyOn(UiAssets.prototype, 'built', 'get').mockReturnValue(true);
    jest.spyOn(UiAssets.prototype, 'get').mockImplementation((name) => FAKE_UI[name]);
  });
  afterAll(async () => {
    await Promise.all(running.map((server) => server.close()));
    jest.restoreAllMocks();
    await rm(dir, { recursive: true, force: true });
  });

  async function start(name: string, headers: string[]): Promise<RunningServer> {
    const webConfigFile = join(dir, `${name}.web.yml`);
    await writeFile(
      webConfigFile,
      ['http_server_config:', '  headers:', ...headers.map((line) => `    ${line}`), ''].join('\n'),
    );
    const server = await startServer(
      {
        configFile: join(dir, 'alertmanager.yml'),
        storagePath: join(dir, `${name}-data`),
        listenAddress: '127.0.0.1:0',
        externalUrl: undefined,
        routePrefix: undefined,
        webConfigFile,
        logLevel: 'error',
        logFormat: 'logfmt',
        alertsGcInterval: 1_800_000,
        dataRetention: 432_000_000,
        maintenanceInterval: 900_000,
        maxSilences: 0,
        maxSilenceSizeBytes: 0,
      },
      new StreamLogger('error', 'logfmt', () => undefined),
    );
    running.push(server);
    return server;
  }

  async function headersOf(url: string, status = 200): Promise<Headers> {
    const response = await fetch(url);
    await response.arrayBuffer();
    expect(response.status).toBe(status);
    return response.headers;
  }

  it('sends the configured headers on the page and its assets, and the UI’s for the rest', async () => {
    const server = await start('configured', [
      `Content-Security-Policy: "${CONFIGURED_CSP}"`,
      'X-Frame-Options: sameorigin',
    ]);
    for (const path of ['/', '/public/app.js']) {
      const headers = await headersOf(`${server.url}${path}`);
      expect(headers.get('content-security-policy')).toBe(CONFIGURED_CSP);
      expect(headers.get('x-frame-options')).toBe('sameorigin');
      // Not in the file: the UI's own.
      expect(headers.get('x-content-type-options')).toBe('nosniff');
      expect(headers.get('referrer-policy')).toBe('no-referrer');
      expect(headers.get('cache-control')).toBe('no-cache');
      expect(headers.get('etag')).toBe(FAKE_UI[path === '/' ? 'index.html' : 'app.js'].etag);
    }
    // Answers the UI does not write itself carry the configured headers as before.
    for (const [path, status] of [
      ['/public/missing.js', 404],
      ['/api/v2/status', 200],
    ] as const) {
      const headers = await headersOf(`${server.url}${path}`, status);
      expect(headers.get('content-security-policy')).toBe(CONFIGURED_CSP);
      expect(headers.get('x-frame-options')).toBe('sameorigin');
    }
  });

  it('serves the same page at /graph, where a rule alert’s generatorURL points', async () => {
    const server = await start('graph', ['X-Frame-Options: deny']);
    const response = await fetch(`${server.url}/graph?g0.expr=up&g0.tab=1`);
    expect(response.status).toBe(200);
    await expect(response.text()).resolves.toBe(FAKE_UI['index.html'].body.toString());
    expect(response.headers.get('content-security-policy')).toBe(UI_CSP);
    // With a trailing slash the page's relative addresses would miss its files.
    const slash = await fetch(`${server.url}/graph/?g0.expr=up`, { redirect: 'manual' });
    expect([slash.status, slash.headers.get('location')]).toEqual([302, '../graph?g0.expr=up']);
  });

  it('keeps the UI’s Content-Security-Policy when the file sets other headers only', async () => {
    const server = await start('others', ['X-Frame-Options: deny']);
    for (const path of ['/', '/public/app.js']) {
      const headers = await headersOf(`${server.url}${path}`);
      expect(headers.get('content-security-policy')).toBe(UI_CSP);
      expect(headers.get('x-frame-options')).toBe('deny');
      expect(headers.get('referrer-policy')).toBe('no-referrer');
    }
  });
});
