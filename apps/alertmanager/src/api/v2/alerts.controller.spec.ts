import { fingerprint } from '../../alerts/fingerprint';
import { API_BODY_LIMIT, labelMuter, startApi, type ApiHarness } from './testdata/api-harness';
import { rawRequest } from './testdata/raw-request';
import { schemaProblems } from './testdata/schema-check';

let api: ApiHarness;
beforeEach(async () => (api = await startApi()));
afterEach(() => api.close());

const post = (body: unknown, type = 'application/json') =>
  fetch(`${api.url}/api/v2/alerts`, {
    method: 'POST',
    headers: { 'Content-Type': type },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
const get = async (path: string) => {
  const res = await fetch(`${api.url}${path}`);
  return { status: res.status, headers: res.headers, body: (await res.json()) as unknown };
};
type Listed = Array<{ labels: Record<string, string>; fingerprint: string }>;
const names = (body: unknown) => (body as Listed).map((a) => a.labels['alertname']);

describe('POST /api/v2/alerts', () => {
  it('stores alerts and answers 200 with an empty body', async () => {
    const res = await post([{ labels: { alertname: 'A', b: '' }, annotations: { summary: 's' } }]);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect([...api.store.list()].map((a) => a.labels)).toEqual([{ alertname: 'A' }]);
  });

  it('stores the valid alerts of a batch and answers 400 with the joined messages', async () => {
    const res = await post([
      { labels: { '0bad': 'x' } },
      { labels: { alertname: 'ok' } },
      { labels: {} },
    ]);
    expect(res.status).toBe(400);
    expect(await res.text()).toBe(
      '"invalid label set: invalid name \\"0bad\\"; at least one label pair required"\n',
    );
    expect(api.store.size).toBe(1);
  });

  it.each([
    [
      'xx',
      400,
      {
        code: 400,
        message:
          'parsing alerts body from "" failed, because invalid character \'x\' looking for beginning of value',
      },
    ],
    ['[{}]', 422, { code: 602, message: '0.labels in body is required' }],
    ['', 422, { code: 602, message: 'alerts in body is required' }],
  ])('refuses %j with %d', async (body, status, expected) => {
    const res = await post(body);
    expect(res.status).toBe(status);
    expect(await res.json()).toEqual(expected);
  });

  // Each answer is what Alertmanager 0.25 gave for the same Content-Type and body.
  const unsupported = (type: string) => ({
    code: 415,
    message: `unsupported media type "${type}", only [application/json] are allowed`,
  });
  const unparsable = (header: string, why: string) => ({
    code: 400,
    message: `parsing Content-Type header from "${header}" failed, because mime: ${why}`,
  });
  it.each<[string, string | undefined, string, number, unknown]>([
    ['no type', undefined, '[]', 415, unsupported('application/octet-stream')],
    ['no type, no body', undefined, '', 422, { code: 602, message: 'alerts in body is required' }],
    ['a type and parameters', 'Text/Plain; charset=utf-8', '[]', 415, unsupported('text/plain')],
    ['a bare type', 'text', '[]', 415, unsupported('text')],
    ['no subtype', 'text/', '[]', 400, unparsable('text/', 'expected token after slash')],
    ['no type before the slash', '/json', '[]', 400, unparsable('/json', 'no media type')],
    [
      'text after the subtype',
      'application/json x',
      '[]',
      400,
      unparsable('application/json x', 'unexpected content after media subtype'),
    ],
    [
      'a repeated parameter',
      'application/json; a=1; a=2',
      '[]',
      400,
      unparsable('application/json; a=1; a=2', 'duplicate parameter name'),
    ],
    [
      'an empty parameter',
      'application/json;;',
      '[]',
      400,
      unparsable('application/json;;', 'invalid media parameter'),
    ],
    ['JSON in capitals', 'Application/JSON; charset=utf-8', '[]', 200, ''],
    ['a trailing semicolon', 'application/json;', '[]', 200, ''],
    ['a quoted parameter', 'application/json ; charset="utf-8"', '[]', 200, ''],
  ])('Content-Type with %s', async (_name, type, body, status, expected) => {
    const res = await rawRequest(`${api.url}/api/v2/alerts`, {
      headers: type === undefined ? {} : { 'Content-Type': type },
      body,
    });
    expect([res.status, res.body === '' ? '' : JSON.parse(res.body)]).toEqual([status, expected]);
  });

  it('checks the type of a chunked body only when bytes are sent', async () => {
    const url = `${api.url}/api/v2/alerts`;
    expect((await rawRequest(url, { chunks: ['[', ']'] })).status).toBe(415);
    expect((await rawRequest(url, { chunks: [] })).status).toBe(422);
  });

  it.each([
    ['declared', { body: '[' + ' '.repeat(API_BODY_LIMIT) + ']' }],
    ['chunked', { chunks: ['[', ' '.repeat(API_BODY_LIMIT), ']'] }],
  ])(
    'refuses a %s body over the size limit with 413 and closes the connection',
    async (_n, how) => {
      const res = await rawRequest(`${api.url}/api/v2/alerts`, {
        headers: { 'Content-Type': 'application/json' },
        ...how,
      });
      expect(res.status).toBe(413);
      expect(res.headers['connection']).toBe('close');
      expect(JSON.parse(res.body)).toEqual({
        code: 413,
        message: `request body is larger than ${API_BODY_LIMIT} bytes, the limit set by --web.max-request-bytes`,
      });
      expect(api.store.size).toBe(0);
    },
  );

  it('refuses a body that is not JSON by its content type with 415', async () => {
    const res = await post('[]', 'application/x-www-form-urlencoded');
    expect(res.status).toBe(415);
    expect(await res.json()).toEqual({
      code: 415,
      message:
        'unsupported media type "application/x-www-form-urlencoded", only [application/json] are allowed',
    });
  });
});

describe('GET /api/v2/alerts', () => {
  beforeEach(async () => {
    const now = api.clock.now();
    await post([
      {
        labels: { alertname: 'Crit', severity: 'critical', team: 'db' },
        generatorURL: 'http://gen/x',
      },
      { labels: { alertname: 'Warn', severity: 'warning' }, annotations: { summary: 'w' } },
      { labels: { alertname: 'Other', instance: 'i1' } },
      { labels: { alertname: 'Gone' }, endsAt: new Date(now - 1000).toISOString() },
    ]);
  });

  it('lists unresolved alerts sorted by fingerprint, in the spec’s shape', async () => {
    const { status, body, headers } = await get('/api/v2/alerts');
    expect(status).toBe(200);
    expect(headers.get('cache-control')).toBe('no-store');
    expect(schemaProblems(body, 'gettableAlerts')).toEqual([]);
    const listed = body as Listed;
    expect(listed.map((a) => a.fingerprint)).toEqual(listed.map((a) => a.fingerprint).sort());
    expect(names(body).sort()).toEqual(['Crit', 'Other', 'Warn']);
    const crit = listed.find((a) => a.labels['alertname'] === 'Crit');
    expect(crit).toEqual({
      annotations: {},
      endsAt: '2026-11-21T04:05:00.000Z',
      fingerprint: fingerprint({ alertname: 'Crit', severity: 'critical', team: 'db' }),
      receivers: [{ name: 'default' }],
      startsAt: '2026-11-21T04:00:00.000Z',
      status: { inhibitedBy: [], mutedBy: [], silencedBy: [], state: 'active' },
      updatedAt: '2026-11-21T04:00:00.000Z',
      generatorURL: 'http://gen/x',
      labels: { alertname: 'Crit', severity: 'critical', team: 'db' },
    });
    expect(listed.find((a) => a.labels['alertname'] === 'Warn')).not.toHaveProperty('generatorURL');
  });

  it.each([
    ['filter=alertname="Warn"', ['Warn']],
    ['filter=severity=~"crit.*|warning"', ['Crit', 'Warn']],
    ['filter=severity=""', ['Other']],
    ['filter=severity!=""', ['Crit', 'Warn']],
    ['filter=severity!=""&filter=team="db"', ['Crit']],
    ['filter=instance="i1"', ['Other']],
    ['silenced=false', ['Crit', 'Other']],
    ['inhibited=false', ['Crit', 'Other', 'Warn']],
    ['active=false', ['Warn']],
    ['active=false&silenced=false', []],
    ['receiver=pager', ['Crit']],
    ['receiver=pag', []],
  ])('?%s', async (qs, expected) => {
    api.muting.silencers = [labelMuter('severity', 'warning', 'silence-1')];
    api.routing.receiversFor = (l) =>
      l['severity'] === 'critical' ? ['pager', 'db'] : ['default'];
    const { status, body } = await get(`/api/v2/alerts?${qs}`);
    expect(status).toBe(200);
    expect(names(body).sort()).toEqual(expected);
  });

  it('reports silences and inhibitions in the status', async () => {
    api.muting.silencers = [labelMuter('severity', 'warning', 'silence-1')];
    api.muting.inhibitors = [labelMuter('severity', 'warning', 'f00d')];
    const { body } = await get('/api/v2/alerts?filter=alertname="Warn"');
    expect((body as Array<{ status: unknown }>)[0].status).toEqual({
      inhibitedBy: ['f00d'],
      mutedBy: [],
      silencedBy: ['silence-1'],
      state: 'suppressed',
    });
  });

  it.each([
    ['filter={foo', 'bad matcher format: {foo'],
    ['filter=foo=~"["', expect.stringMatching(/^error parsing regexp: /)],
    ['receiver=[', expect.stringMatching(/^failed to parse receiver param: error parsing regexp/)],
  ])('answers 400 with a string for ?%s', async (qs, message) => {
    const { status, body } = await get(`/api/v2/alerts?${qs}`);
    expect(status).toBe(400);
    expect(body).toEqual(message);
  });

  it('streams thousands of alerts as one valid JSON array', async () => {
    const batch = Array.from({ length: 5000 }, (_, i) => ({
      labels: { alertname: 'Many', i: String(i) },
    }));
    expect((await post(batch)).status).toBe(200);
    const { body } = await get('/api/v2/alerts?filter=alertname="Many"');
    expect((body as Listed).length).toBe(5000);
  });
});
