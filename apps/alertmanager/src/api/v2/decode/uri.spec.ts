import { isUri } from './uri';

describe('isUri (Go url.Parse)', () => {
  it.each([
    ['http://prometheus:9090/graph?g0.expr=up', true],
    ['/relative/path', true],
    ['just-text', true],
    ['mailto:ops@example.com', true],
    ['http://[::1]:9090/', true],
    ['::bad', false],
    ['1a:b', false],
    ['http://host:port/', false],
    ['http://host/%zz', false],
    ['http://host/\n', false],
  ])('%s -> %s', (text, expected) => {
    expect(isUri(text)).toBe(expected);
  });
});
