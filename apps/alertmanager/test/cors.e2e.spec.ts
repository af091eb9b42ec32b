import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeWhen } from '@redisx/testing';
import { startServerProcess, type ServerProcess } from './support/server-process';
import { startBesideUpstream, UPSTREAM_BIN } from './support/upstream-alertmanager';
import {
  PROMETHEUS_BIN,
  startSideBySideReady,
  type SideBySide,
} from './support/side-by-side-prometheus';

/** A request to the Prometheus API, as a page of another origin (or no page) makes it. */
interface Ask {
  method: 'GET' | 'POST' | 'OPTIONS' | 'DELETE';
  path: string;
  origin?: string;
  /** More request headers (a preflight's `Access-Control-Request-*`). */
  headers?: Record<string, string>;
  body?: string;
}

const CORS_NAMES = [
  'access-control-allow-headers',
  'access-control-allow-methods',
  'access-control-allow-origin',
  'access-control-expose-headers',
  'vary',
];

/** The status and the CORS headers of the answer. */
async function answer(base: string, ask: Ask): Promise<Record<string, string | number>> {
  const res = await fetch(`${base}${ask.path}`, {
    method: ask.method,
    headers: {
      ...(ask.origin === undefined ? {} : { Origin: ask.origin }),
      ...(ask.body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...ask.headers,
    },
    body: ask.body,
  });
  await res.arrayBuffer();
  const seen: Record<string, string | number> = { status: res.status };
  for (const name of CORS_NAMES) {
    const value = res.headers.get(name);
    if (value !== null) seen[name] = value;
  }
  return seen;
}

const CORS = {
  'access-control-allow-headers': 'Accept, Authorization, Content-Type, Origin',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-expose-headers': 'Date',
  vary: 'Origin',
};

const GRAFANA = 'https://grafana.example.com';

/** What a browser's page gets from the Prometheus API: the default `--web.cors.origin` (`.*`). */
const EVERY_ORIGIN: [string, Ask, Record<string, string | number>][] = [
  [
    'a query from another origin',
    { method: 'GET', path: '/api/v1/query?query=1', origin: GRAFANA },
    { status: 200, ...CORS, 'access-control-allow-origin': '*' },
  ],
  ['a query without an origin', { method: 'GET', path: '/api/v1/query?query=1' }, { status: 200 }],
  [
    'a bad query from another origin: the error too',
    { method: 'GET', path: '/api/v1/query?query=sum(', origin: GRAFANA },
    { status: 400, ...CORS, 'access-control-allow-origin': '*' },
  ],
  [
    'a POSTed label query',
    { method: 'POST', path: '/api/v1/labels', origin: GRAFANA },
    { status: 200, ...CORS, 'access-control-allow-origin': '*' },
  ],
  [
    "a browser's preflight",
    { method: 'OPTIONS', path: '/api/v1/query_range', origin: GRAFANA },
    { status: 204, ...CORS, 'access-control-allow-origin': '*' },
  ],
  [
    'a preflight of any path under the API',
    { method: 'OPTIONS', path: '/api/v1/no/such/path', origin: GRAFANA },
    { status: 204, ...CORS, 'access-control-allow-origin': '*' },
  ],
  ['OPTIONS without an origin', { method: 'OPTIONS', path: '/api/v1/query' }, { status: 204 }],
];

const PREFLIGHT_VARY = 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers';
const preflight = (method: string, headers?: string): Record<string, string> => ({
  'Access-Control-Request-Method': method,
  ...(headers === undefined ? {} : { 'Access-Control-Request-Headers': headers }),
});

/** The Alertmanager API v2, as Alertmanager 0.25 answers the same requests. */
const API_V2: [string, Ask, Record<string, string | number>][] = [
  [
    'a GET from another origin',
    { method: 'GET', path: '/api/v2/status', origin: GRAFANA },
    { status: 200, vary: 'Origin', 'access-control-allow-origin': '*' },
  ],
  [
    'a GET without an origin still varies by it',
    { method: 'GET', path: '/api/v2/alerts' },
    { status: 200, vary: 'Origin' },
  ],
  [
    'alerts POSTed from another origin',
    { method: 'POST', path: '/api/v2/alerts', origin: GRAFANA, body: '[]' },
    { status: 200, vary: 'Origin', 'access-control-allow-origin': '*' },
  ],
  [
    'alerts POSTed without an origin',
    { method: 'POST', path: '/api/v2/alerts', body: '[]' },
    { status: 200, vary: 'Origin' },
  ],
  [
    'a bad silence POSTed from another origin',
    { method: 'POST', path: '/api/v2/silences', origin: GRAFANA, body: '{}' },
    { status: 422, vary: 'Origin', 'access-control-allow-origin': '*' },
  ],
  [
    'a DELETE, which pages may not send',
    { method: 'DELETE', path: '/api/v2/alerts', origin: GRAFANA },
    { status: 405, vary: 'Origin' },
  ],
  [
    'a preflight of a POST with JSON',
    {
      method: 'OPTIONS',
      path: '/api/v2/alerts',
      origin: GRAFANA,
      headers: preflight('POST', 'content-type'),
    },
    {
      status: 200,
      vary: PREFLIGHT_VARY,
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'POST',
      'access-control-allow-headers': 'Content-Type',
    },
  ],
  [
    'a preflight of a DELETE',
    {
      method: 'OPTIONS',
      path: '/api/v2/silence/x',
      origin: GRAFANA,
      headers: preflight('DELETE'),
    },
    { status: 200, vary: PREFLIGHT_VARY },
  ],
  [
    'a preflight asking for Authorization',
    {
      method: 'OPTIONS',
      path: '/api/v2/silences',
      origin: GRAFANA,
      headers: preflight('POST', 'authorization'),
    },
    { status: 200, vary: PREFLIGHT_VARY },
  ],
  [
    'OPTIONS that is no preflight goes to the API',
    { method: 'OPTIONS', path: '/api/v2/alerts' },
    { status: 405, vary: 'Origin' },
  ],
];

describe('CORS on the Prometheus API (--web.cors.origin) and the API v2', () => {
  let dir: string;
  let every: ServerProcess;
  let some: ServerProcess;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'am-cors-'));
    const config = join(dir, 'am.yml');
    await writeFile(config, 'route:\n  receiver: none\nreceivers:\n  - name: none\n');
    [every, some] = await Promise.all([
      startServerProcess(config),
      startServerProcess(config, ['--web.cors.origin=https?://grafana\\.example\\.com']),
    ]);
  }, 30_000);

  afterAll(async () => {
    await Promise.all([every?.stop(), some?.stop()]);
    await rm(dir, { recursive: true, force: true });
  });

  it.each(EVERY_ORIGIN)('%s', async (_, ask, expected) => {
    expect(await answer(every.url, ask)).toEqual(expected);
  });

  it.each<[string, Ask, Record<string, string | number>]>([
    [
      'an origin the regex accepts is named back',
      { method: 'GET', path: '/api/v1/query?query=1', origin: GRAFANA },
      { status: 200, ...CORS, 'access-control-allow-origin': GRAFANA },
    ],
    [
      'its preflight too',
      { method: 'OPTIONS', path: '/api/v1/query', origin: 'http://grafana.example.com' },
      { status: 204, ...CORS, 'access-control-allow-origin': 'http://grafana.example.com' },
    ],
    [
      'another origin is not: the browser refuses the answer',
      { method: 'GET', path: '/api/v1/query?query=1', origin: 'https://evil.example' },
      { status: 200, ...CORS },
    ],
    [
      'the regex is fully anchored',
      { method: 'GET', path: '/api/v1/query?query=1', origin: `${GRAFANA}.evil.example` },
      { status: 200, ...CORS },
    ],
  ])('with a regex: %s', async (_, ask, expected) => {
    expect(await answer(some.url, ask)).toEqual(expected);
  });

  it.each(API_V2)('API v2: %s', async (_, ask, expected) => {
    expect(await answer(every.url, ask)).toEqual(expected);
  });

  it("API v2: --web.cors.origin is the Prometheus API's only", async () => {
    const ask: Ask = { method: 'GET', path: '/api/v2/status', origin: 'https://evil.example' };
    expect(await answer(some.url, ask)).toEqual({
      status: 200,
      vary: 'Origin',
      'access-control-allow-origin': '*',
    });
  });
});

const describeWithUpstream = describeWhen(
  !!UPSTREAM_BIN,
  'API v2 CORS comparison skipped: prometheus-alertmanager is not installed (apt-get install prometheus-alertmanager)',
);

describeWithUpstream('API v2 CORS side by side with Alertmanager', () => {
  let dir: string;
  let pair: Awaited<ReturnType<typeof startBesideUpstream>>;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'am-cors-upstream-'));
    pair = await startBesideUpstream(dir);
  }, 30_000);

  afterAll(async () => {
    await pair?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it.each(API_V2)('%s: the same status and headers', async (_, ask) => {
    expect(await answer(pair.ours.url, ask)).toEqual(await answer(pair.theirs.url, ask));
  });
});

const describeWithPrometheus = describeWhen(
  !!PROMETHEUS_BIN,
  'CORS comparison skipped: prometheus is not installed (apt-get install prometheus)',
);

describeWithPrometheus('CORS side by side with Prometheus', () => {
  let dir: string;
  let servers: SideBySide;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'am-cors-compat-'));
    servers = await startSideBySideReady(dir, 'global:\n  evaluation_interval: 1m\n');
  }, 30_000);

  afterAll(async () => {
    await servers?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it.each(EVERY_ORIGIN)('%s: the same status and headers', async (_, ask) => {
    expect(await answer(servers.ours.url, ask)).toEqual(await answer(servers.theirsUrl, ask));
  });
});
