import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runProcess } from '@redisx/testing';
import { loadConfigFile } from '../src/config';
import {
  ALERTMANAGER_BIN,
  metricValue,
  startServerProcess,
  type ServerProcess,
} from './support/server-process';

const goodConfig = `route:
  receiver: hook
receivers:
  - name: hook
    webhook_configs:
      - url: http://127.0.0.1:5001/
`;
const otherGoodConfig = `${goodConfig}  - name: spare\n`;
const badConfig = `route:
  receiver: nobody
receivers:
  - name: hook
`;

describe('redisx-alertmanager server', () => {
  let dir: string;
  let configFile: string;
  let server: ServerProcess;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'am-e2e-'));
    configFile = join(dir, 'alertmanager.yml');
    await writeFile(configFile, goodConfig);
    server = await startServerProcess(configFile, [
      '--web.get-concurrency=3',
      '--web.timeout=1m30s',
    ]);
  });

  afterAll(async () => {
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const get = (path: string, method = 'GET') => fetch(`${server.url}${path}`, { method });
  const metrics = async () => (await get('/metrics')).text();

  it.each([
    ['GET', '/-/healthy', 'OK'],
    ['HEAD', '/-/healthy', ''],
    ['GET', '/-/ready', 'OK'],
    ['HEAD', '/-/ready', ''],
  ])('%s %s answers 200', async (method, path, body) => {
    const response = await get(path, method);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(body);
  });

  it('serves process metrics and the config metrics of the loaded file', async () => {
    const text = await metrics();
    const loaded = await loadConfigFile(configFile);
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(text).toMatch(/^alertmanager_build_info\{version="\d+\.\d+\.\d+"/m);
    expect(metricValue(text, 'alertmanager_config_last_reload_successful')).toBe(1);
    expect(metricValue(text, 'alertmanager_config_hash')).toBe(loaded.hash);
    const reloadedAt = metricValue(
      text,
      'alertmanager_config_last_reload_success_timestamp_seconds',
    );
    expect(Math.abs((reloadedAt ?? 0) - Date.now() / 1000)).toBeLessThan(120);
  });

  it("takes --web.get-concurrency and --web.timeout, with upstream's metrics", async () => {
    const text = await metrics();
    expect(text).toContain('alertmanager_http_concurrency_limit_exceeded_total{method="get"} 0');
    expect(text).toMatch(/^alertmanager_http_requests_in_flight\{method="get"\} 1$/m);
  });

  it.each([
    ['GET', '/api/v1/status'],
    ['GET', '/api/v1/receivers'],
    ['GET', '/api/v1/silences'],
    ['POST', '/api/v1/silences'],
    ['GET', '/api/v1/silence/abc'],
    ['DELETE', '/api/v1/silence/abc'],
  ])('answers %s %s with 410 and the v2 pointer, as current upstream', async (method, path) => {
    const response = await get(path, method);
    expect(response.status).toBe(410);
    expect(await response.json()).toEqual({
      status: 'deprecated',
      error:
        'The Alertmanager v1 API was deprecated in version 0.16.0 and is removed as of version 0.27.0 - please use the equivalent route in the v2 API',
    });
  });

  it('refuses GET on /-/reload with 405', async () => {
    expect((await get('/-/reload')).status).toBe(405);
  });

  it('reloads a good config on POST /-/reload', async () => {
    await writeFile(configFile, otherGoodConfig);
    const response = await get('/-/reload', 'POST');
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
    const text = await metrics();
    expect(metricValue(text, 'alertmanager_config_hash')).toBe(
      (await loadConfigFile(configFile)).hash,
    );
    expect(metricValue(text, 'alertmanager_config_last_reload_successful')).toBe(1);
  });

  it('keeps the running config when a reload is bad, and recovers on SIGHUP', async () => {
    const runningHash = metricValue(await metrics(), 'alertmanager_config_hash');
    await writeFile(configFile, badConfig);
    const response = await get('/-/reload', 'POST');
    expect(response.status).toBe(500);
    expect(await response.text()).toBe(
      `failed to reload config: ${configFile}:2: route.receiver: undefined receiver "nobody" used in route\n`,
    );
    let text = await metrics();
    expect(metricValue(text, 'alertmanager_config_last_reload_successful')).toBe(0);
    expect(metricValue(text, 'alertmanager_config_hash')).toBe(runningHash);
    expect((await get('/-/healthy')).status).toBe(200);

    await writeFile(configFile, goodConfig);
    server.process.child.kill('SIGHUP');
    const deadline = Date.now() + 10_000;
    do {
      text = await metrics();
    } while (
      metricValue(text, 'alertmanager_config_last_reload_successful') !== 1 &&
      Date.now() < deadline
    );
    expect(metricValue(text, 'alertmanager_config_last_reload_successful')).toBe(1);
    expect(metricValue(text, 'alertmanager_config_hash')).toBe(
      (await loadConfigFile(configFile)).hash,
    );
  });

  it('logs in logfmt by default', () => {
    expect(server.process.output()).toMatch(/^ts=\S+ level=info msg="Starting Alertmanager"/m);
    expect(server.process.output()).toMatch(/level=info msg=Listening/);
  });
});

describe('redisx-alertmanager lifecycle', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'am-life-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it.each(['SIGTERM', 'SIGINT'] as const)('shuts down gracefully on %s', async (signal) => {
    const file = join(dir, `${signal}.yml`);
    await writeFile(file, goodConfig);
    const server = await startServerProcess(file, ['--log.format=json']);
    const code = await server.process.stop(signal);
    await server.stop();
    expect(code).toBe(0);
    expect(server.process.output()).toContain(`"msg":"Received ${signal}, exiting gracefully..."`);
  });

  it('exits 1 with the one-line error when the config is bad at start', async () => {
    const file = join(dir, 'bad.yml');
    await writeFile(file, badConfig);
    const result = await runProcess(process.execPath, [
      ALERTMANAGER_BIN,
      `--config.file=${file}`,
      `--storage.path=${join(dir, 'data')}`,
      '--web.listen-address=127.0.0.1:0',
    ]);
    expect(result.code).toBe(1);
    const errors = result.stderr.split('\n').filter((l) => l.includes('level=error'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(
      `${file}:2: route.receiver: undefined receiver \\"nobody\\" used in route`,
    );
  });

  it('exits 1 when the config file does not exist', async () => {
    const file = join(dir, 'missing.yml');
    const result = await runProcess(process.execPath, [
      ALERTMANAGER_BIN,
      `--config.file=${file}`,
      `--storage.path=${join(dir, 'data')}`,
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(file);
  });

  it.each([
    [['--help'], 0, /--config\.file=FILE[\s\S]*--storage\.path=DIR[\s\S]*--web\.listen-address/],
    [['--version'], 0, /^redisx-alertmanager, version \d+\.\d+\.\d+/],
    [['--bogus'], 1, /^redisx-alertmanager: error: unknown long flag '--bogus', try --help$/m],
    [['--log.level=loud'], 1, /enum value must be one of debug,info,warn,error, got 'loud'/],
    [
      ['--web.listen-address=nonsense', '--config.file=x'],
      1,
      /invalid listen address \\"nonsense\\"/,
    ],
  ])('%j exits %i', async (args, code, pattern) => {
    const result = await runProcess(process.execPath, [ALERTMANAGER_BIN, ...args], { cwd: dir });
    expect(result.code).toBe(code);
    expect(result.stdout + result.stderr).toMatch(pattern);
  });
});
