import { parseClusterRedisUrl } from './redis-connection';

describe('--cluster.redis-url', () => {
  it.each([
    ['redis://127.0.0.1:6379', 'server', false, [['127.0.0.1', 6379]], ''],
    ['rediss://user:p%40ss@redis.example:6380/2', 'server', true, [['redis.example', 6380]], '2'],
    ['redis://localhost', 'server', false, [['localhost', 6379]], ''],
    [
      'redis+sentinel://s1:26379,s2:26380/mymaster',
      'sentinel',
      false,
      [
        ['s1', 26379],
        ['s2', 26380],
      ],
      'mymaster',
    ],
    ['rediss+sentinel://s1/main', 'sentinel', true, [['s1', 26379]], 'main'],
    [
      'redis+cluster://n1:7000,n2:7001',
      'cluster',
      false,
      [
        ['n1', 7000],
        ['n2', 7001],
      ],
      '',
    ],
  ] as const)('reads %s', (url, kind, tls, hosts, path) => {
    const parsed = parseClusterRedisUrl(url);
    expect(parsed).toMatchObject({ kind, tls, path });
    expect(parsed.hosts.map((h) => [h.host, h.port])).toEqual(hosts);
  });

  it('takes the credentials of the URL', () => {
    expect(parseClusterRedisUrl('rediss://user:p%40ss@redis.example:6380')).toMatchObject({
      username: 'user',
      password: 'p@ss',
    });
  });

  it.each([
    ['http://127.0.0.1:6379', /expected redis:\/\//],
    ['redis+sentinel://s1:26379', /names the master/],
    ['redis://a:1,b:2', /several hosts need/],
    ['redis://host:99999', /invalid host:port "host:99999"/],
    ['redis://', /expected redis:\/\//],
  ])('refuses %s', (url, message) => {
    expect(() => parseClusterRedisUrl(url)).toThrow(message);
  });
});
