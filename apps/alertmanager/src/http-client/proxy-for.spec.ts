import type { ProxySettings } from '../config';
import { proxyFor, type Environment } from './proxy-for';

const PROXY = 'http://proxy.internal:3128';
const settings = (s: Partial<ProxySettings>): ProxySettings => ({
  proxy_from_environment: false,
  proxy_connect_header: {},
  ...s,
});
const via = (target: string, s: Partial<ProxySettings>, env: Environment = {}) =>
  proxyFor(new URL(target), settings(s), env)?.href;

describe('proxyFor: proxy_url and no_proxy (prometheus/common with Go httpproxy rules)', () => {
  it.each([
    // proxy_url alone proxies everything, loopback included (Go's http.ProxyURL).
    ['https://events.pagerduty.com/x', undefined, `${PROXY}/`],
    ['http://127.0.0.1:9000/hook', undefined, `${PROXY}/`],
    // With no_proxy, Go's httpproxy rules: loopback and localhost always go direct.
    ['http://127.0.0.1:9000/hook', 'example.com', undefined],
    ['http://localhost:9000/hook', 'example.com', undefined],
    ['http://[::1]:9000/hook', 'example.com', undefined],
    ['https://hooks.slack.com/x', 'example.com', `${PROXY}/`],
    // A bare domain matches itself and its subdomains; a leading dot or `*.` only subdomains.
    ['https://example.com/x', 'example.com', undefined],
    ['https://api.example.com/x', 'example.com', undefined],
    ['https://notexample.com/x', 'example.com', `${PROXY}/`],
    ['https://example.com/x', '.example.com', `${PROXY}/`],
    ['https://api.example.com/x', '.example.com', undefined],
    ['https://example.com/x', '*.example.com', `${PROXY}/`],
    ['https://API.Example.com/x', '*.example.com', undefined],
    // Ports: an entry with a port matches only that port (the scheme's default when absent).
    ['https://example.com/x', 'example.com:443', undefined],
    ['https://example.com:8443/x', 'example.com:443', `${PROXY}/`],
    ['http://example.com/x', 'example.com:80', undefined],
    // IPs and CIDRs.
    ['http://10.1.2.3/x', '10.0.0.0/8', undefined],
    ['http://11.1.2.3/x', '10.0.0.0/8', `${PROXY}/`],
    ['http://192.168.1.5:8080/x', '192.168.1.5', undefined],
    ['http://192.168.1.5:8080/x', '192.168.1.5:9090', `${PROXY}/`],
    ['http://[fd00::1]/x', 'fd00::/8', undefined],
    // `*` bypasses every host; entries are trimmed and may be empty.
    ['https://anything.test/x', '*', undefined],
    ['https://b.test/x', ' a.test , , b.test ', undefined],
  ])('%s with no_proxy %p goes via %p', (target, noProxy, expected) => {
    expect(via(target, { proxy_url: PROXY, no_proxy: noProxy })).toBe(expected);
  });

  it('connects directly without proxy settings', () => {
    expect(via('https://events.pagerduty.com/x', {})).toBeUndefined();
  });
});

describe('proxyFor: proxy_from_environment (Go http.ProxyFromEnvironment)', () => {
  it.each<[string, Environment, string | undefined]>([
    ['https://a.test/x', { HTTPS_PROXY: 'http://s:1' }, 'http://s:1/'],
    ['https://a.test/x', { https_proxy: 'http://lower:1' }, 'http://lower:1/'],
    [
      'https://a.test/x',
      { HTTPS_PROXY: 'http://upper:1', https_proxy: 'http://lower:1' },
      'http://upper:1/',
    ],
    ['https://a.test/x', { HTTP_PROXY: 'http://h:1' }, undefined],
    ['http://a.test/x', { HTTP_PROXY: 'http://h:1', HTTPS_PROXY: 'http://s:1' }, 'http://h:1/'],
    // A bare host:port is an HTTP proxy.
    ['http://a.test/x', { http_proxy: 'h.internal:3128' }, 'http://h.internal:3128/'],
    ['https://a.test/x', { HTTPS_PROXY: 'http://s:1', NO_PROXY: 'a.test' }, undefined],
    ['https://a.test/x', { HTTPS_PROXY: 'http://s:1', no_proxy: '.test' }, undefined],
    ['http://127.0.0.1:80/x', { HTTP_PROXY: 'http://h:1' }, undefined],
    ['http://localhost/x', { HTTP_PROXY: 'http://h:1' }, undefined],
  ])('%s with %j goes via %p', (target, env, expected) => {
    expect(via(target, { proxy_from_environment: true }, env)).toBe(expected);
  });
});
