import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, parseConfig, startServer, StreamLogger } from '../src';

/** The package's programmatic API: embed the server, check a configuration from code. */
describe('the public API of @redisx/alertmanager', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'am-api-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('starts a server in-process that serves and closes', async () => {
    const configFile = join(dir, 'alertmanager.yml');
    await writeFile(configFile, 'route:\n  receiver: hook\nreceivers:\n  - name: hook\n');
    const lines: string[] = [];
    const server = await startServer(
      {
        configFile,
        storagePath: join(dir, 'data'),
        listenAddress: '127.0.0.1:0',
        externalUrl: undefined,
        routePrefix: undefined,
        logLevel: 'info',
        logFormat: 'logfmt',
        alertsGcInterval: 1_800_000,
        dataRetention: 432_000_000,
        maintenanceInterval: 900_000,
        maxSilences: 0,
        maxSilenceSizeBytes: 0,
      },
      new StreamLogger('info', 'logfmt', (line) => lines.push(line)),
    );
    try {
      const response = await fetch(`${server.url}/-/healthy`);
      expect(response.status).toBe(200);
      expect(await response.text()).toBe('OK');
      expect(lines.some((line) => line.includes('msg=Listening'))).toBe(true);
    } finally {
      await server.close();
    }
  });

  it('refuses a wrong configuration with a ConfigError naming file, line and path', () => {
    let error: unknown;
    try {
      parseConfig('route:\n  receiver: nobody\n', 'am.yml');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toBe(
      'am.yml:2: route.receiver: undefined receiver "nobody" used in route',
    );
  });
});
