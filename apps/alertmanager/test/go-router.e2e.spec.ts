import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeWhen } from '@redisx/testing';
import { startServerProcess, type ServerProcess } from './support/server-process';
import {
  PROMETHEUS_BIN,
  startSideBySideReady,
  type SideBySide,
} from './support/side-by-side-prometheus';
import { startBesideUpstream, UPSTREAM_BIN } from './support/upstream-alertmanager';

/**
 * Requests no route takes, outside the API v2 (go-swagger answers those): Alertmanager and
 * Prometheus both route through Go's `httprouter`, which answers a known path asked with another
 * method 405 (OPTIONS: 200) with `Allow`, and any other path Go's plain-text 404.
 */
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'OPTIONS';

interface Seen {
  status: number;
  allow: string | null;
  type: string | null;
  nosniff: string | null;
  body: string;
}

async function seen(base: string, method: Method, path: string): Promise<Seen> {
  const res = await fetch(`${base}${path}`, { method });
  return {
    status: res.status,
    allow: res.headers.get('allow'),
    type: res.headers.get('content-type'),
    nosniff: res.headers.get('x-content-type-options'),
    body: await res.text(),
  };
}

const TEXT = 'text/plain; charset=utf-8';
const notAllowed = (allow: string): Seen => ({
  status: 405,
  allow,
  type: TEXT,
  nosniff: 'nosniff',
  body: 'Method Not Allowed\n',
});
const options = (allow: string): Seen => ({
  status: 200,
  allow,
  type: null,
  nosniff: null,
  body: '',
});
const NOT_FOUND: Seen = {
  status: 404,
  allow: null,
  type: TEXT,
  nosniff: 'nosniff',
  body: '404 page not found\n',
};

/** Paths Alertmanager 0.25 serves, as it answers them. */
const ALERTMANAGER_PATHS: [Method, string, Seen][] = [
  ['PUT', '/-/healthy', notAllowed('GET, HEAD, OPTIONS')],
  ['OPTIONS', '/-/healthy', options('GET, HEAD, OPTIONS')],
  ['DELETE', '/-/ready', notAllowed('GET, HEAD, OPTIONS')],
  ['PUT', '/metrics', notAllowed('GET, OPTIONS')],
  ['OPTIONS', '/metrics', options('GET, OPTIONS')],
  ['POST', '/', notAllowed('GET, OPTIONS')],
  ['GET', '/nonexistent', NOT_FOUND],
  ['DELETE', '/no/such/path', NOT_FOUND],
];

/** Paths of the Prometheus API, as Prometheus 2.42 answers them. */
const PROMETHEUS_PATHS: [Method, string, Seen][] = [
  ['PUT', '/api/v1/query', notAllowed('GET, OPTIONS, POST')],
  ['DELETE', '/api/v1/query_range', notAllowed('GET, OPTIONS, POST')],
  ['DELETE', '/api/v1/labels', notAllowed('GET, OPTIONS, POST')],
  ['PUT', '/api/v1/label/job/values', notAllowed('GET, OPTIONS')],
  ['POST', '/api/v1/rules', notAllowed('GET, OPTIONS')],
  ['POST', '/api/v1/status/buildinfo', notAllowed('GET, OPTIONS')],
  ['PUT', '/api/v1/targets', notAllowed('GET, OPTIONS')],
  ['GET', '/api/v1/nonexistent', NOT_FOUND],
];

describe("requests no route takes, as Go's router answers them", () => {
  let dir: string;
  let server: ServerProcess;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'am-go-router-'));
    await writeFile(join(dir, 'am.yml'), 'route:\n  receiver: none\nreceivers:\n  - name: none\n');
    server = await startServerProcess(join(dir, 'am.yml'));
  }, 30_000);

  afterAll(async () => {
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it.each([...ALERTMANAGER_PATHS, ...PROMETHEUS_PATHS])('%s %s', async (method, path, expected) => {
    expect(await seen(server.url, method, path)).toEqual(expected);
  });

  it('leaves a 404 a route answers itself as it was (a silence not found)', async () => {
    const res = await fetch(`${server.url}/api/v2/silence/0b9d8f65-3d48-4a2b-9c37-6f0e4d8a3a11`);
    expect(res.status).toBe(404);
    expect(res.headers.get('allow')).toBeNull();
  });
});

const describeWithUpstream = describeWhen(
  !!UPSTREAM_BIN,
  'router comparison with Alertmanager skipped: prometheus-alertmanager is not installed (apt-get install prometheus-alertmanager)',
);

describeWithUpstream('the same requests side by side with Alertmanager', () => {
  let dir: string;
  let pair: Awaited<ReturnType<typeof startBesideUpstream>>;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'am-go-router-upstream-'));
    pair = await startBesideUpstream(dir);
  }, 30_000);

  afterAll(async () => {
    await pair?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it.each(ALERTMANAGER_PATHS)('%s %s', async (method, path) => {
    expect(await seen(pair.ours.url, method, path)).toEqual(
      await seen(pair.theirs.url, method, path),
    );
  });
});

const describeWithPrometheus = describeWhen(
  !!PROMETHEUS_BIN,
  'router comparison with Prometheus skipped: prometheus is not installed (apt-get install prometheus)',
);

describeWithPrometheus('the same requests side by side with Prometheus', () => {
  let dir: string;
  let servers: SideBySide;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'am-go-router-prometheus-'));
    servers = await startSideBySideReady(dir, 'global:\n  evaluation_interval: 1m\n');
  }, 30_000);

  afterAll(async () => {
    await servers?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it.each(PROMETHEUS_PATHS)('%s %s', async (method, path) => {
    expect(await seen(servers.ours.url, method, path)).toEqual(
      await seen(servers.theirsUrl, method, path),
    );
  });
});
