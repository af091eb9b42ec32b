import { resolveExternalUrl } from './external-url';
import { parseListenAddress } from './listen-address';

describe('parseListenAddress', () => {
  it.each([
    [':9093', { host: undefined, port: 9093 }],
    ['127.0.0.1:0', { host: '127.0.0.1', port: 0 }],
    ['localhost:19093', { host: 'localhost', port: 19093 }],
    ['[::1]:9093', { host: '::1', port: 9093 }],
  ])('%s', (text, expected) => {
    expect(parseListenAddress(text)).toEqual(expected);
  });

  it.each(['9093', 'host', ':99999', '1.2.3.4:x', '::1:9093'])('rejects %s', (text) => {
    expect(() => parseListenAddress(text)).toThrow(`invalid listen address "${text}"`);
  });
});

describe('resolveExternalUrl', () => {
  const host = () => 'vm';
  it.each([
    [undefined, undefined, { url: 'http://vm:9093', routePrefix: '' }],
    ['http://am.example.com/', undefined, { url: 'http://am.example.com', routePrefix: '' }],
    [
      'https://x.org/alertmanager/',
      undefined,
      { url: 'https://x.org/alertmanager', routePrefix: '/alertmanager' },
    ],
    ['https://x.org/alertmanager', '/', { url: 'https://x.org/alertmanager', routePrefix: '' }],
    ['http://x.org', 'am', { url: 'http://x.org', routePrefix: '/am' }],
  ])('%s with prefix %s', (flag, prefix, expected) => {
    expect(resolveExternalUrl(flag, prefix, 9093, host)).toEqual(expected);
  });

  it.each([
    ['not a url', 'not an absolute URL'],
    ['ftp://x.org/', 'scheme must be http or https'],
  ])('rejects %s', (flag, reason) => {
    expect(() => resolveExternalUrl(flag, undefined, 9093, host)).toThrow(reason);
  });
});
