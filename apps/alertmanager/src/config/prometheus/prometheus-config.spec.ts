import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../config-error';
import { loadPrometheusConfig, parsePrometheusConfig } from './load-prometheus-config';
import { PROMETHEUS_GLOBAL_DEFAULTS } from './prometheus-config.decoder';
import { REMOTE_WRITE_QUEUE_DEFAULTS } from './remote-write.decoder';

const DIR = join(__dirname, 'testdata');

describe('Prometheus configuration', () => {
  it('reads every section with its defaults, paths resolved against the file', async () => {
    const config = await loadPrometheusConfig(join(DIR, 'valid.yml'));
    expect(config.global).toEqual({
      scrapeIntervalMs: 15_000,
      scrapeTimeoutMs: 10_000,
      evaluationIntervalMs: 30_000,
      externalLabels: { cluster: 'eu1' },
    });
    expect(config.ruleFiles).toEqual([join(DIR, 'rules/*.rules.yml'), '/etc/absolute.yml']);
    const [self, redis] = config.scrapeConfigs;
    expect(self).toMatchObject({
      jobName: 'self',
      honorLabels: false,
      honorTimestamps: true,
      trackTimestampsStaleness: false,
      scrapeIntervalMs: 15_000,
      scrapeTimeoutMs: 10_000,
      metricsPath: '/metrics',
      scheme: 'http',
      staticConfigs: [{ targets: ['127.0.0.1:9093'], labels: {} }],
    });
    expect(redis).toMatchObject({
      jobName: 'redis',
      honorLabels: true,
      honorTimestamps: false,
      trackTimestampsStaleness: true,
      params: { module: ['redis'] },
      // The global timeout is longer than the job's interval: the interval is the timeout.
      scrapeIntervalMs: 5_000,
      scrapeTimeoutMs: 5_000,
      metricsPath: '/probe',
      scheme: 'https',
      staticConfigs: [{ targets: ['127.0.0.1:9121', 'localhost:9122'], labels: { env: 'prod' } }],
      fileSdConfigs: [{ files: [join(DIR, 'targets/*.json')], refreshIntervalMs: 300_000 }],
    });
    expect(redis.httpConfig.basic_auth?.username).toBe('prom');
    expect(redis.httpConfig.tls_config.insecure_skip_verify).toBe(true);
    expect(redis.relabelConfigs).toHaveLength(1);
    expect(redis.metricRelabelConfigs).toHaveLength(1);
    expect(config.alerting.alertmanagers[0]).toMatchObject({
      scheme: 'http',
      pathPrefix: '/am',
      timeoutMs: 10_000,
      apiVersion: 'v2',
    });
  });

  it('gives upstream defaults to an empty file', () => {
    expect(parsePrometheusConfig('# nothing\n', '/etc/prometheus.yml')).toEqual({
      global: PROMETHEUS_GLOBAL_DEFAULTS,
      ruleFiles: [],
      scrapeConfigs: [],
      alerting: { alertRelabelConfigs: [], alertmanagers: [] },
      remoteWrite: [],
      storage: { exemplars: { maxExemplars: 100_000 } },
    });
  });

  it.each([
    ['', 100_000],
    ['storage:\n', 100_000],
    ['storage:\n  exemplars:\n', 100_000],
    ['storage:\n  exemplars: {}\n', 100_000],
    ['storage:\n  exemplars:\n    max_exemplars: 0\n', 0],
    ['storage:\n  exemplars:\n    max_exemplars: 250\n', 250],
  ])('reads storage.exemplars.max_exemplars from %j', (text, maxExemplars) => {
    const config = parsePrometheusConfig(text, '/etc/prometheus.yml');
    expect(config.storage?.exemplars.maxExemplars).toBe(maxExemplars);
  });

  it('reads remote_write with upstream defaults and the HTTP client settings', async () => {
    const config = await loadPrometheusConfig(join(DIR, 'valid.yml'));
    const [plain, backup] = config.remoteWrite;
    expect(plain).toMatchObject({
      url: 'http://127.0.0.1:9201/write',
      name: '',
      remoteTimeoutMs: 30_000,
      headers: {},
      writeRelabelConfigs: [],
      queueConfig: REMOTE_WRITE_QUEUE_DEFAULTS,
      sendExemplars: false,
    });
    expect(plain.httpConfig.follow_redirects).toBe(true);
    expect(REMOTE_WRITE_QUEUE_DEFAULTS).toEqual({
      capacity: 2500,
      maxShards: 200,
      minShards: 1,
      maxSamplesPerSend: 500,
      batchSendDeadlineMs: 5_000,
      minBackoffMs: 30,
      maxBackoffMs: 5_000,
      retryOnHttp429: false,
    });
    expect(backup).toMatchObject({
      url: 'https://metrics.example.com/api/v1/write',
      name: 'backup',
      remoteTimeoutMs: 10_000,
      headers: { 'X-Scope-Orgid': 'team-a' },
      sendExemplars: true,
      queueConfig: {
        capacity: 10_000,
        maxShards: 200,
        minShards: 1,
        maxSamplesPerSend: 2_000,
        batchSendDeadlineMs: 1_000,
        minBackoffMs: 100,
        maxBackoffMs: 10_000,
        retryOnHttp429: true,
      },
    });
    expect(backup.writeRelabelConfigs).toEqual([
      {
        value: { source_labels: ['__name__'], regex: 'expensive_.*', action: 'drop' },
        where: expect.stringMatching(
          /valid\.yml:\d+: remote_write\[1\]\.write_relabel_configs\[0\]$/,
        ),
      },
    ]);
    expect(backup.httpConfig).toMatchObject({
      basic_auth: { username: 'writer' },
      tls_config: { insecure_skip_verify: true },
      proxy_url: 'http://127.0.0.1:3128',
      follow_redirects: false,
    });
  });

  // Each fixture starts with `# error: <line>: <path>: <message>`.
  const invalid = join(DIR, 'invalid');
  const cases = readdirSync(invalid).map((name) => {
    const header = /^# error: (.*)$/m.exec(readFileSync(join(invalid, name), 'utf8'))?.[1] ?? '';
    return [name, header] as const;
  });

  it.each(cases)('refuses %s naming where and why', async (name, expected) => {
    const file = join(invalid, name);
    const error = await loadPrometheusConfig(file).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toBe(`${file}:${expected}`);
  });
});
