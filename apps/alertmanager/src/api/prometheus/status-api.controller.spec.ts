import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { Module, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import { parsePrometheusConfig, type PrometheusConfig } from '../../config';
import { Labels } from '../../tsdb/labels';
import { MemoryStore } from '../../tsdb/memory-store';
import { PrometheusStatusApi } from './status-api';
import { StatusApiController } from './status-api.controller';
import type { RuntimeSources } from './runtime-info';

const CONFIG = `
global:
  scrape_interval: 30s
scrape_configs:
  - job_name: node
    basic_auth: { username: admin, password: hunter2 }
    static_configs: [{ targets: ['127.0.0.1:9100'] }]
`;

const runtime: RuntimeSources = {
  startedAt: Date.UTC(2026, 0, 1),
  cwd: '/srv',
  lastReload: () => ({ successful: true, successAt: Date.UTC(2026, 0, 1) }),
  corruptions: () => 0,
  threads: () => 1,
  cpus: 4,
  retention: { timeMs: 15 * 86_400_000, bytes: 0 },
  nodeOptions: [],
  nodeDebug: '',
};

describe('StatusApiController', () => {
  let app: INestApplication;
  let url = '';
  let config: PrometheusConfig | undefined;
  const store = new MemoryStore();
  // Past upstream's 30 s cache of the cardinality lists at every request.
  let now = 0;
  const clock = { now: () => (now += 31_000) };

  beforeAll(async () => {
    const status = new PrometheusStatusApi({
      prometheusConfig: () => config,
      flags: { 'web.listen-address': ':9093', 'config.file': 'alertmanager.yml' },
      runtime,
      store,
      clock,
    });
    @Module({
      controllers: [StatusApiController],
      providers: [{ provide: PrometheusStatusApi, useValue: status }],
    })
    class TestModule {}
    app = await NestFactory.create(TestModule, new ExpressAdapter(), { logger: false });
    await app.listen(0, '127.0.0.1');
    const { port } = app.getHttpServer().address() as AddressInfo;
    url = `http://127.0.0.1:${port}/api/v1/status`;
  });
  afterAll(() => app.close());

  async function get(path: string): Promise<{ status: number; text: string }> {
    const res = await fetch(`${url}/${path}`);
    expect(res.headers.get('content-type')).toBe('application/json');
    return { status: res.status, text: await res.text() };
  }

  it('answers the empty configuration without a rules configuration file', async () => {
    config = undefined;
    expect(JSON.parse((await get('config')).text)).toEqual({
      status: 'success',
      data: {
        yaml: 'global:\n  scrape_interval: 1m\n  scrape_timeout: 10s\n  evaluation_interval: 1m\n',
      },
    });
  });

  it('answers the configuration in force, its secrets hidden', async () => {
    config = parsePrometheusConfig(CONFIG, '/etc/prometheus.yml');
    const { yaml } = JSON.parse((await get('config')).text).data as { yaml: string };
    expect(yaml).toContain('scrape_interval: 30s');
    expect(yaml).toContain('    password: <secret>\n');
    expect(yaml).not.toContain('hunter2');
  });

  it('answers the flags in the order of their names', async () => {
    expect((await get('flags')).text).toBe(
      '{"status":"success","data":{"config.file":"alertmanager.yml","web.listen-address":":9093"}}',
    );
  });

  it('answers the runtime information', async () => {
    const { data } = JSON.parse((await get('runtimeinfo')).text) as { data: object };
    expect(data).toMatchObject({ CWD: '/srv', GOMAXPROCS: 4, storageRetention: '15d' });
  });

  it.each([
    [
      'an empty store with the times of an empty head',
      [],
      '{"numSeries":0,"numLabelPairs":0,"chunkCount":0,"minTime":9223372036854775807,"maxTime":-9223372036854775808}',
    ],
    [
      'the series in memory',
      [
        [{ __name__: 'up', job: 'a' }, 1_000],
        [{ __name__: 'up', job: 'b' }, 2_000],
      ],
      '{"numSeries":2,"numLabelPairs":3,"chunkCount":2,"minTime":1000,"maxTime":2000}',
    ],
  ] as const)('answers the statistics of %s', async (_, series, head) => {
    for (const [labels, t] of series) store.append(Labels.fromRecord(labels), t, 1);
    const { status, text } = await get('tsdb');
    expect(status).toBe(200);
    expect(text.startsWith(`{"status":"success","data":{"headStats":${head},`)).toBe(true);
    const { data } = JSON.parse(text) as { data: Record<string, unknown> };
    expect(Object.keys(data)).toEqual([
      'headStats',
      'seriesCountByMetricName',
      'labelValueCountByLabelName',
      'memoryInBytesByLabelName',
      'seriesCountByLabelValuePair',
    ]);
    if (series.length > 0) {
      expect(data['seriesCountByMetricName']).toEqual([{ name: 'up', value: 2 }]);
    }
  });
});
