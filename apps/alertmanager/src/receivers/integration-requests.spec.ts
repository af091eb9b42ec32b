import { mkdtemp, readFileSync, rm } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { caseAlerts, caseContext, notifierFor } from './testing/integration-case';
import { LoopbackApi } from './testing/loopback-api';

/**
 * Each case of `testdata/integration-requests.json` configures one integration, sends one
 * notification to a loopback API and lists the exact requests upstream's notifier makes for it
 * (method, path and query, the headers that matter, the body), taken from upstream's source.
 */
interface ExpectedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  json?: unknown;
  body?: string;
}
interface Case {
  name: string;
  list: string;
  entry: string;
  global?: string;
  files?: Record<string, string>;
  resolved?: boolean;
  /** Answers of the API, in order, before its defaults (e.g. an issue a search finds). */
  replies?: { status: number; body: string }[];
  requests: ExpectedRequest[];
}

const CASES = JSON.parse(
  readFileSync(join(__dirname, 'testdata', 'integration-requests.json'), 'utf8'),
) as Case[];

let api: LoopbackApi;
let dir: string;
beforeEach(async () => {
  api = await new LoopbackApi().start();
  dir = await promisify(mkdtemp)(join(tmpdir(), 'integration-'));
});
afterEach(async () => {
  await api.stop();
  await promisify(rm)(dir, { recursive: true, force: true });
});

describe.each(CASES)('$name', (c) => {
  it('sends exactly the expected requests', async () => {
    const files = Object.fromEntries(
      Object.entries(c.files ?? {}).map(([k, v]) => [k, v.replace('$URL', api.url)]),
    );
    api.reply(...(c.replies ?? []));
    const notifier = await notifierFor({ ...c, files, apiUrl: api.url, dir });
    try {
      await notifier.notify(caseContext(), caseAlerts(c.resolved ?? false));
    } finally {
      notifier.close?.();
    }
    expect(api.requests.map((r) => `${r.method} ${r.url}`)).toEqual(
      c.requests.map((r) => `${r.method} ${r.url}`),
    );
    c.requests.forEach((expected, i) => {
      const got = api.requests[i];
      expect(got.headers['user-agent']).toMatch(/^Alertmanager\//);
      for (const [name, value] of Object.entries(expected.headers))
        expect([name, got.headers[name]]).toEqual([name, value]);
      if (expected.json !== undefined) expect(JSON.parse(got.body)).toEqual(expected.json);
      else expect(got.body).toBe(expected.body ?? '');
    });
  });
});
