import { parseConfig } from '../../config';
import { startApi, labelMuter, type ApiHarness } from './testdata/api-harness';
import { schemaProblems } from './testdata/schema-check';

const CONFIG = parseConfig(
  [
    'route:',
    '  receiver: default',
    'receivers:',
    '  - name: default',
    '  - name: pager',
    '    labels: {team: db, tier: paging}',
    '    webhook_configs:',
    '      - url: http://127.0.0.1:1/hook',
    '        http_config:',
    '          bearer_token: s3cret',
  ].join('\n'),
  'am.yml',
);

let api: ApiHarness;
beforeEach(async () => (api = await startApi(CONFIG)));
afterEach(() => api.close());

const get = async (path: string, method = 'GET') => {
  const res = await fetch(`${api.url}${path}`, { method });
  return { status: res.status, headers: res.headers, body: (await res.json()) as unknown };
};

describe('GET /api/v2/alerts/groups', () => {
  beforeEach(async () => {
    await fetch(`${api.url}/api/v2/alerts`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify([
        { labels: { alertname: 'A', severity: 'critical' } },
        { labels: { alertname: 'B', severity: 'warning' } },
      ]),
    });
    const [a, b] = [...api.store.list()].sort((x, y) =>
      x.labels['alertname'] < y.labels['alertname'] ? -1 : 1,
    );
    api.routing.groups = () => [
      { labels: { alertname: 'A' }, receiver: 'pager', alerts: [a] },
      { labels: { alertname: 'B' }, receiver: 'default', routeLabels: { team: 'x' }, alerts: [b] },
    ];
    api.muting.silencers = [labelMuter('severity', 'warning', 'silence-1')];
  });

  it('lists each group with its alerts, in the spec’s shape', async () => {
    const { status, body } = await get('/api/v2/alerts/groups');
    expect(status).toBe(200);
    expect(schemaProblems(body, 'alertGroups')).toEqual([]);
    expect(body).toMatchObject([
      {
        labels: { alertname: 'A' },
        receiver: { name: 'pager' },
        routeLabels: {},
        alerts: [{ labels: { alertname: 'A' } }],
      },
      { labels: { alertname: 'B' }, receiver: { name: 'default' }, routeLabels: { team: 'x' } },
    ]);
  });

  it.each([
    ['receiver=pag.*', ['A']],
    ['filter=severity="warning"', ['B']],
    ['silenced=false', ['A']],
    ['muted=false', ['A']],
    ['active=false', ['B']],
    ['receiver_matchers=team="db"', ['A']],
    ['receiver_matchers=name="default"', ['B']],
    ['receiver_matchers=team!="db"', ['B']],
    ['receiver_matchers=team="nobody"', []],
  ])('?%s keeps groups %j', async (qs, expected) => {
    const { body } = await get(`/api/v2/alerts/groups?${qs}`);
    expect(
      (body as Array<{ labels: { alertname: string } }>).map((g) => g.labels.alertname),
    ).toEqual(expected);
  });
});

describe('GET /api/v2/alerts?receiver_matchers', () => {
  it.each([
    ['name="default"', 1],
    ['team="db"', 0],
  ])('%s keeps %d alerts routed to the default receiver', async (matcher, count) => {
    await fetch(`${api.url}/api/v2/alerts`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify([{ labels: { alertname: 'A' } }]),
    });
    const { body } = await get(`/api/v2/alerts?receiver_matchers=${encodeURIComponent(matcher)}`);
    expect((body as unknown[]).length).toBe(count);
  });
});

describe('status, receivers and unknown routes', () => {
  it('GET /api/v2/status shows the config with secrets masked, in the spec’s shape', async () => {
    const { status, body, headers } = await get('/api/v2/status');
    expect(status).toBe(200);
    expect(headers.get('cache-control')).toBe('no-store');
    expect(schemaProblems(body, 'alertmanagerStatus')).toEqual([]);
    const s = body as { cluster: unknown; config: { original: string }; uptime: string };
    expect(s.cluster).toEqual({ peers: [], status: 'disabled' });
    expect(s.uptime).toBe('2026-11-21T04:00:00.000Z');
    expect(s.config.original).toContain('credentials: <secret>');
    expect(s.config.original).not.toContain('s3cret');
  });

  it('GET /api/v2/receivers lists the receivers with their labels in config order', async () => {
    const { body } = await get('/api/v2/receivers');
    expect(body).toEqual([
      { name: 'default', labels: { name: 'default' } },
      { name: 'pager', labels: { name: 'pager', team: 'db', tier: 'paging' } },
    ]);
  });

  it.each([
    ['team="db"', ['pager']],
    ['tier=~"pag.*"', ['pager']],
    ['team=""', ['default']],
    ['name!="pager"', ['default']],
  ])('GET /api/v2/receivers?receiver_matchers=%s lists %j', async (matcher, names) => {
    const { body } = await get(
      `/api/v2/receivers?receiver_matchers=${encodeURIComponent(matcher)}`,
    );
    expect((body as Array<{ name: string }>).map((r) => r.name)).toEqual(names);
  });

  it.each(['/api/v2/receivers', '/api/v2/alerts', '/api/v2/alerts/groups'])(
    "GET %s refuses bad receiver_matchers with 400 and upstream's message",
    async (path) => {
      const { status, body } = await get(
        `${path}?receiver_matchers=${encodeURIComponent('team=~"("')}`,
      );
      expect(status).toBe(400);
      expect(body).toMatch(/^failed to parse receiver_matchers param: /);
    },
  );

  it.each([
    ['/api/v2/alerts', 'PUT', 'GET,POST'],
    ['/api/v2/silences', 'PUT', 'GET,POST'],
    ['/api/v2/silence/x', 'PUT', 'DELETE,GET'],
    ['/api/v2/alerts/groups', 'POST', 'GET'],
    ['/api/v2/status', 'DELETE', 'GET'],
    ['/api/v2/receivers', 'POST', 'GET'],
  ])('%s answers %s with 405', async (path, method, allowed) => {
    const { status, body, headers } = await get(path, method);
    expect(status).toBe(405);
    expect(headers.get('allow')).toBe(allowed);
    expect(body).toEqual({
      code: 405,
      message: `method ${method} is not allowed, but [${allowed}] are`,
    });
  });

  it.each(['/api/v2/x', '/api/v2/alerts/x/y'])(
    '%s answers 404 in go-swagger’s words',
    async (path) => {
      const { status, body } = await get(path);
      expect(status).toBe(404);
      expect(body).toEqual({ code: 404, message: `path ${path} was not found` });
    },
  );
});
