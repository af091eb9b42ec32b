import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { postAlerts } from './support/alerts-client';
import { metricValue, startServerProcess, type ServerProcess } from './support/server-process';
import { apiCall, createSilence, listSilences, silenceOf } from './support/silences-client';
import { WebhookCollector } from './support/webhook-collector';

/** The silences API on the real server: create, query, update, expire, and the errors. */
describe('silences API v2', () => {
  let dir: string;
  let server: ServerProcess;
  let collector: WebhookCollector;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'am-silences-'));
    collector = await new WebhookCollector().start();
    await writeFile(
      join(dir, 'alertmanager.yml'),
      `route:
  receiver: hook
  group_by: ['alertname']
  group_wait: 500ms
  group_interval: 1s
  repeat_interval: 1h
receivers:
  - name: hook
    webhook_configs:
      - url: ${collector.url}/hook
        send_resolved: true
`,
    );
    server = await startServerProcess(join(dir, 'alertmanager.yml'));
  });
  afterAll(async () => {
    await server?.stop();
    await collector.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('creates, lists, gets, updates in place, replaces and expires a silence', async () => {
    const id = await createSilence(server.url, silenceOf('alertname', 'Lifecycle'));
    const [listed] = await listSilences(server.url, '?filter=alertname%3D%22Lifecycle%22');
    expect(listed).toMatchObject({ id, status: { state: 'active' }, createdBy: 'tests' });
    expect(listed.matchers).toEqual([
      { isEqual: true, isRegex: false, name: 'alertname', value: 'Lifecycle' },
    ]);
    const one = await apiCall(server.url, 'GET', `/silence/${id}`);
    expect(one.status).toBe(200);
    expect(JSON.parse(one.text)).toEqual(listed);

    // The stored start sent back with a new end and comment keeps the id.
    const endsAt = new Date(Date.now() + 7_200_000).toISOString();
    const same = await createSilence(server.url, { ...listed, endsAt, comment: 'longer' });
    expect(same).toBe(id);
    // New matchers replace it: a new id, and the old silence expires.
    const replaced = await createSilence(server.url, {
      ...listed,
      matchers: [{ name: 'alertname', value: 'Lifecycle2', isRegex: false }],
    });
    expect(replaced).not.toBe(id);
    const old = JSON.parse((await apiCall(server.url, 'GET', `/silence/${id}`)).text);
    expect(old.status.state).toBe('expired');

    expect(await apiCall(server.url, 'DELETE', `/silence/${replaced}`)).toEqual({
      status: 200,
      text: '',
    });
    expect((await apiCall(server.url, 'DELETE', `/silence/${replaced}`)).status).toBe(200);
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metricValue(metrics, 'alertmanager_silences{state="expired"}')).toBeGreaterThanOrEqual(
      2,
    );
  });

  const ZERO = '00000000-0000-0000-0000-000000000000';
  const valid = silenceOf('a', 'b');
  it.each<[string, string, string, unknown, number, string]>([
    ['unknown id on GET', 'GET', `/silence/${ZERO}`, undefined, 404, ''],
    ['unknown id on DELETE', 'DELETE', `/silence/${ZERO}`, undefined, 404, ''],
    [
      'a malformed id',
      'GET',
      '/silence/x',
      undefined,
      422,
      '{"code":601,"message":"silenceID in path must be of type uuid: \\"x\\""}',
    ],
    [
      'an update of an unknown id',
      'POST',
      '/silences',
      { ...valid, id: ZERO },
      404,
      '"silence not found"\n',
    ],
    [
      'no comment',
      'POST',
      '/silences',
      { ...valid, comment: undefined },
      422,
      '{"code":602,"message":"comment in body is required"}',
    ],
    [
      'no matchers',
      'POST',
      '/silences',
      { ...valid, matchers: [] },
      422,
      '{"code":612,"message":"matchers in body should have at least 1 items"}',
    ],
    [
      'no isRegex',
      'POST',
      '/silences',
      { ...valid, matchers: [{ name: 'a', value: 'b' }] },
      422,
      '{"code":602,"message":"matchers.0.isRegex in body is required"}',
    ],
    [
      'malformed JSON',
      'POST',
      '/silences',
      '{',
      400,
      '{"code":400,"message":"parsing silence body from \\"\\" failed, because unexpected EOF"}',
    ],
    [
      'an end before the start',
      'POST',
      '/silences',
      { ...valid, endsAt: valid.startsAt },
      400,
      '"Failed to create silence: start time must be before end time"\n',
    ],
    [
      'an end in the past',
      'POST',
      '/silences',
      { ...valid, startsAt: '2020-01-01T00:00:00Z', endsAt: '2020-01-02T00:00:00Z' },
      400,
      '"Failed to create silence: end time can\'t be in the past"\n',
    ],
    [
      'only an empty matcher',
      'POST',
      '/silences',
      { ...valid, matchers: [{ name: 'a', value: '', isRegex: false }] },
      400,
      '"silence invalid: at least one matcher must not match the empty string"\n',
    ],
    [
      'a bad regex',
      'POST',
      '/silences',
      { ...valid, matchers: [{ name: 'a', value: '(', isRegex: true }] },
      400,
      '"silence invalid: invalid label matcher 0: invalid regular expression \\"(\\": error parsing regexp: missing closing ): `(`"\n',
    ],
    ['a bad filter', 'GET', '/silences?filter=%7B', undefined, 400, '"bad matcher format: {"\n'],
    [
      'a wrong method',
      'PUT',
      '/silences',
      undefined,
      405,
      '{"code":405,"message":"method PUT is not allowed, but [GET,POST] are"}',
    ],
  ])('answers %s as upstream', async (_, method, path, body, status, text) => {
    expect(await apiCall(server.url, method, path, body)).toEqual({ status, text });
  });

  it('mutes an alert while silenced, and the next flush after expiry notifies', async () => {
    const id = await createSilence(server.url, silenceOf('alertname', 'Muted'));
    await postAlerts(server.url, [{ labels: { alertname: 'Muted', instance: 'a' } }]);
    const [alert] = JSON.parse(
      (await apiCall(server.url, 'GET', '/alerts?filter=alertname%3DMuted')).text,
    );
    expect(alert.status).toEqual({
      state: 'suppressed',
      silencedBy: [id],
      inhibitedBy: [],
      mutedBy: [],
    });
    const unsilenced = await apiCall(
      server.url,
      'GET',
      '/alerts?silenced=false&filter=alertname%3DMuted',
    );
    expect(JSON.parse(unsilenced.text)).toEqual([]);

    // group_wait and two group_intervals pass with the alert silenced: nothing is sent.
    await new Promise((resolve) => setTimeout(resolve, 2_600));
    expect(
      collector.to('/hook').filter((d) => d.body.groupLabels['alertname'] === 'Muted'),
    ).toEqual([]);

    expect((await apiCall(server.url, 'DELETE', `/silence/${id}`)).status).toBe(200);
    const [after] = JSON.parse(
      (await apiCall(server.url, 'GET', '/alerts?filter=alertname%3DMuted')).text,
    );
    expect(after.status.state).toBe('active');
    const [delivery] = await collector.waitFor('/hook', 1, 5_000);
    expect(delivery.body).toMatchObject({ status: 'firing', groupLabels: { alertname: 'Muted' } });
  });
});
