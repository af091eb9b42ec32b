import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Whether the exporter's numbers cross every threshold of the specification's rules. */
export type ExporterMode = 'healthy' | 'breaching';

/** One series: a gauge's value, or a counter's increase per scrape, in each mode. */
interface SeriesRow {
  labels: string;
  healthy: number;
  breaching: number;
}

interface Family {
  name: string;
  type: 'counter' | 'gauge' | 'histogram';
  series: SeriesRow[];
}

/** A row: the series' labels, then its number when healthy and when breaching. */
type Row = [labels: string, healthy: number, breaching: number];

function family(type: 'counter' | 'gauge') {
  return (name: string, ...rows: Row[]): Family => ({
    name,
    type,
    series: rows.map(([labels, healthy, breaching]) => ({ labels, healthy, breaching })),
  });
}
const counter = family('counter');
const gauge = family('gauge');

/** A histogram's observations per scrape, all in one bucket (by its upper bound), per mode. */
function histogram(
  name: string,
  bounds: number[],
  perScrape: number,
  healthyIn: number,
  breachingIn: number,
): Family {
  const row = (le: number): SeriesRow => ({
    labels: `le="${le === Infinity ? '+Inf' : le}"`,
    healthy: le >= healthyIn ? perScrape : 0,
    breaching: le >= breachingIn ? perScrape : 0,
  });
  return { name, type: 'histogram', series: [...bounds, Infinity].map(row) };
}

/**
 * The specification's metric families, and for each the numbers that keep its rule quiet
 * (healthy) or cross its threshold (breaching). Counters grow by their row's step at every scrape
 * of `/metrics`, so with a 1 s scrape interval a step is a rate per second.
 */
const FAMILIES: Family[] = [
  // HighRedisLatency: p95 above 50 ms.
  histogram('myapp_redis_command_duration_seconds', [0.01, 0.05, 0.1], 10, 0.01, 0.1),
  // HighRedisErrorRate: errors above 1% of commands.
  counter('myapp_redis_commands_total', ['command="get"', 100, 100]),
  counter('myapp_redis_errors_total', ['command="get"', 0, 10]),
  // LowCacheHitRate: hits below 70%.
  counter('myapp_redis_cache_hits_total', ['cache="orders"', 9, 1]),
  counter('myapp_redis_cache_misses_total', ['cache="orders"', 1, 9]),
  // CacheFull: more than 50,000 entries.
  gauge('myapp_redis_cache_size', ['cache="orders"', 100, 60_000]),
  // HighLockContention: more than 100 locks held.
  gauge('myapp_redis_locks_active', ['', 5, 150]),
  // LongLockWaitTime: p95 wait above 1 s.
  histogram('myapp_redis_lock_wait_duration_seconds', [0.5, 1, 5], 10, 0.5, 5),
  // LockAcquisitionFailures: more than 10 failures a second.
  counter(
    'myapp_redis_lock_acquisitions_total',
    ['status="acquired"', 10, 10],
    ['status="failed"', 0, 50],
  ),
  // StreamProcessingErrors: errors above 5% of a stream's consumed messages.
  counter(
    'myapp_redis_stream_messages_consumed_total',
    ['stream="orders",status="ok"', 10, 5],
    ['stream="orders",status="error"', 0, 5],
  ),
  // StreamPublishErrors: more than one a second on a stream.
  counter('myapp_redis_stream_publish_errors_total', ['stream="orders"', 0, 10]),
  // HighRateLimitBlockRate: rejections above 10% of requests.
  counter(
    'myapp_redis_ratelimit_requests_total',
    ['status="allowed"', 10, 5],
    ['status="rejected"', 0, 5],
  ),
  // HighAPIErrorRate (5xx above 5%) and HighRequestRate (above 10,000 a second).
  counter(
    'http_requests_total',
    ['method="GET",status="200"', 100, 15_000],
    ['method="GET",status="500"', 0, 5_000],
  ),
  // SlowAPIResponses: p95 above 2 s.
  histogram('http_request_duration_seconds', [0.5, 2, 5], 10, 0.5, 5),
  // HighCPUUsage: idle below 20% of a CPU's seconds.
  counter('node_cpu_seconds_total', ['cpu="0",mode="idle"', 0.9, 0.1]),
  // HighMemoryUsage (above 80% used) and DiskSpaceLow (above 85% used).
  gauge('node_memory_MemTotal_bytes', ['', 100, 100]),
  gauge('node_memory_MemAvailable_bytes', ['', 90, 10]),
  gauge('node_filesystem_size_bytes', ['mountpoint="/"', 100, 100]),
  gauge('node_filesystem_avail_bytes', ['mountpoint="/"', 90, 5]),
];

/**
 * A loopback exporter of the specification's metric families in the text exposition format at
 * `/metrics`, and a Redis exporter's endpoint at `/redis` that fails while breaching (so the
 * scrape job `redis` reports `up` 0, which is RedisDown). `mode` switches every family at once.
 */
export class SpecMetricsExporter {
  mode: ExporterMode = 'healthy';
  address = '';
  private server: Server | undefined;
  /** Each counter's running total, by family and series. */
  private readonly totals = new Map<string, number>();

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      if (req.url === '/redis') {
        if (this.mode === 'breaching') return void res.writeHead(503).end('redis unreachable');
        return void res
          .writeHead(200, { 'content-type': 'text/plain; version=0.0.4' })
          .end('# TYPE redis_up gauge\nredis_up 1\n');
      }
      res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' }).end(this.scrape());
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.address = `127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  /** The exposition of one scrape; counters advance by their step. */
  private scrape(): string {
    const lines: string[] = [];
    for (const family of FAMILIES) {
      const histogram = family.type === 'histogram';
      const sample = histogram ? `${family.name}_bucket` : family.name;
      lines.push(`# TYPE ${family.name} ${family.type}`);
      for (const row of family.series) {
        const step = row[this.mode];
        const key = `${sample}{${row.labels}}`;
        const value = family.type === 'gauge' ? step : (this.totals.get(key) ?? 0) + step;
        if (family.type !== 'gauge') this.totals.set(key, value);
        lines.push(`${sample}${row.labels ? `{${row.labels}}` : ''} ${value}`);
      }
      if (histogram) {
        const inf = this.totals.get(`${sample}{le="+Inf"}`) ?? 0;
        lines.push(`${family.name}_count ${inf}`, `${family.name}_sum ${inf}`);
      }
    }
    return `${lines.join('\n')}\n`;
  }
}
