import { startApi, type ApiHarness } from '../v2/testdata/api-harness';

let api: ApiHarness;
beforeEach(async () => (api = await startApi()));
afterEach(() => api.close());

const post = (body: string) =>
  fetch(`${api.url}/api/v1/alerts`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body,
  });

describe('POST /api/v1/alerts', () => {
  it.each([
    ['[{"labels":{"alertname":"A"}}]', 200, { status: 'success' }, 1],
    [
      '[{"labels":{}}]',
      400,
      { status: 'error', errorType: 'bad_data', error: 'at least one label pair required' },
      0,
    ],
    [
      'xx',
      400,
      {
        status: 'error',
        errorType: 'bad_data',
        error: "invalid character 'x' looking for beginning of value",
      },
      0,
    ],
    [
      '[{"labels":{"0bad":"x"}}]',
      400,
      { status: 'error', errorType: 'bad_data', error: '"0bad" is not a valid label name' },
      0,
    ],
    [
      '[{"labels":{"a":"b"},"startsAt":"nope"}]',
      400,
      {
        status: 'error',
        errorType: 'bad_data',
        error:
          'parsing time "\\"nope\\"" as "\\"2006-01-02T15:04:05Z07:00\\"": cannot parse "nope\\"" as "2006"',
      },
      0,
    ],
    [
      '[{"labels":{"a":"b"}},{"labels":{"c":""}}]',
      400,
      { status: 'error', errorType: 'bad_data', error: 'at least one label pair required' },
      1,
    ],
  ])('%s -> %d', async (body, status, envelope, stored) => {
    const res = await post(body);
    expect(res.status).toBe(status);
    expect(res.headers.get('cache-control')).toBe('no-cache, no-store, must-revalidate');
    expect(await res.json()).toEqual(envelope);
    expect(api.store.size).toBe(stored);
  });

  it('applies the same defaults as v2', async () => {
    await post('[{"labels":{"alertname":"A"},"startsAt":"2026-11-21T03:00:00Z"}]');
    expect([...api.store.list()][0]).toMatchObject({
      startsAt: Date.UTC(2026, 10, 21, 3),
      endsAt: api.clock.now() + 5 * 60_000,
      timeout: true,
    });
  });
});
