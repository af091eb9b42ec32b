import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServerProcess, type ServerProcess } from './support/server-process';
import { WebhookCollector } from './support/webhook-collector';
import { webhookConfig, writeWorkStore } from './support/work-store';

const STEP = 15_000;
const SERIES = 400;
const STEPS = 6 * 240;

/**
 * A dashboard's heavy range query runs on a query thread: while it is evaluated, an alert posted
 * is acknowledged and its notification is sent on time. The bounds are loose; the benchmark
 * (`tools/bench/query-isolation.bench.mjs`) holds the tight numbers.
 */
describe('a heavy query does not stall alerting', () => {
  let dir: string;
  let hook: WebhookCollector;
  let server: ServerProcess;
  const end = Math.floor(Date.now() / STEP) * STEP;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'am-isolation-'));
    await writeWorkStore(dir, SERIES, STEPS, end);
    hook = await new WebhookCollector().start();
    await writeFile(join(dir, 'am.yml'), webhookConfig(hook.url));
    await writeFile(join(dir, 'prometheus.yml'), 'global:\n  evaluation_interval: 1m\n');
    server = await startServerProcess(
      join(dir, 'am.yml'),
      [`--rules.config.file=${join(dir, 'prometheus.yml')}`],
      join(dir, 'data'),
    );
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await hook?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('acknowledges a posted alert and notifies on time while the query is evaluated', async () => {
    const started = Date.now();
    const query = fetch(`${server.url}/api/v1/query_range`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        query: 'quantile_over_time(0.5, work_total[2h])',
        start: `${(end - 6 * 3_600_000) / 1000}`,
        end: `${end / 1000}`,
        step: '15',
      }),
    }).then(async (res) => ({ status: res.status, body: await res.text(), at: Date.now() }));
    await new Promise((resolve) => setTimeout(resolve, 300));

    const posted = Date.now();
    const ack = await fetch(`${server.url}/api/v2/alerts`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify([{ labels: { alertname: 'DuringQuery', severity: 'page' } }]),
    });
    const acknowledged = Date.now();
    expect(ack.status).toBe(200);
    const healthy = await fetch(`${server.url}/-/healthy`);
    expect(healthy.status).toBe(200);
    const answeredHealthy = Date.now();

    const [delivery] = await hook.waitFor('/hook', 1, 30_000);
    expect(delivery.body.alerts.map((a) => a.labels.alertname)).toEqual(['DuringQuery']);
    const result = await query;
    expect(result.status).toBe(200);
    expect(JSON.parse(result.body).data.result).toHaveLength(SERIES);

    // The query was still being evaluated when the notification went out.
    expect(result.at).toBeGreaterThan(delivery.at);
    expect(acknowledged - posted).toBeLessThan(2_000);
    expect(answeredHealthy - acknowledged).toBeLessThan(2_000);
    // group_wait is 1 s.
    expect(delivery.at - posted).toBeLessThan(5_000);
    expect(delivery.at - started).toBeGreaterThan(1_000);
  }, 120_000);
});
