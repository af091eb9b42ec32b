import { QueryParamError } from './http-io';
import { NotificationsApi } from './notifications-api';
import { RoutesApi } from './routes-api';

describe('GET /api/v2/notifications parameters', () => {
  const seen: unknown[] = [];
  const api = new NotificationsApi({
    list: (query) => {
      seen.push(query);
      return [];
    },
  });

  it.each([
    ['', { limit: 100 }],
    ['receiver=ops&outcome=failed&limit=5', { receiver: 'ops', outcome: 'failed', limit: 5 }],
    ['fingerprint=ab12&groupKey=team', { fingerprint: 'ab12', groupKey: 'team', limit: 100 }],
  ])('reads %j', (query, expected) => {
    seen.length = 0;
    api.list(new URLSearchParams(query));
    expect(seen[0]).toMatchObject(expected);
  });

  it.each([
    ['limit=0', 'limit must be an integer from 1 to 1000, got "0"'],
    ['limit=abc', 'limit must be an integer from 1 to 1000, got "abc"'],
    ['outcome=ok', 'outcome must be "success" or "failed", got "ok"'],
    [
      'reciever=ops',
      'unknown parameter "reciever"; known parameters are receiver, integration, outcome, groupKey, fingerprint, limit',
    ],
  ])('refuses %j', (query, message) => {
    expect(() => api.list(new URLSearchParams(query))).toThrow(new QueryParamError(message));
  });
});

describe('GET /api/v2/routes/match parameters', () => {
  const api = new RoutesApi({
    receiversFor: (labels) => (labels['service'] === 'db' ? ['db'] : ['default']),
    groups: () => [],
    tree: () => undefined,
    routesFor: (labels) => (labels['service'] === 'db' ? ['{}/{service="db"}/0'] : ['{}']),
  });

  it('answers the receivers and routes of the labels given', () => {
    expect(api.match(new URLSearchParams('label=service=db&label=msg=a=b'))).toEqual({
      labels: { service: 'db', msg: 'a=b' },
      receivers: ['db'],
      routes: ['{}/{service="db"}/0'],
    });
  });

  it.each([
    ['label=service', 'label must be name=value with a valid label name, got "service"'],
    ['label=1x=y', 'label must be name=value with a valid label name, got "1x=y"'],
    ['labels=a=b', 'unknown parameter "labels"; the only parameter is label'],
  ])('refuses %j', (query, message) => {
    expect(() => api.match(new URLSearchParams(query))).toThrow(new QueryParamError(message));
  });
});
