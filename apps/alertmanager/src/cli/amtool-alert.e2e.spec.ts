import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { loadConfigFile } from '../config';
import { startApi, type ApiHarness } from '../api/v2/testdata/api-harness';
import { run } from './amtool-main';

let api: ApiHarness;
beforeEach(async () => {
  api = await startApi((await loadConfigFile(join(__dirname, 'testdata', 'routes.yml'))).config);
});
afterEach(() => api.close());

async function amtool(...args: string[]): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  const code = await run([`--alertmanager.url=${api.url}/`, ...args], (line) => lines.push(line));
  return { code, lines };
}

describe('redisx-amtool against a running API', () => {
  it('adds alerts and queries them back', async () => {
    expect(
      await amtool('alert', 'add', 'Disk', 'severity=warning', '--annotation=summary=disk full'),
    ).toEqual({
      code: 0,
      lines: [],
    });
    await amtool(
      'alert',
      'add',
      'alertname=Net',
      '--start=2026-11-21T03:00:00Z',
      '--generator-url=http://gen/1',
    );
    expect((await amtool('alert')).lines).toEqual([
      'Alertname  Starts At                Summary    State   ',
      'Net        2026-11-21 03:00:00 UTC             active  ',
      'Disk       2026-11-21 04:00:00 UTC  disk full  active  ',
    ]);
    expect((await amtool('alert', 'query', 'Disk')).lines).toHaveLength(2);
    expect((await amtool('alert', 'query', 'severity!=""')).lines).toHaveLength(2);
    const [json] = (await amtool('-o', 'json', 'alert', 'query', 'alertname=Net')).lines;
    expect(JSON.parse(json)).toMatchObject([
      { labels: { alertname: 'Net' }, generatorURL: 'http://gen/1' },
    ]);
    expect([...api.store.list()].find((a) => a.labels['alertname'] === 'Disk')).toMatchObject({
      annotations: { summary: 'disk full' },
      timeout: true,
    });
  });

  it('shows only active alerts unless a state flag is given', async () => {
    await amtool('alert', 'add', 'Quiet');
    api.muting.silencers = [{ mutedBy: () => ['s1'] }];
    expect((await amtool('alert', 'query')).lines).toHaveLength(1);
    expect((await amtool('alert', 'query', '-s')).lines[1]).toMatch(/^Quiet .* suppressed {2}$/);
  });

  it('reads the routing tree from /api/v2/status without --config.file', async () => {
    const { lines } = await amtool('config', 'routes', 'test', 'severity=critical', 'team=db');
    expect(lines).toEqual(['db']);
  });

  it.each([
    [['alert', 'add', 'a=~b'], 'labels must be specified as key=value pairs'],
    [
      ['alert', 'add', '--start=soon', 'X'],
      'parsing time "soon" as "2006-01-02T15:04:05Z07:00": cannot parse "soon" as "2006"',
    ],
    [
      ['alert', 'query', '-r', '['],
      /^\[GET \/alerts\]\[400\] getAlertsBadRequest {2}"failed to parse receiver param/,
    ],
  ])('%j fails with a clear error', async (args, message) => {
    await expect(amtool(...args)).rejects.toThrow(message);
  });
});

describe('redisx-amtool error handling', () => {
  let server: Server;
  afterEach(() => new Promise((resolve) => server.close(resolve)));

  it('reports a refused request with the status and the body', async () => {
    server = createServer((_req, res) => res.writeHead(500).end('"boom"\n')).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as AddressInfo;
    const argv = [`--alertmanager.url=http://127.0.0.1:${port}`, 'alert', 'add', 'X'];
    await expect(run(argv, () => undefined)).rejects.toThrow(
      '[POST /alerts][500] postAlertsInternalServerError  "boom"',
    );
  });

  it('reports an unreachable server', async () => {
    server = createServer().listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    server = createServer().listen(0, '127.0.0.1');
    await expect(
      run([`--alertmanager.url=http://127.0.0.1:${port}`, 'alert'], () => undefined),
    ).rejects.toThrow(
      `Get "http://127.0.0.1:${port}/api/v2/alerts?active=true&silenced=false&inhibited=false&unprocessed=false&receiver=": connect ECONNREFUSED 127.0.0.1:${port}`,
    );
  });
});
