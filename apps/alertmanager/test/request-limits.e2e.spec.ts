import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServerProcess, type ServerProcess } from './support/server-process';

const CONFIG = 'route:\n  receiver: hook\nreceivers:\n  - name: hook\n';

/** A batch of `count` distinct alerts, about 260 bytes each. */
function alertsBody(count: number): string {
  const alerts = Array.from({ length: count }, (_, i) => ({
    labels: { alertname: `Big${i % 100}`, instance: `host-${i}.example.com:9100`, job: 'node' },
    annotations: { summary: `Instance host-${i} is unhealthy`, description: 'x'.repeat(100) },
  }));
  return JSON.stringify(alerts);
}

/**
 * Answers `/-/healthy` again and again while `work` runs; returns how many answers came back
 * during the work and the slowest of them.
 */
async function probeHealthDuring<T>(url: string, work: Promise<T>) {
  let done = false;
  let answered = 0;
  let slowest = 0;
  const probe = (async () => {
    while (!done) {
      const start = performance.now();
      const response = await fetch(`${url}/-/healthy`);
      await response.text();
      if (done) break;
      answered++;
      slowest = Math.max(slowest, performance.now() - start);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  const result = await work;
  done = true;
  await probe;
  return { result, answered, slowest };
}

async function post(url: string, path: string, body: string) {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body,
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/**
 * A health probe slower than this means a stalled event loop (200,000 alerts checked in one go
 * hold it for many seconds); a loaded machine's scheduling stays well under it. The real latency
 * is the hostile-input benchmark's.
 */
const STALLED_MS = 5000;

describe('request limits', () => {
  let dir: string;
  let config: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'am-limits-'));
    config = join(dir, 'alertmanager.yml');
    await writeFile(config, CONFIG);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  describe('with small limits', () => {
    let server: ServerProcess;
    beforeAll(async () => {
      server = await startServerProcess(config, [
        '--web.max-request-bytes=2000',
        '--alerts.max-labels-size-bytes=100',
        '--alerts.max-annotations-size-bytes=200',
      ]);
    });
    afterAll(() => server.stop());

    it.each([
      ['/api/v2/alerts', alertsBody(10)],
      ['/api/v2/silences', `{"comment":"${'x'.repeat(3000)}"}`],
    ])('refuses a body over --web.max-request-bytes on %s with 413', async (path, body) => {
      const res = await post(server.url, path, body);
      expect(res.status).toBe(413);
      expect(JSON.parse(res.text)).toEqual({
        code: 413,
        message: 'request body is larger than 2000 bytes, the limit set by --web.max-request-bytes',
      });
    });

    it.each([
      [100_000, 200],
      [1_040_000, 200],
      [1_100_000, 431],
    ])('takes a request line of %i bytes as Go does (%i)', async (length, status) => {
      const filter = encodeURIComponent(`instance=~"${'x'.repeat(length)}"`);
      const res = await fetch(`${server.url}/api/v2/alerts?filter=${filter}`);
      expect(res.status).toBe(status);
    });

    it('refuses it on API v1 in its envelope', async () => {
      const res = await post(server.url, '/api/v1/alerts', alertsBody(10));
      expect(res.status).toBe(413);
      expect(JSON.parse(res.text)).toEqual({
        status: 'error',
        errorType: 'bad_data',
        error: 'request body is larger than 2000 bytes, the limit set by --web.max-request-bytes',
      });
    });

    it('refuses alerts over the size bounds and keeps the others of the batch', async () => {
      const res = await post(
        server.url,
        '/api/v2/alerts',
        JSON.stringify([
          { labels: { alertname: 'Fits' } },
          { labels: { alertname: 'Long', v: 'x'.repeat(100) } },
          { labels: { alertname: 'Wordy' }, annotations: { d: 'y'.repeat(200) } },
        ]),
      );
      expect(res.status).toBe(400);
      expect(JSON.parse(res.text)).toBe(
        'invalid label set: labels take 114 bytes, more than the 100 allowed by --alerts.max-labels-size-bytes; ' +
          'invalid annotations: annotations and generator URL take 201 bytes, more than the 200 allowed by --alerts.max-annotations-size-bytes',
      );
      const listed = (await (await fetch(`${server.url}/api/v2/alerts`)).json()) as Array<{
        labels: Record<string, string>;
      }>;
      expect(listed.map((a) => a.labels['alertname'])).toEqual(['Fits']);
    });
  });

  it('refuses 50 MB at the default limit without reading it, and keeps answering', async () => {
    const server = await startServerProcess(config);
    try {
      const body = alertsBody(200_000);
      const { result, slowest } = await probeHealthDuring(
        server.url,
        post(server.url, '/api/v2/alerts', body),
      );
      expect(result.status).toBe(413);
      expect(result.headers.get('connection')).toBe('close');
      expect(slowest).toBeLessThan(STALLED_MS);
    } finally {
      await server.stop();
    }
  });

  it('takes 50 MB in slices when allowed, answering health checks meanwhile', async () => {
    const server = await startServerProcess(config, ['--web.max-request-bytes=67108864']);
    try {
      const body = alertsBody(200_000);
      expect(body.length).toBeGreaterThan(50_000_000);
      const { result, answered, slowest } = await probeHealthDuring(
        server.url,
        post(server.url, '/api/v2/alerts', body),
      );
      expect(result.status).toBe(200);
      expect(answered).toBeGreaterThan(5);
      expect(slowest).toBeLessThan(STALLED_MS);
      const one = encodeURIComponent('instance="host-199999.example.com:9100"');
      const found = (await (await fetch(`${server.url}/api/v2/alerts?filter=${one}`)).json()) as [];
      expect(found).toHaveLength(1);
    } finally {
      await server.stop();
    }
  });
});
