import { waitFor, type TestRedis } from '@redisx/testing';
import Redis from 'ioredis';
import {
  startTracingExampleStack,
  type TracingExampleStack,
} from './support/tracing-example-stack';
const TRACE_URL = 'http://127.0.0.1:16686/trace/{{ .TraceID }}';

/** A script that keeps Redis busy for ARGV[1] microseconds: other clients' commands queue. */
const BUSY =
  "local s = redis.call('TIME') local from = s[1] * 1e6 + s[2] " +
  "repeat local n = redis.call('TIME') until n[1] * 1e6 + n[2] - from >= tonumber(ARGV[1])";

/**
 * From a slow Redis command to the alert that names its trace: the tracing example app
 * (`@redisx/tracing`, its console exporter printing every trace it exports) runs its commands
 * against a Redis server of the test's own that a script keeps busy; its slow commands leave their
 * trace ids as exemplars, which the server scrapes in the OpenMetrics format; the server's own
 * HighRedisLatencyTrace (HighRedisLatency's condition, its `for` cut to seconds) fires, and the
 * webhook's description names the slowest recent command's trace, linked through
 * `--web.trace-url`, a trace the app exported.
 */
describe('a slow command traced to the alert', () => {
  let stack: TracingExampleStack;
  let redis: TestRedis;
  let example: TracingExampleStack['example'];
  let exampleUrl = '';
  let hook: TracingExampleStack['hook'];
  let server: TracingExampleStack['server'];

  beforeAll(async () => {
    stack = await startTracingExampleStack({
      route: '  repeat_interval: 1s\n',
      serverArgs: [`--web.trace-url=${TRACE_URL}`],
    });
    ({ redis, example, exampleUrl, hook, server } = stack);
  }, 30_000);

  afterAll(() => stack?.stop());

  it('serves the app metrics as OpenMetrics to a scraper that asks for them', async () => {
    const negotiated = await fetch(`${exampleUrl}/metrics`, {
      headers: { accept: 'application/openmetrics-text;version=1.0.0,text/plain;q=0.5' },
    });
    // Parameters in the order the HTTP framework writes them.
    expect(negotiated.headers.get('content-type')).toMatch(/^application\/openmetrics-text;/);
    expect(negotiated.headers.get('content-type')).toContain('version=1.0.0');
    expect((await negotiated.text()).endsWith('# EOF\n')).toBe(true);
    const plain = await fetch(`${exampleUrl}/metrics`);
    expect(plain.headers.get('content-type')).toMatch(/^text\/plain;/);
    expect(plain.headers.get('content-type')).toContain('version=0.0.4');
    expect(await plain.text()).not.toContain('# EOF');
  });

  it("names the slowest command's exported trace in HighRedisLatencyTrace's description", async () => {
    const blocker = new Redis(redis.url);
    let blocking = true;
    const blocked = (async () => {
      while (blocking) {
        await blocker.eval(BUSY, 0, 200_000);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    const traffic = setInterval(
      () => void fetch(`${exampleUrl}/orders/good`).catch(() => undefined),
      50,
    );
    const described = () =>
      hook
        .to('/alerts')
        .flatMap((d) => d.body.alerts)
        .filter((a) => a.labels['alertname'] === 'HighRedisLatencyTrace')
        .map((a) => a.annotations['description'] ?? '')
        .find((text) => text.includes('Slowest recent command'));
    try {
      await waitFor(
        'HighRedisLatencyTrace naming a trace at the webhook',
        async () => described() !== undefined,
        45_000,
        200,
      );
    } finally {
      clearInterval(traffic);
      blocking = false;
      await blocked;
      blocker.disconnect();
    }
    const description = described() ?? '';
    const match =
      /^95% of Redis commands took less than .+ \(threshold 50ms\)\. Slowest recent command: ([\d.]+m?s), trace ([0-9a-f]{32}) \((\S+)\)\.$/.exec(
        description,
      );
    expect(match).not.toBeNull();
    const [, took, traceId, link] = match ?? [];
    // The slowest command waited behind the script, at least the 50 ms that make a command slow.
    expect(
      took.endsWith('ms') ? Number(took.slice(0, -2)) : Number(took.slice(0, -1)) * 1000,
    ).toBeGreaterThan(50);
    expect(link).toBe(`http://127.0.0.1:16686/trace/${traceId}`);

    // The exemplar is in the store, and its trace is one the app exported (printed as `trace <id>`).
    const exemplars = (await (
      await fetch(
        `${server.url}/api/v1/query_exemplars?query=myapp_redis_command_duration_seconds_bucket`,
      )
    ).json()) as { data: { exemplars: { labels: Record<string, string> }[] }[] };
    const stored = exemplars.data.flatMap((s) => s.exemplars.map((e) => e.labels['trace_id']));
    expect(stored).toContain(traceId);
    await waitFor('the trace among the exported ones', () =>
      example.output().includes(`trace ${traceId}`),
    );
  }, 70_000);
});
