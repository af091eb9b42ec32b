import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Registry } from 'prom-client';
import { installRequestLimits, type RequestLimitOptions } from './request-limits';

/** A real HTTP server whose handler answers only when the test says so. */
async function serverWith(options: RequestLimitOptions) {
  const held: ServerResponse[] = [];
  const server: Server = createServer((req, res) => {
    if (req.url === '/hold') held.push(res);
    else res.end('done');
  });
  const registry = new Registry();
  installRequestLimits(server, options, registry);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    held,
    registry,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('--web.get-concurrency and --web.timeout', () => {
  it('refuses a GET beyond the limit with 503 and counts it; other methods pass', async () => {
    const s = await serverWith({ getConcurrency: 2, timeoutMs: 0 });
    try {
      const first = fetch(`${s.url}/hold`);
      const second = fetch(`${s.url}/hold`);
      await until(() => s.held.length === 2);
      const refused = await fetch(`${s.url}/other`);
      expect(refused.status).toBe(503);
      expect(await refused.text()).toBe(
        'Limit of concurrent GET requests reached (2), try again later.\n',
      );
      expect((await fetch(`${s.url}/other`, { method: 'POST' })).status).toBe(200);
      const metrics = await s.registry.metrics();
      expect(metrics).toContain(
        'alertmanager_http_concurrency_limit_exceeded_total{method="get"} 1',
      );
      expect(metrics).toContain('alertmanager_http_requests_in_flight{method="get"} 2');
      for (const res of s.held) res.end('released');
      expect(await (await first).text()).toBe('released');
      await second;
      expect((await fetch(`${s.url}/other`)).status).toBe(200);
    } finally {
      await s.close();
    }
  });

  it('answers 503 when a request outlives the timeout and drops what its handler writes later', async () => {
    const s = await serverWith({ getConcurrency: 0, timeoutMs: 150 });
    try {
      const res = await fetch(`${s.url}/hold`);
      expect(res.status).toBe(503);
      expect(await res.text()).toBe('Exceeded configured timeout of 150ms.\n');
      // The late answer goes nowhere and does not break the server.
      s.held[0].writeHead(200);
      s.held[0].end('too late');
      expect(await (await fetch(`${s.url}/other`)).text()).toBe('done');
    } finally {
      await s.close();
    }
  });

  it('allows at least 8 GETs at once when no limit is given', async () => {
    const s = await serverWith({ getConcurrency: 0, timeoutMs: 0 });
    try {
      const pending = Array.from({ length: 8 }, () => fetch(`${s.url}/hold`));
      await until(() => s.held.length === 8);
      for (const res of s.held) res.end('ok');
      expect((await Promise.all(pending)).map((r) => r.status)).toEqual(Array(8).fill(200));
    } finally {
      await s.close();
    }
  });
});
